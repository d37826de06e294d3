using System.Diagnostics;
using System.Runtime.CompilerServices;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.TestWorkloads;

// A family of workloads whose cause of slowness is known by construction, for the truth table of the lab's reasons:
// no scenario of the lab runs these shapes. Each says in its summary what holds its variants back.

/// <summary>CPU work of a known length, the same count of steps in every process: calibrated once per process, before any region.</summary>
internal static class Burn
{
    private static readonly Lazy<double> StepsPerMs = new(Calibrate);

    /// <summary>Steps of the loop a millisecond on this machine, read before a trial's region.</summary>
    public static double Rate => StepsPerMs.Value;

    /// <summary>Runs the loop for about <paramref name="ms"/> milliseconds of this thread's CPU.</summary>
    public static void For(double ms) => Steps((long)(ms * StepsPerMs.Value));

    // A loop the JIT compiles fully at once and cannot remove: a linear congruential step whose last value is kept.
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private static ulong Steps(long count)
    {
        var x = 1UL;
        for (var i = 0L; i < count; i++)
        {
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        }

        Volatile.Write(ref _sink, x);
        return x;
    }

    private static ulong _sink;

    // The best of a few 10 ms rounds: a round the scheduler interrupted counts less.
    private static double Calibrate()
    {
        var best = 0.0;
        for (var round = 0; round < 3; round++)
        {
            var watch = Stopwatch.StartNew();
            var steps = 0L;
            while (watch.Elapsed.TotalMilliseconds < 10)
            {
                Steps(20_000);
                steps += 20_000;
            }

            best = Math.Max(best, steps / watch.Elapsed.TotalMilliseconds);
        }

        return best;
    }
}

/// <summary>Items that block their thread in a sleep: only the sync form, so every variant that runs them holds a thread for each.</summary>
internal sealed class BlockingSleepWorkload(int count, int waitMs) : Workload
{
    public override int Count => count;

    public override void Run(int index, CancellationToken cancellationToken) => Thread.Sleep(waitMs);
}

/// <summary>Items of pure CPU; the task form runs the same work and returns a finished task.</summary>
internal sealed class PureCpuWorkload(int count, double cpuMs) : Workload
{
    public override int Count => count;

    public override ValueTask SetUpAsync(CancellationToken cancellationToken)
    {
        GC.KeepAlive(Burn.Rate);
        return ValueTask.CompletedTask;
    }

    public override void Run(int index, CancellationToken cancellationToken) => Burn.For(cpuMs);

    public override ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        Burn.For(cpuMs);
        return ValueTask.CompletedTask;
    }
}

/// <summary>
/// Items that wait, then do CPU work holding one lock all items share: at most (wait + CPU) / CPU of them make
/// progress at once, whatever runs them. The wait is a sleep in the sync form and a timer in the task form.
/// </summary>
internal sealed class SharedLockWorkload(int count, int waitMs, double cpuMs) : Workload
{
    // A plain object, as most code's locks are: Monitor counts its contentions.
    private readonly object _gate = new();

    public override int Count => count;

    public override ValueTask SetUpAsync(CancellationToken cancellationToken)
    {
        GC.KeepAlive(Burn.Rate);
        return ValueTask.CompletedTask;
    }

    public override void Run(int index, CancellationToken cancellationToken)
    {
        Thread.Sleep(waitMs);
        Locked();
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
        Locked();
    }

    private void Locked()
    {
        lock (_gate)
        {
            Burn.For(cpuMs);
        }
    }
}

/// <summary>
/// Items that each wait behind a semaphore of <c>limit</c> slots, as calls to a service that serves so many at a
/// time: at most that many make progress at once, whatever runs them. Blocking in the sync form, awaited in the task form.
/// </summary>
#pragma warning disable CA1001 // The semaphore lives as long as the workload, one trial; it holds no handle until waited on with one.
internal sealed class DownstreamLimitWorkload(int count, int waitMs, int limit) : Workload
#pragma warning restore CA1001
{
    private readonly SemaphoreSlim _slots = new(limit, limit);

    public override int Count => count;

    public override void Run(int index, CancellationToken cancellationToken)
    {
        _slots.Wait(cancellationToken);
        try
        {
            Thread.Sleep(waitMs);
        }
        finally
        {
            _slots.Release();
        }
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        await _slots.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _slots.Release();
        }
    }
}

/// <summary>
/// Items that block on an asynchronous method whose continuation needs a pool thread (sync over async): only the
/// sync form. Every pool thread that runs one waits for another pool thread to finish it.
/// </summary>
internal sealed class SyncOverAsyncWorkload(int count, int waitMs) : Workload
{
    public override int Count => count;

    public override void Run(int index, CancellationToken cancellationToken) => Continued(waitMs).GetAwaiter().GetResult();

    private static async Task Continued(int ms)
    {
        await Task.Delay(ms).ConfigureAwait(false);

        // The continuation's own work, on a pool thread.
        Thread.SpinWait(100);
    }
}

/// <summary>Items that do CPU work before their first await, then wait on a timer: only the task form.</summary>
internal sealed class CpuBeforeAwaitWorkload(int count, int waitMs, double cpuMs) : Workload
{
    public override int Count => count;

    public override ValueTask SetUpAsync(CancellationToken cancellationToken)
    {
        GC.KeepAlive(Burn.Rate);
        return ValueTask.CompletedTask;
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        Burn.For(cpuMs);
        await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
    }
}

/// <summary>Items of CPU work, then a wait: a blocking sleep in the sync form, a timer in the task form.</summary>
internal sealed class CpuThenWaitWorkload(int count, int waitMs, double cpuMs) : Workload
{
    public override int Count => count;

    public override ValueTask SetUpAsync(CancellationToken cancellationToken)
    {
        GC.KeepAlive(Burn.Rate);
        return ValueTask.CompletedTask;
    }

    public override void Run(int index, CancellationToken cancellationToken)
    {
        Burn.For(cpuMs);
        Thread.Sleep(waitMs);
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        await Task.Yield();
        Burn.For(cpuMs);
        await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
    }
}
