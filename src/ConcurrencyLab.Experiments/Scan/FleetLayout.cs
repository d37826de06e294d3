using System.Net;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>
/// Which host of the fleet is which: consecutive addresses of 127.0.0.0/8 starting at <see cref="FirstAddress"/>,
/// each drawn from the seed as open, closed or silent in the given shares.
/// </summary>
internal sealed class FleetLayout
{
    /// <summary>The default first host, 127.0.1.1: outside 127.0.0.1, which other services on the machine use.</summary>
    public static IPAddress FirstAddress { get; } = IPAddress.Parse("127.0.1.1");

    private FleetLayout(IReadOnlyList<FleetHost> hosts) => Hosts = hosts;

    /// <summary>The hosts in address order.</summary>
    public IReadOnlyList<FleetHost> Hosts { get; }

    /// <summary>How many hosts are of <paramref name="kind"/>.</summary>
    public int Count(HostKind kind) => Hosts.Count(h => h.Kind == kind);

    /// <summary>
    /// Draws <paramref name="hosts"/> hosts with kinds in proportion to the shares (which need not sum to 1).
    /// The counts are rounded so they add up, and the kinds are shuffled by the seed, so the same seed gives
    /// the same fleet.
    /// </summary>
    public static FleetLayout Generate(int hosts, double openShare, double closedShare, double silentShare, int seed)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(hosts, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(hosts, 65_000);
        ArgumentOutOfRangeException.ThrowIfNegative(openShare);
        ArgumentOutOfRangeException.ThrowIfNegative(closedShare);
        ArgumentOutOfRangeException.ThrowIfNegative(silentShare);
        var total = openShare + closedShare + silentShare;
        if (total <= 0)
        {
            throw new ArgumentException("At least one share must be positive.", nameof(openShare));
        }

        var open = (int)Math.Round(hosts * openShare / total);
        var closed = Math.Min(hosts - open, (int)Math.Round(hosts * closedShare / total));
        var kinds = Enumerable.Repeat(HostKind.Open, open)
            .Concat(Enumerable.Repeat(HostKind.Closed, closed))
            .Concat(Enumerable.Repeat(HostKind.Silent, hosts - open - closed))
            .ToArray();
        new Random(seed).Shuffle(kinds);

        var first = FirstAddress.GetAddressBytes();
        var start = (first[1] << 16) | (first[2] << 8) | first[3];
        var list = new FleetHost[hosts];
        for (var i = 0; i < hosts; i++)
        {
            // Consecutive addresses: 127.0.1.1 to 127.0.1.255 for the default 255 hosts, then on into 127.0.2.x.
            var offset = start + i;
            list[i] = new FleetHost(new IPAddress(new byte[] { 127, (byte)(offset >> 16), (byte)(offset >> 8), (byte)offset }), kinds[i]);
        }

        return new FleetLayout(list);
    }
}

/// <summary>One host of the fleet.</summary>
internal sealed record FleetHost(IPAddress Address, HostKind Kind);
