using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>
/// A task per item, each waited for before the next starts: tasks in name, sequential in effect, as the
/// published scanner's "task-based loop" was (its timings matched the plain loop's).
/// </summary>
internal sealed class TaskLoopStrategy : Strategy
{
    public override string Id => "task-loop";

    // It reproduces one published scanner, and runs as the plain loop does: run it when named.
    public override bool RunByDefault => false;

    public override string Description => "for loop: Task.Run per item, Wait() on it before the next";

    /// <summary>One: each item waits for the one before it.</summary>
    public override int MostAtOnce(Degree degree, int items) => Math.Min(1, items);

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        for (var i = 0; i < batch.Count; i++)
        {
            var index = i;
            Task.Run(() => batch.Invoke(index, cancellationToken), cancellationToken).Wait(cancellationToken);
        }

        return Task.CompletedTask;
    }
}
