using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.TestWorkloads;

/// <summary>
/// Two items: the first takes a lock, says so, and holds it for the given time; the second waits until the
/// first holds it and then asks for it, so it is blocked for almost exactly the time the lock is held.
/// </summary>
internal sealed class HeldLockWorkload(int holdMs) : Workload
{
    private readonly Lock _gate = new();
    private volatile bool _held;

    public override int Count => 2;

    public override void Run(int index, CancellationToken cancellationToken)
    {
        if (index == 0)
        {
            lock (_gate)
            {
                _held = true;
                Thread.Sleep(holdMs);
            }
        }
        else
        {
            // Spin rather than wait on an event: the test counts the lock's wait, and no other.
            while (!_held)
            {
                Thread.SpinWait(100);
            }

            lock (_gate)
            {
            }
        }
    }
}

/// <summary>Items that each wait the given time: a blocked thread in the sync form, a timer in the task form.</summary>
internal sealed class SleepWorkload(int count, int waitMs, bool collect) : Workload
{
    public override int Count => count;

    public override void Run(int index, CancellationToken cancellationToken)
    {
        Collect();
        Thread.Sleep(waitMs);
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        Collect();
        await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
    }

    private void Collect()
    {
        if (collect)
        {
            GC.Collect();
        }
    }
}

/// <summary>
/// Items that each wait the given time on a task a timer completes: the sync form blocks its thread on the task's
/// <c>Result</c> (sync over async), the task form awaits it.
/// </summary>
internal sealed class ResultWorkload(int count, int waitMs) : Workload
{
    public override int Count => count;

    public override void Run(int index, CancellationToken cancellationToken) => GC.KeepAlive(Delayed(waitMs).Result);

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken) => await Delayed(waitMs).ConfigureAwait(false);

    private static async Task<int> Delayed(int ms)
    {
        await Task.Delay(ms).ConfigureAwait(false);
        return ms;
    }
}
