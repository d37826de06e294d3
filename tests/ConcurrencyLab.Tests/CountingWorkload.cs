using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests;

/// <summary>
/// Counts how often each item ran, from many threads at once; each item also contends on a shared
/// counter so strategies are exercised under real interleaving.
/// </summary>
internal sealed class CountingWorkload : Workload
{
    private readonly int[] _runs;
    private int _total;

    private readonly Func<int, bool> _fails;

    /// <param name="count">Items.</param>
    /// <param name="fails">Which items throw instead of counting; none when null.</param>
    public CountingWorkload(int count, Func<int, bool>? fails = null)
    {
        _runs = new int[count];
        _fails = fails ?? (_ => false);
    }

    public override int Count => _runs.Length;

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public int Total => Volatile.Read(ref _total);

    public int RunsOf(int index) => Volatile.Read(ref _runs[index]);

    public override void Run(int index, CancellationToken cancellationToken) => Record(index);

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        await Task.Yield();
        Record(index);
    }

    public override IAsyncResult BeginRun(int index, AsyncCallback? callback, object? state) =>
        TaskToAsyncResult.Begin(Task.Run(() => Record(index)), callback, state);

    public override void EndRun(IAsyncResult asyncResult) => TaskToAsyncResult.End(asyncResult);

    private void Record(int index)
    {
        if (_fails(index))
        {
            throw new InvalidOperationException($"item {index} failed");
        }

        Interlocked.Increment(ref _runs[index]);
        Interlocked.Increment(ref _total);
        Thread.SpinWait(50);
    }
}
