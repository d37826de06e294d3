using ConcurrencyLab.FileSystem;
using System.Diagnostics;
using System.Globalization;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// Tells one process from another under the same id, and removes what the .NET runtime leaves of a process that was
/// killed outright: its diagnostics socket, <c>dotnet-diagnostic-PID-KEY-socket</c> in the temporary folder (and the
/// debugger's pipes, <c>clr-debug-pipe-PID-KEY-in</c> and <c>-out</c>), which the runtime deletes on a normal exit
/// only. On Linux the key is the process's start time in clock ticks since boot, as <c>/proc/PID/stat</c> gives it, so
/// a socket is removed by its exact name.
/// </summary>
internal static class ProcessIdentity
{
    /// <summary>
    /// When a running process started, as a token to tell it from a later one under the same id; null when none
    /// runs. On Linux, from <c>/proc</c>: a process that has exited but not been reaped (a zombie, as a killed
    /// run is until its parent reaps it) is counted as gone.
    /// </summary>
    public static string? StartTimeOf(int processId)
    {
        if (OperatingSystem.IsLinux())
        {
            // The state is the third field and the start time, in clock ticks since boot, the twenty-second.
            return StatFields(processId) is not { Length: >= 20 } fields || fields[0] is "Z" or "X" ? null : fields[19];
        }

        try
        {
            using var process = Process.GetProcessById(processId);
            return process.StartTime.ToUniversalTime().Ticks.ToString(CultureInfo.InvariantCulture);
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception
            or NotSupportedException)
        {
            return null;
        }
    }

    /// <summary>The parent and the process group of process <paramref name="processId"/>, from one read; null when they
    /// cannot be read (it is gone, or this is not Linux).</summary>
    public static (int Parent, int Group)? StatOf(int processId) =>
        StatFields(processId) is { Length: > 2 } fields
            && int.TryParse(fields[1], NumberStyles.None, CultureInfo.InvariantCulture, out var parent)
            && int.TryParse(fields[2], NumberStyles.None, CultureInfo.InvariantCulture, out var group)
            ? (parent, group)
            : null;

    // The fields of /proc/PID/stat after the command name, from the state on; null when it cannot be read. The name, in
    // parentheses, may hold spaces, so the fields are counted after its end.
    private static string[]? StatFields(int processId)
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        try
        {
            var stat = File.ReadAllText($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/stat");
            return stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// Removes the diagnostics socket that process <paramref name="processId"/>, started at
    /// <paramref name="startTime"/> (from <see cref="StartTimeOf"/> while it ran) and now gone, left in
    /// <paramref name="temporaryFolder"/> (the system's when null); whether there was one. Without a start
    /// time (or off Linux, where the key is another clock) any socket of that id is removed.
    /// </summary>
    public static bool RemoveDiagnosticsSocket(int processId, string? startTime, string? temporaryFolder = null)
    {
        var folder = temporaryFolder ?? Path.GetTempPath();
        var id = processId.ToString(CultureInfo.InvariantCulture);
        var pattern = OperatingSystem.IsLinux() && !string.IsNullOrEmpty(startTime) && startTime.All(char.IsAsciiDigit)
            ? $"dotnet-diagnostic-{id}-{startTime}-socket"
            : $"dotnet-diagnostic-{id}-*-socket";
        var removed = false;

        // The debugger's two pipes are named by the same key and left the same way.
        string[] patterns = [pattern, pattern.Replace("dotnet-diagnostic-", "clr-debug-pipe-", StringComparison.Ordinal)
            .Replace("-socket", "-in", StringComparison.Ordinal), pattern.Replace("dotnet-diagnostic-", "clr-debug-pipe-", StringComparison.Ordinal)
                .Replace("-socket", "-out", StringComparison.Ordinal)];
        foreach (var each in patterns)
        {
            try
            {
                foreach (var left in Directory.EnumerateFiles(folder, each))
                {
                    // The runtime's own kind of file, this user's: a socket for diagnostics, FIFOs for the debugger;
                    // never a link, a regular file or another user's file that happens to bear the name.
                    var kind = each.EndsWith("-socket", StringComparison.Ordinal) ? FileKind.Socket : FileKind.Pipe;
                    if (FileFacts.CurrentUser is { } user && FileFacts.Entry(left) is { } entry
                        && (entry.Link || entry.Kind != kind || entry.Owner != user))
                    {
                        continue;
                    }

                    File.Delete(left);
                    removed = true;
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
            }
        }

        return removed;
    }
}
