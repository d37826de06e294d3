using System.Diagnostics;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>
/// The clock the runtime's timers keep their due times on (<see cref="Environment.TickCount64"/>, which on Linux is
/// the kernel's coarse monotonic clock: 4 ms steps at 250 Hz). A timeout set with <c>CancelAfter</c> is due one
/// timeout after that clock's reading, which lags the true time by up to a step, and fires once the clock reaches
/// it: so it can end up to one step early, and no sooner.
/// </summary>
internal static class TimerClock
{
    private static readonly Lazy<long> Measured = new(Measure);

    /// <summary>
    /// The clock's step in whole milliseconds, watched once per process over eight ticks (within 200 ms): the smallest
    /// jump, when every jump is a whole number of it (a read that comes late sees two steps at once), or one more when
    /// not (a step of 3.33 ms reads as jumps of 3 and 4), so it is never below the true step. Never below 1.
    /// </summary>
    public static long StepMs => Measured.Value;

    private static long Measure()
    {
        var deadline = Stopwatch.GetTimestamp() + (Stopwatch.Frequency / 5);
        var last = Environment.TickCount64;
        var jumps = new List<long>(8);
        while (jumps.Count < 8 && Stopwatch.GetTimestamp() < deadline)
        {
            var now = Environment.TickCount64;
            if (now != last)
            {
                jumps.Add(now - last);
                last = now;
            }
        }

        return Step(jumps);
    }

    /// <summary>The step that jumps of the clock show (see <see cref="StepMs"/>); 1 when there were none.</summary>
    internal static long Step(IReadOnlyList<long> jumps)
    {
        if (jumps.Count == 0)
        {
            return 1;
        }

        var smallest = Math.Max(1, jumps.Min());
        return jumps.All(j => j % smallest == 0) ? smallest : smallest + 1;
    }
}
