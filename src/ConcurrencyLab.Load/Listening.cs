using System.Globalization;

namespace ConcurrencyLab.Load;

/// <summary>Which process listens on a TCP port of this machine, as Linux's /proc tells it.</summary>
internal static class Listening
{
    // A listening socket's state in /proc/net/tcp.
    private const string ListenState = "0A";

    /// <summary>
    /// Whether process <paramref name="processId"/> holds a socket listening on TCP <paramref name="port"/>: false when
    /// it does not or is not running, null where it cannot be told (not Linux, or its descriptors are not ours to read).
    /// </summary>
    public static bool? Holds(int processId, int port)
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        if (!Directory.Exists($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}"))
        {
            return false;
        }

        var sockets = ListeningSockets(port);
        try
        {
            foreach (var descriptor in Directory.EnumerateFileSystemEntries($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/fd"))
            {
                // A socket descriptor links to "socket:[INODE]", the inode /proc/net/tcp names.
                var target = new FileInfo(descriptor).LinkTarget;
                if (target is not null && target.StartsWith("socket:[", StringComparison.Ordinal) && target.EndsWith(']')
                    && sockets.Contains(target[8..^1]))
                {
                    return true;
                }
            }
        }
        catch (Exception ex) when (ex is UnauthorizedAccessException or IOException)
        {
            // Another user's process: its descriptors are not ours to read, and it went on running or ended as we read.
            return Directory.Exists($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}") ? null : false;
        }

        return false;
    }

    // The inodes of the sockets listening on the port, over IPv4 and IPv6.
    private static HashSet<string> ListeningSockets(int port)
    {
        var inodes = new HashSet<string>(StringComparer.Ordinal);
        foreach (var table in new[] { "/proc/net/tcp", "/proc/net/tcp6" })
        {
            if (!File.Exists(table))
            {
                continue;
            }

            // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...", the local
            // address as HEXADDRESS:HEXPORT.
            foreach (var line in File.ReadLines(table).Skip(1))
            {
                var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                if (fields.Length > 9 && fields[3] == ListenState && fields[1].LastIndexOf(':') is var colon and > 0
                    && int.TryParse(fields[1].AsSpan(colon + 1), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var local)
                        && local == port)
                {
                    inodes.Add(fields[9]);
                }
            }
        }

        return inodes;
    }

    /// <summary>
    /// Whether process <paramref name="processId"/> runs as this process's user (its effective user id): false when
    /// another user's, null where it cannot be told (not Linux, or it is gone).
    /// </summary>
    public static bool? OwnedByThisUser(int processId)
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        var theirs = EffectiveUser($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/status");
        var ours = EffectiveUser("/proc/self/status");
        return theirs is null || ours is null ? null : theirs == ours;
    }

    // The effective user id a /proc status file names: "Uid: real effective saved filesystem".
    private static string? EffectiveUser(string statusPath)
    {
        try
        {
            foreach (var line in File.ReadLines(statusPath))
            {
                if (line.StartsWith("Uid:", StringComparison.Ordinal))
                {
                    var fields = line[4..].Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
                    return fields.Length > 1 ? fields[1] : null;
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Gone as it was read.
        }

        return null;
    }
}
