using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>Parallel.ForEachAsync: at most N items in flight, each awaited without holding a thread.</summary>
internal sealed class ParallelForEachAsyncStrategy : Strategy
{
    public override string Id => "foreach-async";

    // Its default degree (Environment.ProcessorCount) is the one the delay post judged the worst of both worlds.
    public override bool RunAtDefaultDegree => true;

    public override string Description => "Parallel.ForEachAsync with MaxDegreeOfParallelism = N";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Tap, WorkForm.Apm];

    public override bool HasDegree => true;

    public override string DefaultDegreeMeaning => "Environment.ProcessorCount";

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var options = new ParallelOptions { CancellationToken = cancellationToken };
        if (!degree.IsDefault)
        {
            options.MaxDegreeOfParallelism = degree.Value;
        }

        return Parallel.ForEachAsync(Enumerable.Range(0, batch.Count), options, (i, token) => batch.InvokeAsync(i, token));
    }
}
