namespace ConcurrencyLab.Workloads;

/// <summary>
/// Items that do next to nothing but still take each form's slow path (a real wait, a pending task, a
/// Begin/End callback). Running a strategy over it once before the measured run compiles the strategy's
/// code, so the trial measures scheduling rather than the JIT.
/// </summary>
internal sealed class DryWorkload : Workload
{
    public DryWorkload(int count, IReadOnlyList<WorkForm> forms)
    {
        Count = count;
        Forms = forms;
    }

    public override int Count { get; }

    public override IReadOnlyList<WorkForm> Forms { get; }

    public override void Run(int index, CancellationToken cancellationToken) => Thread.Sleep(1);

    public override ValueTask RunAsync(int index, CancellationToken cancellationToken) => new(Task.Delay(1, cancellationToken));

    public override IAsyncResult BeginRun(int index, AsyncCallback? callback, object? state) =>
        TaskToAsyncResult.Begin(Task.Delay(1, CancellationToken.None), callback, state);

    public override void EndRun(IAsyncResult asyncResult) => TaskToAsyncResult.End(asyncResult);
}
