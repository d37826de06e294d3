using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>Task.Run per blocking item, then await Task.WhenAll: the caller is freed, the pool threads are not.</summary>
internal sealed class TaskRunWhenAllStrategy : Strategy
{
    public override string Id => "task-run-whenall";

    public override string Description => "Task.Run per item, await Task.WhenAll";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var tasks = new Task[batch.Count];
        for (var i = 0; i < tasks.Length; i++)
        {
            var index = i;
            tasks[i] = Task.Run(() => batch.Invoke(index, cancellationToken), cancellationToken);
        }

        return Task.WhenAll(tasks);
    }
}
