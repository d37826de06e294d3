using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>One item after another on the calling thread: the reference every other strategy should beat.</summary>
internal sealed class SequentialStrategy : Strategy
{
    public override string Id => "sequential";

    public override string Description => "for loop: each item waits for the one before it";

    /// <summary>One: each item waits for the one before it.</summary>
    public override int MostAtOnce(Degree degree, int items) => Math.Min(1, items);

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        if (batch.Form == WorkForm.Tap)
        {
            return AwaitEachAsync(batch, cancellationToken);
        }

        for (var i = 0; i < batch.Count; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            batch.Invoke(i, cancellationToken);
        }

        return Task.CompletedTask;
    }

    private static async Task AwaitEachAsync(WorkBatch batch, CancellationToken cancellationToken)
    {
        for (var i = 0; i < batch.Count; i++)
        {
            await batch.InvokeAsync(i, cancellationToken).ConfigureAwait(false);
        }
    }
}
