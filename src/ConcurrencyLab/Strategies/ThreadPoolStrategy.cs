using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>ThreadPool.QueueUserWorkItem per item, joined by a CountdownEvent.</summary>
internal sealed class ThreadPoolStrategy : Strategy
{
    public override string Id => "threadpool";

    public override string Description => "ThreadPool.QueueUserWorkItem per item, wait on a CountdownEvent";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var failures = new FirstFailure();
        // Not disposed: after a cancelled wait, items still queued will signal it, and signalling a
        // disposed event would throw on a pool thread and bring the process down.
        var remaining = new CountdownEvent(batch.Count);
        for (var i = 0; i < batch.Count; i++)
        {
            var index = i;
            ThreadPool.QueueUserWorkItem(
                _ =>
                {
                    failures.Run(() => batch.Invoke(index, cancellationToken));

                    // Signal after the item whatever happened to it, so the wait below always ends.
                    remaining.Signal();
                },
                null);
        }

        remaining.Wait(cancellationToken);
        failures.ThrowIfAny();
        return Task.CompletedTask;
    }
}
