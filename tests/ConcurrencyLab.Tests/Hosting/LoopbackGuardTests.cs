using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.RegularExpressions;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Tests.Hosting;

/// <summary>
/// The one guard every HTTP client of the lab is built on: a connection only to loopback or a host the user named,
/// checked on the address actually connected to, and no redirect followed. Nothing here sends a packet off loopback:
/// a refused address never reaches a socket, and the trap that would see a followed redirect is on 127.0.0.2.
/// </summary>
public sealed class LoopbackGuardTests
{
    [Theory]
    [InlineData("127.0.0.1", "127.0.0.1", null, true)]
    [InlineData("localhost", "::1", null, true)]
    [InlineData("127.9.8.7", "127.9.8.7", null, true)]
    [InlineData("x", "::ffff:127.0.0.1", null, true)]
    [InlineData("192.0.2.1", "192.0.2.1", null, false)]
    [InlineData("192.0.2.1", "::ffff:192.0.2.1", null, false)]
    [InlineData("192.0.2.1", "192.0.2.1", "192.0.2.1", true)]
    [InlineData("svc.example", "192.0.2.7", "SVC.example", true)]
    [InlineData("evil.example", "192.0.2.7", "svc.example", false)]
    [InlineData("evil.example", "192.0.2.7", "192.0.2.7", true)]
    [InlineData("evil.example", "::ffff:192.0.2.7", "192.0.2.7", true)]
    public void AConnection_IsAllowed_ToLoopback_OrAHostOrAddressTheUserNamed_Only(string host, string address, string? allowed, bool allow)
    {
        var refusal = Loopback.Refusal(host, IPAddress.Parse(address), allowed is null ? [] : [allowed]);
        Assert.Equal(allow, refusal is null);
        if (refusal is not null)
        {
            Assert.StartsWith("conclab connects only to loopback (127.0.0.0/8, ::1) or a host --allow-host names;", refusal, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task ARefusedAddress_NeverReachesASocket_AndAnAllowedOneIsOpened()
    {
        var opened = new List<IPEndPoint>();
        ValueTask<Stream> Record(IPEndPoint endpoint, CancellationToken cancellationToken)
        {
            opened.Add(endpoint);
            return ValueTask.FromResult<Stream>(new MemoryStream());
        }

        var refused = await Assert.ThrowsAsync<HttpRequestException>(async () => await Loopback.ConnectAsync(new DnsEndPoint("192.0.2.1", 80), [], Record, CancellationToken.None));
        Assert.Contains("192.0.2.1 is 192.0.2.1, neither", refused.Message, StringComparison.Ordinal);
        Assert.Empty(opened);

        await using var stream = await Loopback.ConnectAsync(new DnsEndPoint("127.0.0.5", 81), [], Record, CancellationToken.None);
        Assert.Equal([new IPEndPoint(IPAddress.Parse("127.0.0.5"), 81)], opened);

        // Named by the user: allowed, and opened at the address given.
        await using var named = await Loopback.ConnectAsync(new DnsEndPoint("192.0.2.1", 80), ["192.0.2.1"], Record, CancellationToken.None);
        Assert.Equal(IPAddress.Parse("192.0.2.1"), opened[^1].Address);
    }

    [Fact]
    public async Task ARedirect_IsAnAnswer_NeverFollowed_EvenToAnotherLoopbackAddress()
    {
        // The trap, on another loopback address, counts every connection; the service answers 302 to it.
        using var trap = new TcpListener(IPAddress.Parse("127.0.0.2"), 0);
        trap.Start();
        var trapPort = ((IPEndPoint)trap.LocalEndpoint).Port;
        var caught = 0;
        using var stop = new CancellationTokenSource();
        var trapping = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                using var socket = await trap.AcceptSocketAsync(stop.Token);
                Interlocked.Increment(ref caught);
            }
        });

        using var service = new TcpListener(IPAddress.Loopback, 0);
        service.Start();
        var answering = Task.Run(async () =>
        {
            using var socket = await service.AcceptSocketAsync(stop.Token);
            var buffer = new byte[4096];
            await socket.ReceiveAsync(buffer, SocketFlags.None, stop.Token);
            await socket.SendAsync(Encoding.ASCII.GetBytes($"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:{trapPort}/health\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"), SocketFlags.None, stop.Token);
        });

        using var client = new HttpClient(Loopback.Handler());
        using var response = await client.GetAsync(new Uri($"http://127.0.0.1:{((IPEndPoint)service.LocalEndpoint).Port}/health"));
        await answering;

        Assert.Equal(HttpStatusCode.Found, response.StatusCode);
        Assert.Equal(0, Volatile.Read(ref caught));
        await stop.CancelAsync();
        trap.Stop();
        await Assert.ThrowsAnyAsync<Exception>(() => trapping);
    }

    [Fact]
    public void EveryHttpClientTheLabMakes_IsBuiltOnTheGuardedHandler()
    {
        // A client made any other way (a bare HttpClient, a handler of its own) follows redirects and connects anywhere.
        var root = Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "..", "..", "..", "..", ".."));
        var unguarded = Directory.EnumerateFiles(Path.Combine(root, "src"), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal) && !f.EndsWith("Loopback.cs", StringComparison.Ordinal))
            .SelectMany(f => File.ReadLines(f).Select((line, i) => (File: Path.GetRelativePath(root, f), Line: i + 1, Text: line)))
            .Where(l => Regex.IsMatch(l.Text, @"new\s+(SocketsHttpHandler|HttpClientHandler)\b|new\s+HttpClient\s*(\(\s*\)|\{|$)|new HttpClient\(new "))
            .Select(l => $"{l.File}:{l.Line}: {l.Text.Trim()}")
            .ToList();
        Assert.True(unguarded.Count == 0, string.Join('\n', unguarded));
    }
}
