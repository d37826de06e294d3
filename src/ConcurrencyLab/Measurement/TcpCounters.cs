using System.Globalization;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// The kernel's count of connection attempts dropped because a listener's accept queue was full
/// (<c>TcpExtListenOverflows</c> in <c>/proc/net/netstat</c>). A dropped attempt is retried by the client
/// only after its retransmission timeout, a full second on Linux, so a handful of drops can add a second to
/// a run that has nothing else wrong with it. The count is the whole network namespace's, not one
/// process's: read it before and after a region in which nothing else connects.
/// </summary>
internal static class TcpCounters
{
    private const string NetstatPath = "/proc/net/netstat";

    /// <summary>Connection attempts dropped on full accept queues so far; null where the kernel does not say.</summary>
    public static long? ReadListenOverflows()
    {
        if (!OperatingSystem.IsLinux() || !File.Exists(NetstatPath))
        {
            return null;
        }

        try
        {
            return ParseListenOverflows(File.ReadAllText(NetstatPath));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// Finds ListenOverflows in the text of <c>/proc/net/netstat</c>, where each group is a line of names
    /// (<c>TcpExt: SyncookiesSent ... ListenOverflows ...</c>) followed by a line of values in the same order.
    /// </summary>
    internal static long? ParseListenOverflows(string netstat)
    {
        ArgumentNullException.ThrowIfNull(netstat);
        var lines = netstat.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        for (var i = 0; i + 1 < lines.Length; i++)
        {
            if (!lines[i].StartsWith("TcpExt:", StringComparison.Ordinal) || !lines[i + 1].StartsWith("TcpExt:", StringComparison.Ordinal))
            {
                continue;
            }

            var names = lines[i].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            var values = lines[i + 1].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            var at = Array.IndexOf(names, "ListenOverflows");
            if (at > 0 && at < values.Length && long.TryParse(values[at], NumberStyles.None, CultureInfo.InvariantCulture, out var count))
            {
                return count;
            }
        }

        return null;
    }

    /// <summary>The kernel's cap on any listener's accept queue (<c>net.core.somaxconn</c>); null where unknown.</summary>
    public static int? ReadMaxBacklog()
    {
        const string path = "/proc/sys/net/core/somaxconn";
        try
        {
            return OperatingSystem.IsLinux() && File.Exists(path)
                && int.TryParse(File.ReadAllText(path).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var cap) ? cap : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
