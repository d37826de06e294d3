using System.Net;
using System.Net.Sockets;

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

        return IPAddress.TryParse(host.Trim('[', ']'), out var address) && IsAddress(address);
    }

    /// <summary>Whether <paramref name="address"/> is in 127.0.0.0/8 or is ::1, written as IPv6 or mapped to it.</summary>
    public static bool IsAddress(IPAddress address)
    {
        ArgumentNullException.ThrowIfNull(address);
        return IPAddress.IsLoopback(address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address);
    }

    /// <summary>
    /// Why a connection to <paramref name="address"/>, reached by the name <paramref name="host"/>, is refused; null
    /// where it may be made: the address is loopback, or the user named it, or the name it was reached by, with
    /// <c>--allow-host</c> (<paramref name="allowedHosts"/>).
    /// </summary>
    public static string? Refusal(string host, IPAddress address, IReadOnlyCollection<string> allowedHosts)
    {
        ArgumentNullException.ThrowIfNull(host);
        ArgumentNullException.ThrowIfNull(address);
        ArgumentNullException.ThrowIfNull(allowedHosts);
        var mapped = address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address;
        if (IsAddress(mapped) || allowedHosts.Any(a => string.Equals(a.Trim('[', ']'), host.Trim('[', ']'), StringComparison.OrdinalIgnoreCase)
            || (IPAddress.TryParse(a.Trim('[', ']'), out var named) && (named.IsIPv4MappedToIPv6 ? named.MapToIPv4() : named).Equals(mapped))))
        {
            return null;
        }

        return $"conclab connects only to loopback (127.0.0.0/8, ::1) or a host --allow-host names; {host} is {mapped}, neither";
    }

    /// <summary>
    /// The handler every HTTP client the lab makes is built on: no proxy, no redirect followed (a 3xx is an answer, said
    /// as such), and a connection made only to an address <see cref="Refusal"/> allows, checked on the address actually
    /// connected to, after the name is resolved, so that no path, redirect or name can reach another host.
    /// </summary>
    public static SocketsHttpHandler Handler(params IEnumerable<string?> allowedHosts)
    {
        IReadOnlyCollection<string> allowed = [.. allowedHosts.Where(h => !string.IsNullOrEmpty(h)).Select(h => h!)];
        return new SocketsHttpHandler
        {
            UseProxy = false,
            AllowAutoRedirect = false,
            ConnectCallback = (context, cancellationToken) => ConnectAsync(context.DnsEndPoint, allowed, OpenAsync, cancellationToken),
        };
    }

    /// <summary>
    /// Resolves <paramref name="endpoint"/> and opens a connection with <paramref name="open"/> to the addresses
    /// allowed, in the order the name gave them; refuses, before <paramref name="open"/> is called at all, where no
    /// address is allowed.
    /// </summary>
    internal static async ValueTask<Stream> ConnectAsync(
        DnsEndPoint endpoint,
        IReadOnlyCollection<string> allowed,
        Func<IPEndPoint, CancellationToken, ValueTask<Stream>> open,
        CancellationToken cancellationToken)
    {
        var addresses = IPAddress.TryParse(endpoint.Host.Trim('[', ']'), out var literal)
            ? [literal]
            : await Dns.GetHostAddressesAsync(endpoint.Host, cancellationToken).ConfigureAwait(false);
        string? refused = null;
        SocketException? failed = null;
        foreach (var address in addresses)
        {
            if (Refusal(endpoint.Host, address, allowed) is { } refusal)
            {
                refused ??= refusal;
                continue;
            }

            try
            {
                return await open(new IPEndPoint(address, endpoint.Port), cancellationToken).ConfigureAwait(false);
            }
            catch (SocketException ex)
            {
                failed = ex;
            }
        }

        // An allowed address that did not answer says why; with none allowed, the refusal does, and nothing was sent.
        throw failed ?? (Exception)new HttpRequestException(HttpRequestError.ConnectionError, (refused ?? $"{endpoint.Host} has no address") + ".");
    }

    // A TCP connection to one address, as the framework's own handler makes it.
    private static async ValueTask<Stream> OpenAsync(IPEndPoint endpoint, CancellationToken cancellationToken)
    {
        var socket = new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(endpoint, cancellationToken).ConfigureAwait(false);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
