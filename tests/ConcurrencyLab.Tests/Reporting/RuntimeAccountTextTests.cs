using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>The runtime's account in the reports: a sentence per variant, and the pool's injections on its chart.</summary>
public class RuntimeAccountTextTests
{
    private static RuntimeAccount Starved(int injections, double everyMs) => new()
    {
        Events = RuntimeEvents.Full,
        PoolTargetAtStart = 3,
        PoolAdjustments =
        [
            .. Enumerable.Range(1, injections).Select(i => new PoolAdjustment(i * everyMs, 3 + i, PoolAdjustmentReason.Starvation, 0)),
            new PoolAdjustment((injections + 1) * everyMs, 3 + injections, PoolAdjustmentReason.ClimbingMove, 50),
        ],
        LockContentions = new BlockedTime(2, 30, 20),
        Waits = new BlockedTime(10, 970, 400),
        GcPauses = new BlockedTime(1, 1.5, 1.5),
        GcCollections = 1,
    };

    private static VariantResult Variant(params (double WallMs, RuntimeAccount? Account)[] trials)
    {
        var results = trials.Select((t, i) => new TrialResult
        {
            Repeat = i,
            Metrics = Measured.Metrics(t.WallMs),
            Runtime = t.Account,
            Samples = [new Sample(0, 10, 3, 0, 0), new Sample(t.WallMs, 70, 61, 0, 5)],
        }).ToList();
        return new VariantResult
        {
            Name = "task-run-waitall",
            Description = "blocking",
            Status = TrialStatus.Ok,
            Trials = results,
            Summary = new VariantSummary { Trials = results.Count, MedianWallMs = trials.Select(t => t.WallMs).Order().ElementAt((trials.Length - 1) / 2), Medians = VariantSummary.MediansOf(results, []) },
        };
    }

    [Fact]
    public void TheSentence_SaysWhatThePoolDidAndWhy_FromTheMedianTrial()
    {
        var variant = Variant((20_000, Starved(10, 500)), (29_000, Starved(58, 500)), (40_000, Starved(70, 500)));

        var sentence = RuntimeAccountText.Describe(variant)?.Text;

        Assert.Equal(
            "task-run-waitall (29000 ms): the pool's thread target went from 3 to 61: raised 58 times for starvation, about 2 a second, 1 hill-climbing move; "
            + "threads blocked 1000 ms in all, the caller's wait for the batch included (2 lock contentions for 30.0 ms, 10 waits for 970 ms, the longest 400 ms); 1 garbage collection, 1.50 ms paused.",
            sentence);
        Assert.True(RuntimeAccountText.Notable(variant));
    }

    [Fact]
    public void ASiteOfMoreTimeThanTheThreadsWereBlocked_GetsNoShare_AsAHostileFileWouldHaveIt()
    {
        var site = new BlockingSite("io", "Shop.Read", "System.Net.Sockets.Socket.Receive", 1e308, 1);
        var said = RuntimeAccountText.ThreadTimeText(new ThreadTime { IntervalMs = 1, Work = new ThreadStates(1, 0, 0, 7), Sites = [site] }).Text;
        Assert.DoesNotContain("%", said, StringComparison.Ordinal);
        Assert.DoesNotContain("Infinity", said, StringComparison.Ordinal);

        var honest = RuntimeAccountText.ThreadTimeText(new ThreadTime { IntervalMs = 1, Work = new ThreadStates(1, 0, 0, 8), Sites = [site with { Ms = 6 }] }).Text;
        Assert.EndsWith("75% of the time not running was at Shop.Read -> Socket.Receive (io)", honest, StringComparison.Ordinal);
    }

    [Fact]
    public void ASitesFileAndLine_AreSaidBesideItsMethod_WhereTheyAreWhole()
    {
        var site = new BlockingSite("waiting", "Shop.ProductService.GetProduct", "System.Threading.Tasks.Task`1[System.__Canon].get_Result", 6, 5) { File = "ProductService.cs", Line = 88 };
        ThreadTime Time(BlockingSite s) => new() { IntervalMs = 1, Work = new ThreadStates(1, 8, 0, 0), Sites = [s] };

        var said = RuntimeAccountText.ThreadTimeText(Time(site));
        Assert.EndsWith("75% of the time not running was at ProductService.GetProduct (ProductService.cs:88) -> Task`1.get_Result (waiting)", said.Text, StringComparison.Ordinal);
        Assert.Contains(said.Inlines, p => p is Code { Text: "ProductService.cs:88" });

        // A wait to enter a lock says where the lock's owner was; an owner with no site says nothing.
        var locked = site with { Api = "System.Threading.Monitor.Enter", Owner = new LockOwner("Shop.Cache.Fill", "Cache.cs", 31, 6) };
        Assert.EndsWith("was at ProductService.GetProduct (ProductService.cs:88) -> Monitor.Enter, the lock held by Cache.Fill (Cache.cs:31) (waiting)", RuntimeAccountText.ThreadTimeText(Time(locked)).Text, StringComparison.Ordinal);
        Assert.EndsWith("-> Monitor.Enter (waiting)", RuntimeAccountText.ThreadTimeText(Time(locked with { Owner = new LockOwner("", null, null, 6) })).Text, StringComparison.Ordinal);

        // A line that is no line, or a file without a name, as a hostile file might have it: the method alone.
        Assert.EndsWith("was at ProductService.GetProduct -> Task`1.get_Result (waiting)", RuntimeAccountText.ThreadTimeText(Time(site with { Line = -3 })).Text, StringComparison.Ordinal);
        Assert.EndsWith("was at ProductService.GetProduct -> Task`1.get_Result (waiting)", RuntimeAccountText.ThreadTimeText(Time(site with { File = "" })).Text, StringComparison.Ordinal);
    }

    [Fact]
    public void TheCallersWaitForItsBatch_IsSaidApart_FromTheWorksBlocking()
    {
        var account = Starved(58, 500) with { Join = new BlockedTime(1, 900, 900), WorkWaits = new BlockedTime(9, 70, 40) };

        var sentence = RuntimeAccountText.Describe(Variant((29_000, account)))!;

        Assert.EndsWith(
            "the work's threads blocked 100 ms (2 lock contentions for 30.0 ms, 9 waits for 70.0 ms, the longest 40.0 ms); the caller waited 900 ms for its batch; 1 garbage collection, 1.50 ms paused.",
            sentence.Text,
            StringComparison.Ordinal);
        Assert.Contains(sentence.Inlines.OfType<Number>(), n => n.Value == 900);
    }

    [Fact]
    public void OnlyRaisesAreInjections_AndTheSentenceSaysThePeakAndTheEnd()
    {
        // Cooperative blocking raises the target while a pool thread blocks and lowers it when the blocking ends.
        var account = new RuntimeAccount
        {
            Events = RuntimeEvents.Pool,
            PoolTargetAtStart = 3,
            PoolAdjustments =
            [
                new PoolAdjustment(10, 4, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(20, 5, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(30, 4, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(40, 3, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(600, 4, PoolAdjustmentReason.Starvation, 0),
            ],
        };

        Assert.Equal(4, account.Count(PoolAdjustmentReason.CooperativeBlocking));
        Assert.Equal(2, account.Injections(PoolAdjustmentReason.CooperativeBlocking));
        Assert.Equal(1, account.Injections(PoolAdjustmentReason.Starvation));
        Assert.Equal(2, StandardMetrics.Read(account)[StandardMetrics.BlockingInjections]);
        Assert.StartsWith(
            "task-run-waitall (1000 ms): the pool's thread target rose from 3 to 5 (4 at the end): raised once for starvation, about 1 a second, 2 times for blocking on tasks.",
            RuntimeAccountText.Describe(Variant((1000, account)))?.Text,
            StringComparison.Ordinal);
    }

    [Fact]
    public void ATargetThatOnlyFell_SaysSo()
    {
        var account = new RuntimeAccount
        {
            Events = RuntimeEvents.Pool,
            PoolTargetAtStart = 8,
            PoolAdjustments = [new PoolAdjustment(500, 2, PoolAdjustmentReason.ThreadTimedOut, 0)],
        };

        Assert.Equal("task-run-waitall (1000 ms): the pool's thread target went from 8 to 2.", RuntimeAccountText.Describe(Variant((1000, account)))?.Text);
    }

    [Fact]
    public void NoSentence_WithoutACompleteAccount_AndNotNotable_WithoutInjections()
    {
        Assert.Null(RuntimeAccountText.Describe(Variant((100, null)))?.Text);
        Assert.Null(RuntimeAccountText.Describe(Variant((100, new RuntimeAccount { Events = RuntimeEvents.Full, Complete = false, Note = "never connected" }))));

        var calm = Variant((100, new RuntimeAccount { Events = RuntimeEvents.Pool, PoolTargetAtStart = 2, GcPauses = new BlockedTime(0, 0, 0) }));
        Assert.Equal("task-run-waitall (100 ms): the pool's thread target stayed at 2; no garbage collection.", RuntimeAccountText.Describe(calm)?.Text);
        Assert.False(RuntimeAccountText.Notable(calm));
    }

    [Fact]
    public void ThePoolThreadsChart_MarksEachInjection_WithItsReason_AndNotHillClimbing()
    {
        var scenario = ExporterTests.SampleRun().Scenarios[0] with { Variants = [Variant((29_000, Starved(3, 500)))] };

        var chart = Assert.Single(Chart.For(scenario).OfType<OverTimeChart>(), c => c.Kind == "pool-threads");
        var svg = SvgCharts.Draw(chart);

        Assert.Equal(3, chart.Marks.Count);
        Assert.Equal(3, System.Text.RegularExpressions.Regex.Count(svg, "<circle class=\"mark series-0\""));
        Assert.Contains("task-run-waitall: at 500 ms the pool added a thread (starvation), target 4", svg, StringComparison.Ordinal);
        Assert.Contains("a dot where the runtime says the pool added a thread", chart.Description, StringComparison.Ordinal);
        Assert.Empty(Assert.Single(Chart.For(scenario).OfType<OverTimeChart>(), c => c.Kind == "os-threads").Marks);
    }
}
