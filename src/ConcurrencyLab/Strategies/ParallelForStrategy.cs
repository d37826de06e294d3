using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>Parallel.For over the item indices; the calling thread takes part.</summary>
internal sealed class ParallelForStrategy : Strategy
{
    public override string Id => "parallel-for";

    // Its default degree (-1, no limit) is a finding of its own: the pool's thread injection, not the code, sets how many run.
    public override bool RunAtDefaultDegree => true;

    public override string Description => "Parallel.For with MaxDegreeOfParallelism = N";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override bool HasDegree => true;

    public override string DefaultDegreeMeaning => "-1: no limit; the pool's thread injection decides";

    /// <inheritdoc/>
    private protected override int DefaultMostAtOnce(int items) => items;

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var options = new ParallelOptions { MaxDegreeOfParallelism = degree.Or(-1), CancellationToken = cancellationToken };
        Parallel.For(0, batch.Count, options, i => batch.Invoke(i, cancellationToken));
        return Task.CompletedTask;
    }
}
