using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Experiments.Mix;

/// <summary>
/// The calling thread's own CPU time, by the kernel's clock for it (<c>CLOCK_THREAD_CPUTIME_ID</c>): time on a core,
/// not time waiting for one (on a virtual machine, time the hypervisor took from a running thread counts unless the
/// kernel subtracts it). Read on Linux; elsewhere there is no reading.
/// </summary>
internal static class ThreadCpuClock
{
    /// <summary>Whether this system gives a reading.</summary>
    public static bool Available { get; } = OperatingSystem.IsLinux() && PosixClocks.Read(PosixClocks.ThreadCpuTime) is not null;

    /// <summary>The calling thread's CPU time in nanoseconds; 0 where <see cref="Available"/> is false.</summary>
    public static long NowNs() => Available ? PosixClocks.Read(PosixClocks.ThreadCpuTime) ?? 0 : 0;
}
