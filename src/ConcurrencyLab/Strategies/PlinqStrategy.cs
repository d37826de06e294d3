using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>PLINQ ForAll with WithDegreeOfParallelism; blocking items hold one of its worker threads each.</summary>
internal sealed class PlinqStrategy : Strategy
{
    public override string Id => "plinq";

    public override string Description => "AsParallel().WithDegreeOfParallelism(N).ForAll";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override bool HasDegree => true;

    public override string DefaultDegreeMeaning => "Environment.ProcessorCount";

    /// <summary>PLINQ refuses a degree above this.</summary>
    public override int MaxDegree => 512;

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var query = Enumerable.Range(0, batch.Count).AsParallel().WithCancellation(cancellationToken);
        if (!degree.IsDefault)
        {
            query = query.WithDegreeOfParallelism(degree.Value);
        }

        query.ForAll(i => batch.Invoke(i, cancellationToken));
        return Task.CompletedTask;
    }
}
