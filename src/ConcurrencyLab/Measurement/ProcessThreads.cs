using System.Diagnostics;

namespace ConcurrencyLab.Measurement;

/// <summary>Reads how many OS threads a process has, from outside it.</summary>
internal static class ProcessThreads
{
    /// <summary>
    /// The OS threads of another process now, for a live view of a running trial: read from
    /// <c>/proc/[pid]/stat</c> on Linux, from <see cref="Process.Threads"/> elsewhere. Null when the
    /// process has exited or cannot be read.
    /// </summary>
    public static int? Of(int processId)
    {
        try
        {
            if (OperatingSystem.IsLinux())
            {
                return ParseLiveThreadCount(File.ReadAllBytes($"/proc/{processId}/stat"));
            }

            using var process = Process.GetProcessById(processId);
            return process.HasExited ? null : process.Threads.Count;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or InvalidOperationException
            or NotSupportedException or System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }

    /// <summary>
    /// The thread count of a <c>/proc/[pid]/stat</c> line, or null for a process that has exited: a zombie
    /// (state Z) or a dead one (X) keeps one entry until it is reaped, which is not a thread at work.
    /// </summary>
    internal static int? ParseLiveThreadCount(ReadOnlySpan<byte> stat)
    {
        var afterName = stat.LastIndexOf((byte)')');
        if (afterName < 0 || afterName + 2 >= stat.Length || stat[afterName + 2] is (byte)'Z' or (byte)'X')
        {
            return null;
        }

        var count = ProcessCounters.ParseThreadCount(stat);
        return count > 0 ? count : null;
    }
}
