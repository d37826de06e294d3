using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>
/// The clock the runtime's timers keep their due times on (<see cref="Environment.TickCount64"/>, which on Linux is
/// the kernel's coarse monotonic clock: 4 ms steps at 250 Hz). A timeout set with <c>CancelAfter</c> is due one
/// timeout after that clock's reading and fires once the clock reaches it, so it ends early by as much as the clock
/// lagged the true time when it was set, less its lag when it fired. While the clock ticks on time that is less than
/// a step. A stall of the clock (on a shared VM, jumps of 24-28 ms were seen among 4 ms ones) can make it more, for a
/// timeout set during the stall: the bound that uses this step holds for timeouts set while the clock keeps time.
/// </summary>
internal static class TimerClock
{
    // When the kernel will not say (or this is not Linux): the coarsest clock a runtime's timers are known to keep
    // (Windows' default tick, 15.6 ms), so the bound stays one.
    private const long Fallback = 16;

    private static readonly Lazy<long> Read = new(() => FromResolution(OperatingSystem.IsLinux() ? Resolution() : null));

    /// <summary>
    /// The clock's step in whole milliseconds, rounded up, read once per process: on Linux the kernel's resolution of
    /// the coarse clock; elsewhere, or when the kernel will not say, 16 ms. Never below the true step.
    /// </summary>
    public static long StepMs => Read.Value;

    /// <summary>The step, in whole milliseconds rounded up, of a clock whose resolution is <paramref name="nanoseconds"/>; 16 when unknown.</summary>
    internal static long FromResolution(long? nanoseconds) => nanoseconds is > 0 and var ns ? (ns + 999_999) / 1_000_000 : Fallback;

    // The kernel's resolution of CLOCK_MONOTONIC_COARSE in nanoseconds, when it is under a second; null when it will not say.
    private static long? Resolution() => PosixClocks.Resolution(PosixClocks.MonotonicCoarse) is { } ns and < 1_000_000_000 ? ns : null;
}
