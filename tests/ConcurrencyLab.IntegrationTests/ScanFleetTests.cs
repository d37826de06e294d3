using System.Net;
using System.Net.Sockets;
using ConcurrencyLab.Experiments.Scan;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The scan experiment's fleet: real listeners on loopback addresses, each host the kind it was asked to be.</summary>
[Collection(nameof(ScanFleets))]
public sealed class ScanFleetTests
{
    [Fact]
    public void Layout_DefaultRange_IsDeterministic_AndSplitsByShares()
    {
        var layout = FleetLayout.Generate(255, openShare: 0.05, closedShare: 0.15, silentShare: 0.80, seed: 7);

        Assert.Equal("127.0.1.1", layout.Hosts[0].Address.ToString());
        Assert.Equal("127.0.1.255", layout.Hosts[^1].Address.ToString());
        Assert.Equal(255, layout.Hosts.Select(h => h.Address).Distinct().Count());
        Assert.Equal(13, layout.Count(HostKind.Open));
        Assert.Equal(38, layout.Count(HostKind.Closed));
        Assert.Equal(204, layout.Count(HostKind.Silent));
        Assert.Equal(layout.Hosts.Select(h => h.Kind), FleetLayout.Generate(255, 0.05, 0.15, 0.80, seed: 7).Hosts.Select(h => h.Kind));
        Assert.NotEqual(layout.Hosts.Select(h => h.Kind), FleetLayout.Generate(255, 0.05, 0.15, 0.80, seed: 8).Hosts.Select(h => h.Kind));
    }

    [Theory]
    [InlineData("127.0.0.1", true)]
    [InlineData("127.200.3.4", true)]
    [InlineData("::ffff:127.0.0.1", true)]
    [InlineData("10.0.0.1", false)]
    [InlineData("192.168.1.1", false)]
    [InlineData("::1", false)]
    public void IsLoopback_AcceptsOnly127Slash8(string address, bool expected) =>
        Assert.Equal(expected, Fleet.IsLoopback(IPAddress.Parse(address)));

    [Fact]
    public async Task Fleet_EveryHostAnswersAsItsKind_AndNothingIsLeftAfterwards()
    {
        var layout = FleetLayout.Generate(30, 1, 1, 1, seed: 3);
        var fleet = await Fleet.StartAsync(layout);
        IReadOnlyList<HostKind> seen;
        try
        {
            seen = await Task.WhenAll(layout.Hosts.Select(h => ProbeAsync(new IPEndPoint(h.Address, fleet.Port))));
            Assert.Equal(layout.Hosts.Select(h => h.Kind), seen);
            Assert.Equal(10, fleet.Accepted);
            Assert.True(fleet.OpenSockets > 0);
        }
        finally
        {
            await fleet.DisposeAsync();
        }

        Assert.Equal(0, fleet.OpenSockets);

        // With every socket closed, no host listens any more: open and silent ones now refuse like closed ones.
        seen = await Task.WhenAll(layout.Hosts.Select(h => ProbeAsync(new IPEndPoint(h.Address, fleet.Port))));
        Assert.All(seen, kind => Assert.Equal(HostKind.Closed, kind));
    }

    [SkippableFact]
    public async Task AcceptQueue_IsFull_OnlyWhenMoreAreQueuedThanTheBacklogAllows()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "the accept queue is read with TCP_INFO, as Linux reports it for a listener");
        var address = IPAddress.Parse("127.0.0.1");
        using var zero = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        using var two = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        using var unbound = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        zero.Bind(new IPEndPoint(address, 0));
        zero.Listen(0);
        two.Bind(new IPEndPoint(address, 0));
        two.Listen(2);

        // Not a listener: nothing to read, so the fleet falls back to trying a connect.
        Assert.Null(AcceptQueue.IsFull(unbound));
        Assert.False(AcceptQueue.IsFull(zero));
        Assert.False(AcceptQueue.IsFull(two));

        using var first = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        using var second = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await first.ConnectAsync(zero.LocalEndPoint!);
        await second.ConnectAsync(two.LocalEndPoint!);
        Assert.True(await Eventually(() => AcceptQueue.IsFull(zero) == true));

        // One queued against a backlog of 2 leaves room: the next SYN would be answered.
        Assert.False(AcceptQueue.IsFull(two));

        // And the reading is the kernel's own rule: the full listener drops a connect, the other answers it.
        Assert.Equal(HostKind.Silent, await ProbeAsync((IPEndPoint)zero.LocalEndPoint!));
        Assert.Equal(HostKind.Open, await ProbeAsync((IPEndPoint)two.LocalEndPoint!));
    }

    private static async Task<bool> Eventually(Func<bool> condition)
    {
        for (var look = 0; look < 100; look++)
        {
            if (condition())
            {
                return true;
            }

            await Task.Delay(10);
        }

        return false;
    }

    private static async Task<HostKind> ProbeAsync(IPEndPoint endPoint)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        using var timeout = new CancellationTokenSource(TimeSpan.FromMilliseconds(500));
        try
        {
            await socket.ConnectAsync(endPoint, timeout.Token);
            return HostKind.Open;
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionRefused)
        {
            return HostKind.Closed;
        }
        catch (OperationCanceledException)
        {
            return HostKind.Silent;
        }
    }
}
