using System.Runtime.InteropServices;

namespace ConcurrencyLab.Measurement;

/// <summary>The C library's clocks (Linux), as the experiments and a trial's start-up read them: a clock's reading and
/// its resolution, in nanoseconds.</summary>
internal static partial class PosixClocks
{
    /// <summary><c>CLOCK_MONOTONIC_COARSE</c>: the clock the runtime's timers keep on Linux.</summary>
    public const int MonotonicCoarse = 6;

    /// <summary><c>CLOCK_THREAD_CPUTIME_ID</c>: the calling thread's own CPU time.</summary>
    public const int ThreadCpuTime = 3;

    /// <summary><c>CLOCK_BOOTTIME</c>: the time since boot, suspended time included, as <c>/proc</c> counts a process's start.</summary>
    public const int BootTime = 7;

    /// <summary>The clock's reading in nanoseconds; null when the system will not give it.</summary>
    public static long? Read(int clock) => Call(clock, ClockGetTime);

    /// <summary>The clock's resolution in nanoseconds; null when the system will not say.</summary>
    public static long? Resolution(int clock) => Call(clock, ClockGetRes);

    private delegate int ClockCall(int clock, out TimeSpec time);

    private static long? Call(int clock, ClockCall call)
    {
        try
        {
            return call(clock, out var time) == 0 ? (time.Seconds * 1_000_000_000) + time.Nanoseconds : null;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return null;
        }
    }

    [LibraryImport("libc", EntryPoint = "clock_gettime")]
    private static partial int ClockGetTime(int clock, out TimeSpec time);

    [LibraryImport("libc", EntryPoint = "clock_getres")]
    private static partial int ClockGetRes(int clock, out TimeSpec resolution);

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
