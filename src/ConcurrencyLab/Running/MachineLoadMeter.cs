using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Running;

/// <summary>
/// How busy the machine's other processes kept it over a span of the lab's own work (a scenario's run, set-up and
/// trials included): the whole machine's busy core time (<c>/proc/stat</c>) less the CPU of this process and of every
/// child it has waited for (its trials' processes, and what they waited for in turn: <c>/proc/self/stat</c>'s utime,
/// stime, cutime and cstime). A trial's own account cannot say it: the next trial's process starts while one ends, and
/// the runner works beside it, so those would count as another's. Linux only; elsewhere nothing is measured.
/// </summary>
internal sealed class MachineLoadMeter
{
    // Fields of /proc/self/stat, numbered from 1 as proc(5) numbers them: own user and system time, then that of
    // children waited for, in clock ticks.
    private const int OwnUserField = 14;
    private const int ChildrenSystemField = 17;

    private readonly long _startedAt;
    private readonly MachineTime? _machineAtStart;
    private readonly double? _labAtStart;

    private MachineLoadMeter(long startedAt, MachineTime? machine, double? lab)
    {
        _startedAt = startedAt;
        _machineAtStart = machine;
        _labAtStart = lab;
    }

    /// <summary>Starts measuring now.</summary>
    public static MachineLoadMeter Start() =>
        new(System.Diagnostics.Stopwatch.GetTimestamp(), ReadMachine(), ReadLabCpuMs());

    /// <summary>What the machine did since <see cref="Start"/>; null where it could not be read.</summary>
    public MachineLoad? Finish()
    {
        var wallMs = System.Diagnostics.Stopwatch.GetElapsedTime(_startedAt).TotalMilliseconds;
        if (_machineAtStart is not { } start || _labAtStart is not { } labStart || ReadMachine() is not { } end || ReadLabCpuMs() is not { } labEnd)
        {
            return null;
        }

        var busy = end.Since(start).BusyMs;
        var lab = Math.Max(0, labEnd - labStart);
        return new MachineLoad
        {
            WallMs = Math.Round(wallMs, 1),
            CoreMs = Math.Round(wallMs * Environment.ProcessorCount, 1),
            BusyMs = Math.Round(Math.Max(0, busy), 1),
            LabCpuMs = Math.Round(lab, 1),
            OthersMs = Math.Round(Math.Max(0, busy - lab), 1),
        };
    }

    private static MachineTime? ReadMachine()
    {
        using var stat = MachineTime.Open();
        return stat is null ? null : MachineTime.Read(stat);
    }

    /// <summary>This process's CPU and its waited-for children's, in ms; null where it cannot be read.</summary>
    internal static double? ReadLabCpuMs()
    {
        if (MachineTime.ResolutionMs <= 0)
        {
            return null;
        }

        try
        {
            var stat = File.ReadAllBytes("/proc/self/stat");
            return ParseLabTicks(stat) is { } ticks ? ticks * MachineTime.ResolutionMs : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>utime + stime + cutime + cstime of a <c>/proc/[pid]/stat</c> line, in ticks; null where one is missing.</summary>
    internal static long? ParseLabTicks(ReadOnlySpan<byte> stat)
    {
        long total = 0;
        for (var field = OwnUserField; field <= ChildrenSystemField; field++)
        {
            var value = ProcessCounters.ParseField(stat, field);
            if (value < 0)
            {
                return null;
            }

            total += value;
        }

        return total;
    }
}
