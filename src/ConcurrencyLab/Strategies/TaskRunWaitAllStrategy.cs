using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>Task.Run per item, then a blocking Task.WaitAll on the calling thread.</summary>
internal sealed class TaskRunWaitAllStrategy : Strategy
{
    public override string Id => "task-run-waitall";

    public override string Description => "Task.Run per item, Task.WaitAll";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var tasks = new Task[batch.Count];
        for (var i = 0; i < tasks.Length; i++)
        {
            var index = i;
            tasks[i] = Task.Run(() => batch.Invoke(index, cancellationToken), cancellationToken);
        }

        Task.WaitAll(tasks, cancellationToken);
        return Task.CompletedTask;
    }
}
