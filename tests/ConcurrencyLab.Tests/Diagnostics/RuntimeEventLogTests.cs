using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Diagnostics;

/// <summary>The account made from made-up events: what is cut to the region, paired, left out and added up.</summary>
public class RuntimeEventLogTests
{
    // Ticks of a microsecond, so milliseconds read plainly below.
    private const long PerSecond = 1_000_000;
    private const long Start = 10_000_000;

    private static long At(double ms) => Start + (long)(ms * 1000);

    private static RuntimeEventLog Log(params RuntimeEvent[] events)
    {
        var log = new RuntimeEventLog();
        foreach (var e in events)
        {
            log.Add(e);
        }

        return log;
    }

    [Fact]
    public void PoolAdjustments_AreCutToTheRegion_WithTheTargetItHadAsItBegan()
    {
        var log = Log(
            new RuntimeEvent(At(-50), RuntimeEventKind.PoolAdjustment, 1, 2, 0, PoolAdjustmentReason.Warmup),
            new RuntimeEvent(At(600), RuntimeEventKind.PoolAdjustment, 1, 3, 0.5, PoolAdjustmentReason.Starvation),
            new RuntimeEvent(At(1100), RuntimeEventKind.PoolAdjustment, 1, 4, 0.5, PoolAdjustmentReason.Starvation),
            new RuntimeEvent(At(1200), RuntimeEventKind.PoolAdjustment, 1, 5, 80, PoolAdjustmentReason.ClimbingMove),
            new RuntimeEvent(At(1300), RuntimeEventKind.PoolAdjustment, 1, 6, 0, PoolAdjustmentReason.CooperativeBlocking),
            new RuntimeEvent(At(5000), RuntimeEventKind.PoolAdjustment, 1, 9, 0, PoolAdjustmentReason.Starvation),
            new RuntimeEvent(At(700), RuntimeEventKind.WorkerStart, 7),
            new RuntimeEvent(At(-1), RuntimeEventKind.WorkerStart, 8));

        var account = log.Account(RuntimeEvents.Pool, Start, At(2000), PerSecond, complete: true, note: null);

        Assert.Equal(2, account.PoolTargetAtStart);
        Assert.Equal([600, 1100, 1200, 1300], account.PoolAdjustments.Select(a => a.TimeMs));
        Assert.Equal(2, account.Count(PoolAdjustmentReason.Starvation));
        Assert.Equal(1, account.Count(PoolAdjustmentReason.CooperativeBlocking));
        Assert.Equal(1, account.HillClimbingMoves);
        Assert.Equal(1, account.WorkerThreadsStarted);
        Assert.True(account.Complete);

        // Pool level: no contention or wait figures at all, rather than zeros that would say "none".
        Assert.Null(account.LockContentions);
        Assert.Null(account.Waits);
    }

    [Fact]
    public void Contentions_TakeTheirDurationFromTheStop_OrFromTheirStart_ClippedToTheRegion()
    {
        var log = Log(
            // .NET 8 and later: the stop says 300 ms.
            new RuntimeEvent(At(100), RuntimeEventKind.ContentionStart, 3),
            new RuntimeEvent(At(400), RuntimeEventKind.ContentionStop, 3, Number: 300e6),

            // Older runtimes: paired by thread.
            new RuntimeEvent(At(500), RuntimeEventKind.ContentionStart, 4),
            new RuntimeEvent(At(550), RuntimeEventKind.ContentionStop, 4),

            // Began before the region: only its part inside counts.
            new RuntimeEvent(At(-100), RuntimeEventKind.ContentionStart, 5),
            new RuntimeEvent(At(20), RuntimeEventKind.ContentionStop, 5, Number: 120e6),

            // Ended after the region: not counted.
            new RuntimeEvent(At(900), RuntimeEventKind.ContentionStart, 6),
            new RuntimeEvent(At(1500), RuntimeEventKind.ContentionStop, 6, Number: 600e6));

        var account = log.Account(RuntimeEvents.Full, Start, At(1000), PerSecond, complete: true, note: null);

        Assert.Equal(new BlockedTime(3, 370, 300), account.LockContentions);
    }

    [Fact]
    public void Waits_CountMonitorWaitsAnywhere_HandleWaitsOnPoolThreadsOnly_AndNeverTheLabsOwnOrALocksOwn()
    {
        const int main = 1, worker = 2, gate = 3, sampler = 4, contender = 5;
        var log = Log(
            new RuntimeEvent(At(-500), RuntimeEventKind.WorkerStart, worker),

            // The main thread in Task.WaitAll: a Monitor.Wait.
            new RuntimeEvent(At(0), RuntimeEventKind.WaitStart, main, RuntimeEvent.MonitorWaitSource),
            new RuntimeEvent(At(800), RuntimeEventKind.WaitStop, main),

            // A pool thread on a bare handle: the variant's.
            new RuntimeEvent(At(100), RuntimeEventKind.WaitStart, worker, 0),
            new RuntimeEvent(At(300), RuntimeEventKind.WaitStop, worker),

            // The runtime's gate thread timing itself on a bare handle: not the variant's.
            new RuntimeEvent(At(0), RuntimeEventKind.WaitStart, gate, 0),
            new RuntimeEvent(At(500), RuntimeEventKind.WaitStop, gate),

            // The lab's sampler: not the variant's.
            new RuntimeEvent(At(10), RuntimeEventKind.WaitStart, sampler, RuntimeEvent.MonitorWaitSource),
            new RuntimeEvent(At(20), RuntimeEventKind.WaitStop, sampler),

            // A contended lock's own wait: counted as the contention, once.
            new RuntimeEvent(At(200), RuntimeEventKind.ContentionStart, contender),
            new RuntimeEvent(At(201), RuntimeEventKind.WaitStart, contender, 0),
            new RuntimeEvent(At(399), RuntimeEventKind.WaitStop, contender),
            new RuntimeEvent(At(400), RuntimeEventKind.ContentionStop, contender, Number: 200e6));

        var account = log.Account(RuntimeEvents.Full, Start, At(1000), PerSecond, complete: true, note: null, labThreads: [sampler]);

        Assert.Equal(new BlockedTime(2, 1000, 800), account.Waits);
        Assert.Equal(new BlockedTime(1, 200, 200), account.LockContentions);
    }

    [Fact]
    public void TheCallersWaits_AreTheJoin_ApartFromTheWorks_AndWithoutACallerNeitherIsToldApart()
    {
        const int caller = 1, worker = 2, other = 3;
        RuntimeEvent[] events =
        [
            new RuntimeEvent(At(-500), RuntimeEventKind.WorkerStart, worker),
            new RuntimeEvent(At(-500), RuntimeEventKind.WorkerStart, other),

            // The caller waits for its batch (WaitAll) from the start to the end, once, and briefly before it.
            new RuntimeEvent(At(-50), RuntimeEventKind.WaitStart, caller, RuntimeEvent.MonitorWaitSource),
            new RuntimeEvent(At(-40), RuntimeEventKind.WaitStop, caller),
            new RuntimeEvent(At(0), RuntimeEventKind.WaitStart, caller, RuntimeEvent.MonitorWaitSource),
            new RuntimeEvent(At(900), RuntimeEventKind.WaitStop, caller),

            // Two items block in a task's Result.
            new RuntimeEvent(At(100), RuntimeEventKind.WaitStart, worker, RuntimeEvent.MonitorWaitSource),
            new RuntimeEvent(At(400), RuntimeEventKind.WaitStop, worker),
            new RuntimeEvent(At(100), RuntimeEventKind.WaitStart, other, RuntimeEvent.MonitorWaitSource),
            new RuntimeEvent(At(600), RuntimeEventKind.WaitStop, other),
        ];

        var told = Log(events).Account(RuntimeEvents.Full, Start, At(1000), PerSecond, complete: true, note: null, caller: caller);
        Assert.Equal(new BlockedTime(3, 1700, 900), told.Waits);
        Assert.Equal(new BlockedTime(1, 900, 900), told.Join);
        Assert.Equal(new BlockedTime(2, 800, 500), told.WorkWaits);

        // The work's blocked time leaves the join out; the metric that has always counted every wait still does.
        var summary = ConcurrencyLab.Analysis.Accounts.Of(told);
        Assert.Equal(800, summary.WorkBlockedMs);
        Assert.Equal(1700, StandardMetrics.Read(told)[StandardMetrics.Blocked]);
        Assert.Equal(900, StandardMetrics.Read(told)[StandardMetrics.Join]);

        var untold = Log(events).Account(RuntimeEvents.Full, Start, At(1000), PerSecond, complete: true, note: null);
        Assert.Equal(told.Waits, untold.Waits);
        Assert.Null(untold.Join);
        Assert.Null(untold.WorkWaits);
        Assert.Equal(1700, ConcurrencyLab.Analysis.Accounts.Of(untold).WorkBlockedMs);
        Assert.False(StandardMetrics.Read(untold).ContainsKey(StandardMetrics.Join.Id));
    }

    [Fact]
    public void GcPauses_RunFromTheSuspensionToTheRestart()
    {
        var log = Log(
            new RuntimeEvent(At(100), RuntimeEventKind.GcSuspend, 1),
            new RuntimeEvent(At(101), RuntimeEventKind.GcStart, 1),
            new RuntimeEvent(At(104), RuntimeEventKind.GcRestart, 1),
            new RuntimeEvent(At(300), RuntimeEventKind.GcSuspend, 1),
            new RuntimeEvent(At(301), RuntimeEventKind.GcStart, 1),
            new RuntimeEvent(At(310), RuntimeEventKind.GcRestart, 1));

        var account = log.Account(RuntimeEvents.Pool, Start, At(1000), PerSecond, complete: true, note: null);

        Assert.Equal(2, account.GcCollections);
        Assert.Equal(new BlockedTime(2, 14, 10), account.GcPauses);
    }

    [Fact]
    public void ARegionThatNeverEnded_RunsToTheLastEvent_AndIsIncomplete()
    {
        var log = Log(
            new RuntimeEvent(At(600), RuntimeEventKind.PoolAdjustment, 1, 3, 0, PoolAdjustmentReason.Starvation),
            new RuntimeEvent(At(1100), RuntimeEventKind.PoolAdjustment, 1, 4, 0, PoolAdjustmentReason.Starvation));
        log.Lost = 0;

        var account = log.Account(RuntimeEvents.Pool, Start, regionEnd: null, PerSecond, complete: false, note: "the trial timed out");

        Assert.False(account.Complete);
        Assert.Equal("the trial timed out", account.Note);
        Assert.Equal(2, account.Count(PoolAdjustmentReason.Starvation));
    }

    [Fact]
    public void EventsTheRuntimeDropped_MakeTheAccountIncomplete_AndSaySo()
    {
        var log = Log(new RuntimeEvent(At(1), RuntimeEventKind.GcStart, 1));
        log.Lost = 12;

        var account = log.Account(RuntimeEvents.Pool, Start, At(10), PerSecond, complete: true, note: null);

        Assert.False(account.Complete);
        Assert.Contains("dropped 12 events", account.Note, StringComparison.Ordinal);
    }

    [Fact]
    public void TheQueuesReadings_AreCutToTheRegion_AndTheCompletedCountBecomesARate()
    {
        var log = Log(
            new RuntimeEvent(At(-500), RuntimeEventKind.QueueLength, 9, 999),
            new RuntimeEvent(At(-500), RuntimeEventKind.ItemsCompleted, 9, Number: 0),
            new RuntimeEvent(At(500), RuntimeEventKind.QueueLength, 9, 40),
            new RuntimeEvent(At(500), RuntimeEventKind.ItemsCompleted, 9, Number: 1_000),
            new RuntimeEvent(At(1500), RuntimeEventKind.QueueLength, 9, 212),
            new RuntimeEvent(At(2500), RuntimeEventKind.QueueLength, 9, 3),
            new RuntimeEvent(At(2500), RuntimeEventKind.ItemsCompleted, 9, Number: 5_000),
            new RuntimeEvent(At(3500), RuntimeEventKind.QueueLength, 9, 5_000));

        var account = log.Account(RuntimeEvents.Stacks, Start, At(3000), PerSecond, complete: true, note: null);

        Assert.Equal([500, 1500, 2500], account.PoolQueue!.Lengths.Select(l => l.TimeMs));
        Assert.Equal(212, account.PoolQueue.Peak);
        Assert.Equal(2000, account.PoolQueue.CompletedPerSecond);

        // No reading at all: no queue, rather than an empty one that would say it never held anything.
        Assert.Null(Log(new RuntimeEvent(At(100), RuntimeEventKind.GcStart, 1)).Account(RuntimeEvents.Stacks, Start, At(3000), PerSecond, true, null).PoolQueue);
    }
}
