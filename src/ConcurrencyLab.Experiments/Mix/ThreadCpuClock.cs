using System.Runtime.InteropServices;

namespace ConcurrencyLab.Experiments.Mix;

/// <summary>
/// The calling thread's own CPU time, by the kernel's clock for it (<c>CLOCK_THREAD_CPUTIME_ID</c>): time on a core
/// only, not time waiting for one. Read on Linux; elsewhere there is no reading.
/// </summary>
internal static partial class ThreadCpuClock
{
    private const int ThreadCpuTimeId = 3;

    /// <summary>Whether this system gives a reading.</summary>
    public static bool Available { get; } = OperatingSystem.IsLinux() && TryRead(out _);

    /// <summary>The calling thread's CPU time in nanoseconds; 0 where <see cref="Available"/> is false.</summary>
    public static long NowNs() => Available && TryRead(out var ns) ? ns : 0;

    private static bool TryRead(out long nanoseconds)
    {
        nanoseconds = 0;
        try
        {
            if (ClockGetTime(ThreadCpuTimeId, out var spec) != 0)
            {
                return false;
            }

            nanoseconds = (spec.Seconds * 1_000_000_000) + spec.Nanoseconds;
            return true;
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException)
        {
            return false;
        }
    }

    [LibraryImport("libc", EntryPoint = "clock_gettime")]
    private static partial int ClockGetTime(int clockId, out TimeSpec time);

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
