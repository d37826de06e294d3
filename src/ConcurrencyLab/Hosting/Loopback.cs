using System.Net;

namespace ConcurrencyLab.Hosting;

/// <summary>What counts as this machine's loopback, where the lab sends traffic unless a user names another host.</summary>
internal static class Loopback
{
    /// <summary>Whether <paramref name="host"/> is loopback: <c>localhost</c>, an address in 127.0.0.0/8, or ::1.</summary>
    public static bool IsHost(string host)
    {
        ArgumentNullException.ThrowIfNull(host);
        if (string.Equals(host, "localhost", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        if (!IPAddress.TryParse(host.Trim('[', ']'), out var address))
        {
            return false;
        }

        if (address.IsIPv4MappedToIPv6)
        {
            address = address.MapToIPv4();
        }

        return IPAddress.IsLoopback(address);
    }
}
