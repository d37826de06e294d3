using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>A new OS thread per item, all started, then joined: costly in memory and start-up, but never starved.</summary>
internal sealed class DedicatedThreadsStrategy : Strategy
{
    public override string Id => "threads";

    public override string Description => "new Thread per item, Start all, Join all";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var failures = new FirstFailure();
        var threads = new Thread[batch.Count];
        for (var i = 0; i < threads.Length; i++)
        {
            var index = i;
            threads[i] = new Thread(() => failures.Run(() => batch.Invoke(index, cancellationToken)))
            {
                IsBackground = true,
                Name = "conclab item",
            };
            threads[i].Start();
        }

        foreach (var thread in threads)
        {
            thread.Join();
        }

        failures.ThrowIfAny();
        return Task.CompletedTask;
    }
}
