using System.Diagnostics;
using System.Runtime.InteropServices;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>
/// The clock the runtime's timers keep their due times on (<see cref="Environment.TickCount64"/>, which on Linux is
/// the kernel's coarse monotonic clock: 4 ms steps at 250 Hz). A timeout set with <c>CancelAfter</c> is due one
/// timeout after that clock's reading and fires once the clock reaches it, so it ends early by as much as the clock
/// lagged the true time when it was set, less its lag when it fired. While the clock ticks on time that is less than
/// a step. A stall of the clock (on a shared VM, jumps of 24-28 ms were seen among 4 ms ones) can make it more, for a
/// timeout set during the stall: the bound that uses this step holds for timeouts set while the clock keeps time.
/// </summary>
internal static partial class TimerClock
{
    // When the clock cannot be asked and too few of its steps were seen: the coarsest clock a runtime's timers are
    // known to keep (Windows' default tick, 15.6 ms), so the bound stays one.
    private const long Fallback = 16;

    private const int ClockMonotonicCoarse = 6;

    private static readonly Lazy<long> Measured = new(Measure);

    /// <summary>
    /// The clock's step in whole milliseconds, rounded up, once per process: on Linux the kernel's own resolution of
    /// the coarse clock; elsewhere (or if that fails) watched over eight ticks within 200 ms (see
    /// <see cref="Step"/>), and 16 ms when fewer than three were seen. Never below the true step.
    /// </summary>
    public static long StepMs => Measured.Value;

    private static long Measure()
    {
        if (OperatingSystem.IsLinux() && Resolution() is { } kernel)
        {
            return kernel;
        }

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

    /// <summary>
    /// The step that jumps of the clock show: the smallest jump, when every jump is a whole number of it (a read that
    /// comes late sees two steps at once), or one more when not (a step of 3.33 ms reads as jumps of 3 and 4); the
    /// fallback when fewer than three jumps were seen (a thread kept off the cores sees none).
    /// </summary>
    internal static long Step(IReadOnlyList<long> jumps)
    {
        if (jumps.Count < 3)
        {
            return Fallback;
        }

        var smallest = Math.Max(1, jumps.Min());
        return jumps.All(j => j % smallest == 0) ? smallest : smallest + 1;
    }

    // The kernel's resolution of CLOCK_MONOTONIC_COARSE, in whole milliseconds rounded up; null when it will not say.
    private static long? Resolution()
    {
        try
        {
            return ClockGetRes(ClockMonotonicCoarse, out var resolution) == 0 && resolution.Seconds == 0 && resolution.Nanoseconds > 0
                ? (resolution.Nanoseconds + 999_999) / 1_000_000
                : null;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return null;
        }
    }

    [LibraryImport("libc", EntryPoint = "clock_getres")]
    private static partial int ClockGetRes(int clock, out TimeSpec resolution);

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
