using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Strategies;

public sealed class StrategyContractTests
{
    // A blocking strategy given a task-based item blocks a pool thread until the item's continuation runs
    // on another pool thread: with more items in flight than pool threads, it waits on thread injection
    // (seconds per thread). That starvation is real and worth measuring, but not what these tests check,
    // so such pairings get fewer items than the pool's minimum.
    private const int PoolMinimum = 64;
    private const int BlockedItems = 32;

    static StrategyContractTests() => ThreadPool.SetMinThreads(PoolMinimum, PoolMinimum);

    public static TheoryData<string, WorkForm, int> EveryStrategyFormAndDegree()
    {
        var data = new TheoryData<string, WorkForm, int>();
        foreach (var strategy in StrategyCatalog.All)
        {
            foreach (var form in strategy.Forms)
            {
                data.Add(strategy.Id, form, 0);
                if (strategy.HasDegree)
                {
                    data.Add(strategy.Id, form, 3);
                }
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(EveryStrategyFormAndDegree))]
    public async Task Execute_ManyContendedItems_RunsEachExactlyOnce(string id, WorkForm form, int degree)
    {
        var strategy = StrategyCatalog.Find(id)!;
        var items = strategy.HoldsThreads && form != WorkForm.Sync ? BlockedItems : 300;
        var workload = new CountingWorkload(items);
        var batch = new WorkBatch(workload, form);

        batch.MarkStart();
        await strategy.ExecuteAsync(batch, degree == 0 ? Degree.Default : Degree.Of(degree));

        Assert.Equal(items, workload.Total);
        Assert.All(Enumerable.Range(0, items), i => Assert.Equal(1, workload.RunsOf(i)));
        Assert.Equal(items, batch.Completed);
        Assert.Equal(0, batch.Duplicated);
        Assert.Equal(items, batch.CompletionLatenciesMs().Length);
    }

    [Theory]
    [MemberData(nameof(EveryStrategyFormAndDegree))]
    public async Task Execute_ItemThrows_FailsTheBatchWithThatItemsException(string id, WorkForm form, int degree)
    {
        var strategy = StrategyCatalog.Find(id)!;
        var batch = new WorkBatch(new CountingWorkload(20, fails: i => i == 7), form);
        batch.MarkStart();

        var error = await Assert.ThrowsAnyAsync<Exception>(() =>
            strategy.ExecuteAsync(batch, degree == 0 ? Degree.Default : Degree.Of(degree)).WaitAsync(TimeSpan.FromSeconds(60)));

        Assert.IsNotType<TimeoutException>(error);
        Assert.Contains("item 7 failed", error.ToString(), StringComparison.Ordinal);
        Assert.InRange(batch.Completed, 0, 19);
    }

    [Theory]
    [MemberData(nameof(EveryStrategyFormAndDegree))]
    public async Task Execute_EveryItemThrows_FailsInsteadOfHanging(string id, WorkForm form, int degree)
    {
        var strategy = StrategyCatalog.Find(id)!;
        var batch = new WorkBatch(new CountingWorkload(40, fails: _ => true), form);
        batch.MarkStart();

        var error = await Assert.ThrowsAnyAsync<Exception>(() =>
            strategy.ExecuteAsync(batch, degree == 0 ? Degree.Default : Degree.Of(degree)).WaitAsync(TimeSpan.FromSeconds(60)));

        Assert.IsNotType<TimeoutException>(error);
        Assert.Contains("failed", error.ToString(), StringComparison.Ordinal);
        Assert.Equal(0, batch.Completed);
    }

    [Fact]
    public async Task ThreadPool_CancelledWhileItemsRun_ThrowsAndLeavesTheProcessStanding()
    {
        var strategy = StrategyCatalog.Find("threadpool")!;
        var batch = new WorkBatch(new SleepingWorkload(16, sleepMs: 200), WorkForm.Sync);
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(50));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => strategy.ExecuteAsync(batch, Degree.Default, cancel.Token));

        // The items still running signal the event after the wait was abandoned; that must not crash this process.
        await Task.Delay(600);
        Assert.True(batch.Completed > 0);
    }

    [Fact]
    public void Catalog_Ids_AreUniqueLowercase()
    {
        var ids = StrategyCatalog.All.Select(s => s.Id).ToList();
        Assert.Equal(ids.Count, ids.Distinct().Count());
        Assert.All(ids, id => Assert.Equal(id.ToLowerInvariant(), id));
    }

    private sealed class SleepingWorkload(int count, int sleepMs) : Workload
    {
        public override int Count => count;

        public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync];

        public override void Run(int index, CancellationToken cancellationToken) => Thread.Sleep(sleepMs);
    }
}
