using System.Globalization;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// How a process the lab started tells it of processes it starts in turn (a trial's services): one line
/// <c>##ChildProcessId:PID</c> on standard error, the line crank's agent reads from its jobs. A trial process writes it
/// only where its runner asked (<see cref="Variable"/>), since its standard error is otherwise a person's to read.
/// </summary>
internal static class ChildAnnouncement
{
    /// <summary>The line's start, as crank's agent reads it.</summary>
    public const string Marker = "##ChildProcessId:";

    /// <summary>Set to 1 in a trial's environment by a runner that reads its announcements.</summary>
    public const string Variable = "CONCLAB_ANNOUNCE_CHILDREN";

    /// <summary>Whether this process's runner asked to hear of its children.</summary>
    public static bool Requested => Environment.GetEnvironmentVariable(Variable) == "1";

    /// <summary>The line that names <paramref name="processId"/>.</summary>
    public static string Line(int processId) => Marker + processId.ToString(CultureInfo.InvariantCulture);

    /// <summary>Names <paramref name="processId"/> on standard error, where this process's runner asked for it.</summary>
    public static void AnnounceIfRequested(int processId)
    {
        if (Requested)
        {
            Announce(processId);
        }
    }

    /// <summary>Names <paramref name="processId"/> on standard error, one whole line even when other threads write there.</summary>
    public static void Announce(int processId)
    {
        try
        {
            ProtocolLines.Write(error: true, Line(processId) + "\n");
        }
        catch (IOException)
        {
            // A closed standard error costs the announcement, never the trial.
        }
    }

    /// <summary>The process a line of a child's standard error names, when it is an announcement.</summary>
    public static bool TryRead(string line, out int processId)
    {
        processId = 0;
        return line.StartsWith(Marker, StringComparison.Ordinal)
            && int.TryParse(line.AsSpan(Marker.Length), NumberStyles.None, CultureInfo.InvariantCulture, out processId)
            && processId > 0;
    }
}
