using System.Diagnostics;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;

namespace ConcurrencyLab.CommandLine.Why;

/// <summary>Whether a running process can be watched, read from <c>/proc</c> and the runtime's published diagnostics sockets.</summary>
internal static class ProgramChecks
{
    /// <summary>Why process <paramref name="processId"/> cannot be watched, in one line; null when it can.</summary>
    public static string? Problem(int processId) => Problem(processId, null);

    /// <summary><see cref="Problem(int)"/>, with the runtimes' published sockets already listed (<see cref="Published"/>).</summary>
    public static string? Problem(int processId, IReadOnlySet<int>? published)
    {
        var id = processId.ToString(CultureInfo.InvariantCulture);
        if (processId == Environment.ProcessId)
        {
            return $"process {id} is conclab itself";
        }

        if (OperatingSystem.IsLinux())
        {
            if (!Directory.Exists($"/proc/{id}"))
            {
                return $"there is no process {id}";
            }

            if (State(processId) == 'Z')
            {
                return $"process {id} has exited: it is a zombie its parent has not yet waited for";
            }
        }
        else if (!Running(processId))
        {
            return $"there is no process {id}";
        }

        if (Load.Listening.OwnedByThisUser(processId) == false)
        {
            return $"process {id} is not this user's: conclab watches only your own processes";
        }

        return (published ?? Published()).Contains(processId) ? null
            : $"process {id} is not a .NET program, or runs with diagnostics off (DOTNET_EnableDiagnostics=0): it has no diagnostics socket";
    }

    /// <summary>The process's command line, from <c>/proc/PID/cmdline</c>; its name where that cannot be read.</summary>
    public static IReadOnlyList<string> CommandLine(int processId, Process process)
    {
        ArgumentNullException.ThrowIfNull(process);
        try
        {
            var raw = File.ReadAllText($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/cmdline");
            var parts = raw.Split('\0', StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length > 0)
            {
                return parts;
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }

        try
        {
            return [process.ProcessName];
        }
        catch (InvalidOperationException)
        {
            return [$"process {processId.ToString(CultureInfo.InvariantCulture)}"];
        }
    }

    // The one-letter state of /proc/PID/stat (R, S, D, Z...); '?' where it cannot be read.
    private static char State(int processId)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/stat");
            var after = stat.LastIndexOf(')');
            return after >= 0 && after + 2 < stat.Length ? stat[after + 2] : '?';
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return '?';
        }
    }

    private static bool Running(int processId)
    {
        try
        {
            using var process = Process.GetProcessById(processId);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    /// <summary>The processes whose runtimes publish a diagnostics socket: the .NET programs that can be watched.</summary>
    public static HashSet<int> Published()
    {
        try
        {
            return [.. DiagnosticsClient.GetPublishedProcesses()];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or PlatformNotSupportedException)
        {
            return [];
        }
    }
}
