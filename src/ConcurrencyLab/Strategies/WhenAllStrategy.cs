using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>Async all the way: start every item's task on the caller, then await Task.WhenAll.</summary>
internal sealed class WhenAllStrategy : Strategy
{
    public override string Id => "whenall";

    public override string Description => "start every async call, await Task.WhenAll";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Tap, WorkForm.Apm];

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var tasks = new Task[batch.Count];
        for (var i = 0; i < tasks.Length; i++)
        {
            tasks[i] = batch.InvokeAsync(i, cancellationToken).AsTask();
        }

        return Task.WhenAll(tasks);
    }
}
