using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>
/// The published scanner's "mix and match": four runner tasks split the items into four ranges (here
/// without the original's overlapping ranges), each starts a Task.Run per item of its range and waits for
/// them all; the caller waits for the runners.
/// </summary>
internal sealed class MixAndMatchStrategy : Strategy
{
    private const int Runners = 4;

    public override string Id => "mix-and-match";

    // It reproduces one published scanner: run it when named.
    public override bool RunByDefault => false;

    public override string Description => "4 runner tasks, each Task.Run per item of its quarter, WaitAll twice";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Tap, WorkForm.Sync, WorkForm.Apm];

    // Published with task-based connects, but each item still blocks a pool thread on its call.
    public override bool HoldsThreads => true;

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var runners = new Task[Runners];
        for (var r = 0; r < Runners; r++)
        {
            var start = batch.Count * r / Runners;
            var end = batch.Count * (r + 1) / Runners;
            runners[r] = Task.Run(
                () =>
                {
                    var items = new Task[end - start];
                    for (var i = start; i < end; i++)
                    {
                        var index = i;
                        items[i - start] = Task.Run(() => batch.Invoke(index, cancellationToken), cancellationToken);
                    }

                    Task.WaitAll(items, cancellationToken);
                },
                cancellationToken);
        }

        Task.WaitAll(runners, cancellationToken);
        return Task.CompletedTask;
    }
}
