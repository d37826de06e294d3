using System.Diagnostics;

namespace ConcurrencyLab.Measurement;

/// <summary>Reads how many OS threads a process has, from outside it.</summary>
public static class ProcessThreads
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
                var count = ProcessCounters.ParseThreadCount(File.ReadAllBytes($"/proc/{processId}/stat"));
                return count > 0 ? count : null;
            }

            using var process = Process.GetProcessById(processId);
            return process.HasExited ? null : process.Threads.Count;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or InvalidOperationException or NotSupportedException or System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }
}
