using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// conclab load against a service that answers every request with a redirect to a trap: the trap, on another loopback
/// address, counts every connection, and must count none. Everything here is on loopback.
/// </summary>
[Collection(nameof(SocketUsers))]
public sealed class LoopbackGuardTests
{
    [Fact]
    public async Task Redirects_AreAnswers_NeverFollowed_ByTheLoadNorByTheReadyCheck_AndAnEndpointThatLeavesTheServiceIsRefused()
    {
        using var folder = new TempFolder();
        await using var trap = Listener.Start(IPAddress.Parse("127.0.0.2"), _ => string.Empty);
        await using var service = Listener.Start(IPAddress.Loopback, _ => $"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:{trap.Port}/x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

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

    /// <summary>A listener that answers each connection's first read with a fixed text, counting connections.</summary>
    private sealed class Listener : IAsyncDisposable
    {
        private readonly TcpListener _listener;
        private readonly CancellationTokenSource _stop = new();
        private readonly Task _serving;
        private int _connections;

        private Listener(IPAddress address, Func<int, string> answer)
        {
            _listener = new TcpListener(address, 0);
            _listener.Start();
            _serving = ServeAsync(answer);
        }

        public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

        public int Connections => Volatile.Read(ref _connections);

        public static Listener Start(IPAddress address, Func<int, string> answer) => new(address, answer);

        public async ValueTask DisposeAsync()
        {
            await _stop.CancelAsync();
            _listener.Stop();
            try
            {
                await _serving;
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
            {
            }

            _stop.Dispose();
        }

        private async Task ServeAsync(Func<int, string> answer)
        {
            while (!_stop.IsCancellationRequested)
            {
                var socket = await _listener.AcceptSocketAsync(_stop.Token);
                var n = Interlocked.Increment(ref _connections);
                _ = AnswerAsync(socket, answer(n));
            }
        }

        private async Task AnswerAsync(Socket socket, string text)
        {
            using (socket)
            {
                try
                {
                    var buffer = new byte[8192];
                    await socket.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
                    if (text.Length > 0)
                    {
                        await socket.SendAsync(Encoding.ASCII.GetBytes(text), SocketFlags.None, _stop.Token);
                    }
                }
                catch (Exception ex) when (ex is OperationCanceledException or SocketException)
                {
                }
            }
        }
    }
}
