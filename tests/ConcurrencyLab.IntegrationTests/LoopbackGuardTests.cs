using System.Net;
using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// conclab load against a service that answers every request with a redirect to a trap: the trap, on another loopback
/// address, counts every connection, and must count none. Everything here is on loopback.
/// </summary>
public sealed class LoopbackGuardTests
{
    [Fact]
    public async Task Redirects_AreAnswers_NeverFollowed_ByTheLoadNorByTheReadyCheck_AndAnEndpointThatLeavesTheServiceIsRefused()
    {
        using var folder = new TempFolder();
        await using var trap = CountingListener.Start(IPAddress.Parse("127.0.0.2"), _ => string.Empty);
        await using var service = CountingListener.Start(IPAddress.Loopback, _ => $"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:{trap.Port}/x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

        // The load: every request answered 302, counted as failed, none followed.
        var load = await ProgramRunner.ConclabAsync(folder.Path, "load", "--url", $"http://127.0.0.1:{service.Port}/", "--endpoint", "a=/x", "--rate", "20", "--step", "1", "--warmup", "0", "--repeat", "1", "--events", "off", "--out", "out");
        Assert.True(load.ExitCode is 0 or 1, load.ToString());
        using (var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json"))))
        {
            var step = json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[0].GetProperty("steps")[0];
            Assert.True(step.GetProperty("failed").GetProperty("HTTP 302").GetInt32() > 0, step.ToString());
        }

        // The ready check of a started service: a 302 is not ready, said with where it pointed.
        var ready = await ProgramRunner.ConclabAsync(folder.Path, "load", "--start", "sleep 30", "--ready", $"http://127.0.0.1:{service.Port}/health", "--ready-timeout", "2", "--endpoint", "a=/x", "--rate", "20", "--step", "1", "--repeat", "1", "--events", "off", "--out", "ready");
        Assert.Contains($"HTTP 302 to http://127.0.0.2:{trap.Port}/x, not followed", ready.Output + ready.Error, StringComparison.Ordinal);

        // An endpoint the URI parser would read as another host: refused before anything is sent.
        var network = await ProgramRunner.ConclabAsync(folder.Path, "load", "--url", $"http://127.0.0.1:{service.Port}/", "--endpoint", $"a=/\\/127.0.0.2:{trap.Port}/x", "--rate", "20", "--out", "network");
        Assert.True(network.ExitCode == 2, network.ToString());
        Assert.Contains("it is requested from the service's URL, never elsewhere", network.Error, StringComparison.Ordinal);

        Assert.True(service.Connections > 0);
        Assert.Equal(0, trap.Connections);
    }
}
