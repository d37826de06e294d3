using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>Parallel.ForEach over an enumerable of indices, which it partitions in growing chunks.</summary>
internal sealed class ParallelForEachStrategy : Strategy
{
    public override string Id => "parallel-foreach";

    // Parallel.For over an enumerable: Parallel.For already shows what it would. Run it when named.
    public override bool RunByDefault => false;

    public override string Description => "Parallel.ForEach over an IEnumerable with MaxDegreeOfParallelism = N";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override bool HasDegree => true;

    public override string DefaultDegreeMeaning => "-1: no limit; the pool's thread injection decides";

    /// <inheritdoc/>
    private protected override int DefaultMostAtOnce(int items) => items;

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var options = new ParallelOptions { MaxDegreeOfParallelism = degree.Or(-1), CancellationToken = cancellationToken };
        Parallel.ForEach(Enumerable.Range(0, batch.Count), options, i => batch.Invoke(i, cancellationToken));
        return Task.CompletedTask;
    }
}
