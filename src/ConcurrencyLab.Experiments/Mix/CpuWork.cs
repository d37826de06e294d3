using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace ConcurrencyLab.Experiments.Mix;

/// <summary>
/// Real CPU work by count, not by time: a xorshift loop whose rounds per millisecond are measured once, in the
/// runner, so a millisecond means a millisecond on this machine and every trial is handed the same count.
/// </summary>
internal static class CpuWork
{
    private static ulong _sink;

    /// <summary>
    /// Runs <paramref name="rounds"/> rounds; its result is kept, so the loop cannot be removed. Compiled optimised
    /// on its first call and never again (no tiers, no profiling probes, never precompiled), so the runner's
    /// calibration and every trial run the same machine code: tiered, the trials' items ran 4-7% faster than the
    /// runner's calibration had timed them (docs/scenarios/mix.md).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    public static void Run(long rounds)
    {
        var x = 0x9E3779B97F4A7C15UL ^ (ulong)rounds;
        for (var i = 0L; i < rounds; i++)
        {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }

        Volatile.Write(ref _sink, x);
    }

    /// <summary>
    /// Rounds per millisecond of CPU on this machine: the fastest of several 20 ms samples, since a slower one was
    /// interrupted; at least 1. Each sample is timed by the thread's own CPU clock where the system has one
    /// (<see cref="ThreadCpuClock"/>), the clock the trials check their items by, so that time the thread spent off
    /// its core is not counted as work; elsewhere by the wall clock.
    /// </summary>
    public static double Calibrate()
    {
        Run(1_000_000);
        var best = 0.0;
        var cpuClock = ThreadCpuClock.Available;
        for (var sample = 0; sample < 7; sample++)
        {
            var rounds = 0L;
            var start = Stopwatch.GetTimestamp();
            var cpuStart = cpuClock ? ThreadCpuClock.NowNs() : 0;
            while (Stopwatch.GetElapsedTime(start).TotalMilliseconds < 20)
            {
                Run(100_000);
                rounds += 100_000;
            }

            var ms = cpuClock ? (ThreadCpuClock.NowNs() - cpuStart) / 1e6 : Stopwatch.GetElapsedTime(start).TotalMilliseconds;
            if (ms > 0)
            {
                best = Math.Max(best, rounds / ms);
            }
        }

        return Math.Max(1, best);
    }
}

/// <summary>What the run's set-up measured and every trial reads: the CPU loop's rounds per millisecond.</summary>
internal sealed class MixCalibration
{
    /// <summary>Rounds of the CPU loop that take a millisecond on this machine.</summary>
    public double RoundsPerMs { get; set; }
}
