using System.Globalization;
using System.Net;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// Every way a loopback answer could send the lab to another host, tried inside a network namespace this test makes:
/// its loopback also carries 192.0.2.1 (an address for documentation, standing for another host), where a trap counts
/// every connection. A service on 127.0.0.1 answers everything with a redirect to the trap. Nothing may reach it, and
/// nothing leaves the machine.
/// </summary>
public sealed partial class OffLoopbackTrapTests
{
    private const string Elsewhere = "192.0.2.1";

    [SkippableFact]
    public async Task NoRedirect_NorAnEndpointThatNamesAnotherHost_ReachesTheTrap()
    {
        Namespaces.Require();
        using var folder = new TempFolder();
        await using var spaces = new Namespaces();
        var space = await spaces.AddAsync("trap");
        await Namespaces.AddToLoopbackAsync(space, Elsewhere);
        await using var trap = Namespaces.Inside(space, () => CountingListener.Start(IPAddress.Parse(Elsewhere), _ => "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"));
        await using var redirect = Namespaces.Inside(space, () => CountingListener.Start(IPAddress.Loopback, _ => $"HTTP/1.1 302 Found\r\nLocation: http://{Elsewhere}:{trap.Port}/x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"));
        var here = $"http://127.0.0.1:{redirect.Port.ToString(CultureInfo.InvariantCulture)}/";
        Task<ProgramRunner.Result> Conclab(params string[] args) =>
            ProgramRunner.RunProgramAsync("ip", folder.Path, ["netns", "exec", space, "dotnet", ProgramRunner.ConclabDll, .. args], TimeSpan.FromMinutes(2));
        string[] oneStep = ["--rate", "20", "--step", "1", "--warmup", "0", "--repeat", "1", "--events", "off"];

        // An endpoint the URI parser reads as a network path to another host: refused before anything is sent.
        var network = await Conclab(["load", "--url", here, "--endpoint", $"a=/\\/{Elsewhere}:{trap.Port}/x", .. oneStep, "--out", "network"]);
        Assert.True(network.ExitCode == 2, network.ToString());

        // The load's requests, and a started service's ready check, each answered 302 to the trap: answers, not followed.
        var load = await Conclab(["load", "--url", here, "--endpoint", "a=/x", .. oneStep, "--out", "load"]);
        Assert.True(load.ExitCode is 0 or 1, load.ToString());
        var ready = await Conclab(["load", "--start", "sleep 30", "--ready", here + "health", "--ready-timeout", "2", "--endpoint", "a=/x", .. oneStep, "--out", "ready"]);
        Assert.Contains($"HTTP 302 to http://{Elsewhere}:{trap.Port}/x, not followed", ready.Output + ready.Error, StringComparison.Ordinal);

        // The product service, whose external service is the redirect: its calls are answered 302 and go no further.
        using (var product = Namespaces.Start(space, folder.Path, "serve", "fanout-product", "--port", "0", "--http2-port", "0", "--external", here, "--external-http2", here))
        {
            Assert.True(await RunningProgram.UntilAsync(() => Listening().IsMatch(product.Output), TimeSpan.FromSeconds(60)), product.ToString());
            var productUrl = Listening().Match(product.Output).Groups[1].Value;
            var through = await Conclab(["load", "--url", productUrl, "--endpoint", "a=/product/whenall-async/1", .. oneStep, "--out", "product"]);
            Assert.True(through.ExitCode is 0 or 1, through.ToString());
            product.Signal(15);
            Assert.Equal(0, await product.WaitAsync(TimeSpan.FromSeconds(15)));
        }

        // A fanout trial whose product service is the redirect: its client is answered 302 and goes no further.
        var fanout = await Conclab(["run", "fanout", "--product-url", here, "--variants", "whenall-async@5", "--quick", "--repeat", "1", "--plain", "--out", "fanout"]);
        Assert.True(fanout.ExitCode is 0 or 1, fanout.ToString());
        using (var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "fanout", "results.json"))))
        {
            Assert.NotEqual("ok", json.RootElement.GetProperty("scenarios")[0].GetProperty("variants")[0].GetProperty("trials")[0].GetProperty("status").GetString());
        }

        Assert.True(redirect.Connections >= 4, $"{redirect.Connections} connections to the redirect");
        Assert.Equal(0, trap.Connections);
    }

    [GeneratedRegex(@"^listening (http://127\.0\.0\.1:\d+/?) http2=", RegexOptions.Multiline)]
    private static partial Regex Listening();
}
