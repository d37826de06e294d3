using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>Start every item's task, each waiting on a SemaphoreSlim(N) first; await Task.WhenAll.</summary>
internal sealed class SemaphoreStrategy : Strategy
{
    public override string Id => "semaphore";

    public override string Description => "SemaphoreSlim(N).WaitAsync around each async call, Task.WhenAll";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Tap, WorkForm.Apm];

    public override bool HasDegree => true;

    public override string DefaultDegreeMeaning => "Environment.ProcessorCount";

    public override async Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        using var gate = new SemaphoreSlim(degree.Or(Environment.ProcessorCount));
        var tasks = new Task[batch.Count];
        for (var i = 0; i < tasks.Length; i++)
        {
            tasks[i] = RunGatedAsync(batch, i, gate, cancellationToken);
        }

        await Task.WhenAll(tasks).ConfigureAwait(false);
    }

    private static async Task RunGatedAsync(WorkBatch batch, int index, SemaphoreSlim gate, CancellationToken cancellationToken)
    {
        await gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            await batch.InvokeAsync(index, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            gate.Release();
        }
    }
}
