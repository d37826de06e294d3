using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>
/// Each rule of the recommendation, held to a made-up result where it must fire and one where it must not: asserted
/// on the typed answer and its figures, and, where the words matter, on the one place that writes them.
/// </summary>
public class RecommendationTests
{
    private static readonly Metric Misclassified = Metric.Count("misclassified", "Misclassified") with { FlagsWhenNotZero = true };

    private static VariantResult V(string name, double ms, double threads = 15, double cpu = 10, double cores = 0.5, double starved = 0, double ciHalf = 1, double misclassified = 0, bool failed = false, string? requests = null)
        => V(name, ms, new Dictionary<string, double>(), threads, cpu, cores, starved, ciHalf, misclassified, failed, requests);

    // A variant whose trials counted their items in flight: on average, at the peak, of how many allowed, and the
    // share of the region at that many; with the pool's threads and queue at their most and the caller's time.
    private static VariantResult F(string name, double ms, double mean, double peak, double allowed, double share = 0, double cores = 0.5, double cpu = 10, double pool = 4, double queue = 0, double caller = 0, double starved = 0, double contentions = 0)
        => V(name, ms, new Dictionary<string, double>
        {
            [StandardMetrics.InFlightMean.Id] = mean,
            [StandardMetrics.InFlightPeak.Id] = peak,
            [StandardMetrics.AllowedAtOnce.Id] = allowed,
            [StandardMetrics.AtAllowedShare.Id] = share,
            [StandardMetrics.PeakPoolThreads.Id] = pool,
            [StandardMetrics.PeakQueueLength.Id] = queue,
            [StandardMetrics.CallerTime.Id] = caller,
            [StandardMetrics.LockContentions.Id] = contentions,
        }, cores: cores, cpu: cpu, starved: starved);

    private static VariantResult V(string name, double ms, Dictionary<string, double> more, double threads = 15, double cpu = 10, double cores = 0.5, double starved = 0, double ciHalf = 1, double misclassified = 0, bool failed = false, string? requests = null)
    {
        var metrics = new Dictionary<string, double>(more)
        {
            [StandardMetrics.WallTime.Id] = ms,
            [StandardMetrics.PeakThreads.Id] = threads,
            [StandardMetrics.Cpu.Id] = cpu,
            [StandardMetrics.CoresUsed.Id] = cores,
            [StandardMetrics.StarvationInjections.Id] = starved,
            [Misclassified.Id] = misclassified,
        };
        List<TrialResult> trials = [new TrialResult { Metrics = metrics }];
        if (failed)
        {
            trials.Add(TrialResult.Unmeasured(TrialStatus.Failed, "3 of 40 items completed.", isolated: true));
        }

        return new VariantResult
        {
            Name = name,
            Description = name,
            Status = failed ? TrialStatus.Failed : TrialStatus.Ok,
            Trials = trials,
            Parameters = requests is null ? new Dictionary<string, string>() : new Dictionary<string, string> { ["requests"] = requests },
            Summary = new VariantSummary { Trials = 1, MedianWallMs = ms, CiLowMs = ms - ciHalf, CiHighMs = ms + ciHalf, Medians = metrics },
        };
    }

    private static ScenarioResult Scenario(params VariantResult[] variants) =>
        ExporterTests.SampleRun().Scenarios[0] with { Variants = variants, Metrics = [Misclassified] };

    private static Recommendation Recommend(params VariantResult[] variants) => Recommender.For(Scenario(variants), processorCount: 2)!;

    [Fact]
    public void TheOneToUse_IsTheCheapestTheStatisticsCannotTellFromTheFastest()
    {
        var tied = Recommend(V("whenall", 50, threads: 40, ciHalf: 3), V("channel", 52, threads: 15, ciHalf: 3));
        Assert.Equal("whenall", tied.Fastest);
        Assert.Equal("channel", tied.Use);
        Assert.Equal(UseBecause.AsFastAndCheaper, tied.Because);
        Assert.Equal((new Interval(49, 55), new Interval(47, 53), 15.0, 40.0), (tied.UseInterval, tied.FastestInterval, tied.UseThreads, tied.FastestThreads));
        Assert.StartsWith("channel is as fast as whenall within the statistics (49.0-55.0 ms against 47.0-53.0 ms) on 15 threads against 40", RecommendationText.UseReason(tied).Text, StringComparison.Ordinal);

        // Apart: the fastest, whatever it costs.
        var apart = Recommend(V("whenall", 50, threads: 40), V("channel", 70, threads: 15));
        Assert.Equal("whenall", apart.Use);
        Assert.Equal(UseBecause.Fastest, apart.Because);
    }

    [Fact]
    public void AWideIntervalThatOverlaps_IsNotAsFast_WhenItsMedianIsFarSlower()
    {
        // Fanout's waitall@5 in a bare run: three trials, one fast, so its interval (229-1307 ms) overlapped the
        // fastest's (220-230 ms) while its median was 2.2 times slower; it was recommended for fewer CPU ms.
        var fastest = V("whenall-async@5", 228, threads: 18, ciHalf: 5);
        var wide = V("waitall@5", 511, threads: 18, ciHalf: 5);
        wide = wide with { Summary = wide.Summary! with { CiLowMs = 229, CiHighMs = 1307 } };

        var r = Recommend(fastest, wide);

        Assert.Equal("whenall-async@5", r.Use);
        Assert.Equal(UseBecause.Fastest, r.Because);
        Assert.Equal(1, r.AsFast);
        Assert.Contains(r.Avoid, a => a.Variant == "waitall@5" && a is MuchSlower);

        // Within 10% of the fastest's median, and overlapping: as fast.
        var close = V("waitall@5", 245, threads: 10, ciHalf: 20);
        Assert.Equal("waitall@5", Recommend(fastest, close).Use);
    }

    [Fact]
    public void AVariantWithWrongResultsOrAFailedTrial_IsNeverTheOneToUse_AndIsAvoidedFirst()
    {
        var r = Recommend(V("fast-but-wrong", 6000, misclassified: 42), V("lossy", 7000, failed: true), V("right", 9000));

        Assert.Equal("right", r.Use);
        Assert.Equal(["lossy", "fast-but-wrong"], r.Avoid.Select(a => a.Variant));
        var failed = Assert.IsType<TrialsFailed>(r.Avoid[0]);
        Assert.Equal((1, 2, false, "3 of 40 items completed."), (failed.Failed, failed.Trials, failed.TimedOut, failed.FirstError));
        Assert.Equal(42, Assert.IsType<WrongResults>(r.Avoid[1]).Metrics["misclassified"]);
        Assert.Equal("wrong results: misclassified 42 (should be 0)", Reason(r.Avoid[1], r));

        var none = Recommend(V("wrong", 6000, misclassified: 1));
        Assert.Null(none.Use);
        Assert.Equal(UseBecause.NoneSound, none.Because);
    }

    [Fact]
    public void StarvationInjections_MakeAVariantOneToAvoid_AndNoneDoNot()
    {
        var r = Recommend(V("whenall", 100), V("task-run-waitall", 150, starved: 12), V("parallel-for@4", 150));

        var avoid = Assert.IsType<BlocksPoolThreads>(Assert.Single(r.Avoid));
        Assert.Equal(("task-run-waitall", 12.0, 0.0, null), (avoid.Variant, avoid.Starvation, avoid.Blocking, avoid.Service));
        Assert.StartsWith("blocks pool threads: the pool raised its thread target 12 times because queued work waited with no thread free", Reason(avoid, r), StringComparison.Ordinal);
    }

    [Fact]
    public void WhereStacksWereSampled_TheReasonNamesTheCallSite_ThatBlockedMost()
    {
        var site = new ConcurrencyLab.Measurement.BlockingSite("waiting", "Shop.ProductService.GetProduct", "System.Threading.Tasks.Task`1[System.__Canon].get_Result", 770, 700);
        var blocked = V("task-run-waitall", 150, starved: 12) with
        {
            Account = new AccountSummary
            {
                Trial = 0,
                WallMs = 150,
                Process = new ProcessAccount { Threads = new ConcurrencyLab.Measurement.ThreadTime { Work = new(10, 770, 230, 0), Sites = [site] } },
            },
        };

        var r = Recommend(V("whenall", 100), blocked);

        var avoid = Assert.IsType<BlocksPoolThreads>(Assert.Single(r.Avoid));
        Assert.Equal((site, 0.77), (avoid.At, avoid.AtShare));
        Assert.StartsWith("blocks pool threads at ProductService.GetProduct -> Task`1.get_Result (77% of the time not running): the pool raised", Reason(avoid, r), StringComparison.Ordinal);
    }

    [Fact]
    public void CpuThatRanOnOneCore_IsNamed_OnAMachineOfTwoOrMore_WhenTheFastestUsedMore()
    {
        var r = Recommend(V("parallel", 440, cores: 1.9), V("whenall", 830, cores: 1.0));
        var one = Assert.IsType<OneCoreBusy>(r.Avoid.Single());
        Assert.Equal(("whenall", 1.0, 1.9, 2), (one.Variant, one.Cores, one.FastestCores, one.ProcessorCount));
        Assert.Equal("its CPU ran on about one core: 1.0 of 2 cores busy, where parallel kept 1.9 busy", Reason(one, r));
        Assert.Empty(Recommend(V("parallel", 440, cores: 1.2), V("whenall", 830, cores: 1.0)).Avoid);
        Assert.Empty(Recommender.For(Scenario(V("parallel", 440, cores: 1.9), V("whenall", 830, cores: 1.0)), processorCount: 1)!.Avoid);
    }

    [Fact]
    public void CoresIdleWhileTheDiskWasWaitedFor_AreNotCalledOneItemAtATime()
    {
        VariantResult Waiting(double ioWaitMs)
        {
            var v = V("direct@4", 496, cores: 1.2);
            var medians = new Dictionary<string, double>(v.Summary!.Medians) { [StandardMetrics.MachineIdle.Id] = 230, [StandardMetrics.MachineIoWait.Id] = ioWaitMs };
            return v with { Summary = v.Summary with { Medians = medians } };
        }

        // Nearly all the idle time waited for the disk: nothing says the items ran one at a time, and 1.33 times slower is no cause.
        Assert.Empty(Recommend(V("sync@16", 373, cores: 1.7), Waiting(ioWaitMs: 210)).Avoid);

        // Idle with no I/O outstanding: the rule holds as before.
        Assert.IsType<OneCoreBusy>(Assert.Single(Recommend(V("sync@16", 373, cores: 1.7), Waiting(ioWaitMs: 20)).Avoid));
    }

    [Fact]
    public void ManyMoreThreadsForTheSameTime_IsACost_AFewMoreIsNot()
    {
        var r = Recommend(V("whenall", 50, threads: 15, ciHalf: 2), V("threads", 51, threads: 115, ciHalf: 2));
        var many = Assert.IsType<ManyMoreThreads>(r.Avoid.Single());
        Assert.Equal((115.0, 15.0, true), (many.Threads, many.UseThreads, many.AsFast));
        Assert.Equal("as fast, but on 115 threads against 15 for whenall", Reason(many, r));

        Assert.Empty(Recommend(V("whenall", 50, threads: 15, ciHalf: 2), V("threads", 51, threads: 20, ciHalf: 2)).Avoid);

        // Slower, its interval apart, but by less than a tenth: the ratio in two decimals, never "1.0 times slower".
        var close = Recommend(V("whenall", 50, threads: 15, ciHalf: 0.5), V("threads", 52, threads: 115, ciHalf: 0.5));
        var slower = Assert.IsType<ManyMoreThreads>(close.Avoid.Single());
        Assert.False(slower.AsFast);
        Assert.Equal("1.04 times slower than whenall, and on 115 threads against 15 for whenall", Reason(slower, close));
    }

    [Fact]
    public void MuchSlowerBlockingWithTheCoresIdle_SaysItsThreadsSatBlocked_ButNotWhenTheyWorkedOrAwaited()
    {
        var r = Recommend(V("whenall", 104, cores: 0.08), V("task-run-whenall", 6415, cores: 0.03) with { Form = WorkForm.Sync });
        var idle = Assert.IsType<BlockedWithCoresIdle>(r.Avoid.Single());
        Assert.Equal((0.03, 6415.0, null), (idle.Cores, idle.MedianMs, idle.Degree));
        Assert.Equal(6415 / 104.0, idle.Ratio, precision: 9);
        Assert.Equal("it blocks its threads in the waits: 0.03 of 2 cores busy over 6415 ms, 62 times the time of whenall", Reason(idle, r));

        Assert.IsType<MuchSlower>(Recommend(V("whenall", 104, cores: 0.08), V("sequential", 5711, cores: 0.9) with { Form = WorkForm.Sync }).Avoid.Single());
        Assert.IsType<MuchSlower>(Recommend(V("whenall", 104, cores: 0.08), V("foreach-async", 5711, cores: 0.03) with { Form = WorkForm.Tap }).Avoid.Single());
    }

    [Fact]
    public void HeldToItsDegree_IsSaidOnlyWhereItsItemsInFlightWereAtTheDegree()
    {
        var fastest = F("whenall", 50, mean: 40, peak: 40, allowed: 40);
        var r = Recommend(fastest, F("foreach-async@4", 690, mean: 3.9, peak: 4, allowed: 4, share: 0.93));
        var held = Assert.IsType<HeldToItsDegree>(r.Avoid.Single());
        Assert.Equal((4, 3.9, 40.0), (held.Degree, held.InFlight!.Mean, held.FastestInFlight));
        Assert.Equal("it ran 3.9 items at once on average, all it allows (4) for 93% of the region, where whenall ran 40: 14 times the time of whenall", Reason(held, r));

        // A loop that waits for each item: one at a time, as it allows.
        var loop = Recommend(fastest, F("sequential", 2000, mean: 1, peak: 1, allowed: 1, share: 0.99));
        Assert.StartsWith("it ran one item at a time, all it allows (1)", Reason(Assert.IsType<HeldToItsDegree>(loop.Avoid.Single()), loop), StringComparison.Ordinal);

        // Three of four on average but at four for only 29% of the region, its three pool threads all in items with the
        // cores idle: the pool's threads held it, not its degree.
        var pool = Recommend(fastest, F("parallel-for@4", 2270, mean: 3.0, peak: 4, allowed: 4, share: 0.29, cores: 0.4, pool: 3));
        Assert.Equal(StartCause.PoolThreadsBlocked, Assert.IsType<CouldNotStart>(pool.Avoid.Single()).Cause);

        // Its degree alone says nothing of how many ran at once: without the items in flight, no such reason.
        var unmeasured = V("foreach-async@4", 690) with { Parameters = new Dictionary<string, string> { ["degree"] = "4" } };
        Assert.IsType<MuchSlower>(Recommend(V("whenall", 50), unmeasured).Avoid.Single());
    }

    [Fact]
    public void FarFewerInFlightThanItsDegree_WithThePoolsThreadsAllInItemsAndTheCoresIdle_IsPoolThreadsBlocked_NeverItsDegree()
    {
        // The new user's parallel-for@128: about four items at once though it allows 128, three pool threads, 0.41 of
        // two cores busy. It once read "it ran at most 128 items at once".
        var fastest = F("dataflow@128", 465, mean: 120, peak: 128, allowed: 128, cores: 1.9);
        var r = Recommend(fastest, F("parallel-for@128", 1900, mean: 3.9, peak: 5, allowed: 128, cores: 0.41, pool: 4));
        var blocked = Assert.IsType<CouldNotStart>(r.Avoid.Single());
        Assert.Equal(StartCause.PoolThreadsBlocked, blocked.Cause);
        var said = Reason(blocked, r);
        Assert.StartsWith("its work could not start: it ran 3.9 items at once on average (peak 5) though it allows 128; its pool threads were blocked inside the items: at most 4 pool threads and 5 items in flight, with 0.41 of 2 cores busy", said, StringComparison.Ordinal);
        Assert.DoesNotContain("at most 128", said, StringComparison.Ordinal);

        // The thread pool strategy with its queue full: the queue is said too.
        var queued = Recommend(fastest, F("threadpool", 2300, mean: 4.8, peak: 5, allowed: 200, cores: 0.31, pool: 5, queue: 198));
        Assert.Contains("and up to 198 work items waited in the pool's queue", Reason(queued.Avoid.Single(), queued), StringComparison.Ordinal);

        // Two and a half of four, with the pool's three threads all in items: the cause is shown, so it is named; with
        // no cause shown (more pool threads than items in flight), two and a half of four is too close to say.
        Assert.Equal(StartCause.PoolThreadsBlocked, Assert.IsType<CouldNotStart>(Recommend(fastest, F("parallel-for@4", 1050, mean: 2.5, peak: 3, allowed: 4, cores: 0.05, pool: 3)).Avoid.Single()).Cause);
        Assert.IsType<MuchSlower>(Recommend(fastest, F("parallel-for@4", 1050, mean: 2.5, peak: 3, allowed: 4, cores: 1.3, pool: 10)).Avoid.Single());

        // The pool raised its target for starvation as well: still the same cause, the raises said with it.
        var raised = Recommend(fastest, F("threadpool", 2300, mean: 4.8, peak: 5, allowed: 200, cores: 0.31, pool: 5, queue: 198, starved: 3));
        var withRaises = Assert.IsType<CouldNotStart>(raised.Avoid.Single());
        Assert.Equal((StartCause.PoolThreadsBlocked, 3.0), (withRaises.Cause, withRaises.Starvation));
        Assert.Contains("the pool added threads 3 times for starvation or blocking", Reason(withRaises, raised), StringComparison.Ordinal);
    }

    [Fact]
    public void FarFewerInFlight_IsNamedByTheFirstCauseTheFiguresShow_OrNotExplained()
    {
        var fastest = F("task-run-whenall", 300, mean: 180, peak: 200, allowed: 200, cores: 1.8);

        // The calling thread ran the items' work before each first await for most of the region.
        var caller = Recommend(fastest, F("whenall", 900, mean: 7.5, peak: 9, allowed: 200, cores: 1.0, caller: 800));
        Assert.Equal(StartCause.CallingThread, Assert.IsType<CouldNotStart>(caller.Avoid.Single()).Cause);
        Assert.Contains("the calling thread ran 800 ms of the items' work itself", Reason(caller.Avoid.Single(), caller), StringComparison.Ordinal);

        // Never two at once, though it starts them all.
        var series = Recommend(fastest, F("channel", 900, mean: 1, peak: 1, allowed: 200, cores: 1.0));
        Assert.Equal(StartCause.OneAtATime, Assert.IsType<CouldNotStart>(series.Avoid.Single()).Cause);

        // More pool threads than items in flight, half the cores busy: nothing measured says why.
        var unexplained = Recommend(fastest, F("plinq@128", 900, mean: 10, peak: 14, allowed: 128, cores: 1.2, pool: 40));
        var notStarted = Assert.IsType<CouldNotStart>(unexplained.Avoid.Single());
        Assert.Equal(StartCause.Unexplained, notStarted.Cause);
        Assert.Contains("is not explained by what this run measured", Reason(notStarted, unexplained), StringComparison.Ordinal);

        // Every core busy: not a start that failed, but the CPU; with three times the fastest's CPU, its own.
        var busy = Recommend(fastest with { Summary = fastest.Summary! with { Medians = new Dictionary<string, double>(fastest.Summary.Medians) { [StandardMetrics.Cpu.Id] = 300 } } },
            F("threads", 900, mean: 20, peak: 30, allowed: 200, cores: 1.95, cpu: 1700));
        var cpu = Assert.IsType<CpuBound>(busy.Avoid.Single());
        Assert.Equal((1700.0, 300.0), (cpu.CpuMs, cpu.FastestCpuMs));
        Assert.StartsWith("its own CPU held it: 1.95 of 2 cores busy on 1700 ms of CPU, 5.7 times the 300 ms task-run-whenall spent", Reason(cpu, busy), StringComparison.Ordinal);
    }

    [Fact]
    public void ThreadsAddedForStarvation_WhileEveryCoreWasBusy_AreNoSignOfBlocking()
    {
        // Long CPU items held the pool's threads running: the pool added threads for starvation, but nothing blocked.
        var r = Recommend(V("parallel", 440, cores: 1.9), V("threadpool", 470, cores: 1.9, starved: 2));
        Assert.DoesNotContain(r.Avoid, a => a is BlocksPoolThreads);

        // With the cores idle it is blocking, as before.
        Assert.IsType<BlocksPoolThreads>(Recommend(V("parallel", 440, cores: 1.9), V("threadpool", 470, cores: 0.3, starved: 2)).Avoid.Single());
    }

    [Fact]
    public void OneCoreBusy_NamesTheCallingThread_WhereItRanTheItemsWorkForHalfTheRegion()
    {
        // whenall over items whose 4 ms of CPU comes before their first await: 1.1 cores, 1.8 times the fastest, the
        // calling thread inside the items for 800 of its 835 ms.
        var fastest = F("foreach-async@64", 463, mean: 26, peak: 40, allowed: 64, cores: 1.88);
        var r = Recommend(fastest, F("whenall", 835, mean: 8.2, peak: 10, allowed: 200, cores: 1.12, caller: 800));
        var one = Assert.IsType<OneCoreBusy>(r.Avoid.Single());
        Assert.Equal(800, one.CallerMs);
        Assert.EndsWith("; the calling thread ran 800 ms of the items' work itself, one item after another, before each call returned", Reason(one, r), StringComparison.Ordinal);

        // The caller inside the items for less than half the region: the figure alone.
        Assert.Null(Assert.IsType<OneCoreBusy>(Recommend(fastest, F("whenall", 835, mean: 8.2, peak: 10, allowed: 200, cores: 1.12, caller: 100)).Avoid.Single()).CallerMs);
    }

    [Fact]
    public void AStoredReasonThatSaidMoreThanItsFigures_IsMadeAgain_FromAnOlderFilesResults()
    {
        // A file from before items in flight were counted: "it ran at most 4 items at once" came from the degree alone.
        var scenario = Scenario(V("whenall", 50), V("foreach-async@4", 690) with { Parameters = new Dictionary<string, string> { ["degree"] = "4" } });
        var old = scenario with
        {
            Recommendations = [new Recommendation { Fastest = "whenall", FastestMs = 50, Use = "whenall", Because = UseBecause.Fastest, Avoid = [new HeldToItsDegree { Variant = "foreach-async@4", Degree = 4, Ratio = 13.8 }] }],
        };

        var answer = Assert.Single(Recommender.Of(old, processorCount: 2));
        Assert.IsType<MuchSlower>(answer.Avoid.Single());
        Assert.DoesNotContain(RecommendationText.Lines(answer, old), l => l.Text.Contains("at most", StringComparison.Ordinal));
    }

    // A limit of four inside the items: 48 items of 20 ms at their least, so at best 48 / 4 x 20 = 240 ms.
    private static ScenarioResult Limited(double witnessCores = 0.05, bool secondWitness = true, double contentions = 0) =>
        Scenario(
        [
            F("parallel-for@4", 240, mean: 4, peak: 4, allowed: 4, share: 0.97, cores: 0.05),
            F("whenall", 250, mean: 46, peak: 48, allowed: 48, cores: witnessCores, contentions: contentions),
            .. secondWitness ? [F("threads", 252, mean: 47, peak: 48, allowed: 48, cores: witnessCores)] : Array.Empty<VariantResult>(),
            F("parallel-for@2", 480, mean: 2, peak: 2, allowed: 2, share: 0.98, cores: 0.03),
            F("sequential", 960, mean: 1, peak: 1, allowed: 1, share: 0.99, cores: 0.02),
        ]) with { ItemTimes = new ItemLeastTimes { Items = 48, MeanMs = 20, LongestMs = 21, Timings = 12, Variants = 5 }, IdealMs = 21, IdealReason = "the longest item" };

    [Fact]
    public void ALimitInsideTheItems_IsNamedWithItsK_WhereVariantsWithFarMoreInFlightWereNoFaster()
    {
        var r = Recommender.For(Limited(), processorCount: 2)!;
        var limit = r.Limit!;
        Assert.Equal((4.0, 4, 240.0, "parallel-for@4"), (limit.AtOnce, limit.Slots, limit.BoundMs, limit.Best));
        Assert.Equal(["whenall", "threads"], limit.Witnesses.Select(w => w.Variant));
        Assert.Equal(0, limit.LockContentions);
        var said = RecommendationText.Limit(limit).Text;
        Assert.StartsWith("A limit inside the items: about 4.0 made progress at once, whatever the strategy and degree. The best rate was 200 items/s (parallel-for@4) and an item takes 20.0 ms at its least", said, StringComparison.Ordinal);
        Assert.True(said.Contains("whenall with 46 items in flight and threads with 47 were no faster (191-192 items/s)", StringComparison.Ordinal), said);

        // Below the limit, the degree held them: said with their counts.
        Assert.All(r.Avoid, a => Assert.IsType<HeldToItsDegree>(a));

        // Contentions for every other item at least: a lock is named among the limits; a few (a semaphore's own lock) are not.
        Assert.Contains("threads waited for a lock 30 times for 48 items, so a lock is among the limits", RecommendationText.Limit(Recommender.For(Limited(contentions: 30), processorCount: 2)!.Limit!).Text, StringComparison.Ordinal);
        Assert.DoesNotContain("a lock is among", RecommendationText.Limit(Recommender.For(Limited(contentions: 5), processorCount: 2)!.Limit!).Text, StringComparison.Ordinal);

        // The same figures with every core busy are the CPU, not a limit inside; with one witness, no flat rate is shown.
        Assert.Null(Recommender.For(Limited(witnessCores: 1.9), processorCount: 2)!.Limit);
        Assert.Null(Recommender.For(Limited(secondWitness: false), processorCount: 2)!.Limit);

        // Without the items' least times (a scenario that does not time them, an older file) nothing is said.
        Assert.Null(Recommender.For(Limited() with { ItemTimes = null }, processorCount: 2)!.Limit);
    }

    [Fact]
    public void ALimitSeenWhileOtherWorkKeptTheCoresBusy_IsNotJudged_AndSetsNoIdeal()
    {
        // The same figures, but the machine's cores stood idle for only 5% of the witnesses' regions: the CPU, taken
        // by another process, could be what held them.
        VariantResult Busy(VariantResult v) => v with { Summary = v.Summary! with { Medians = new Dictionary<string, double>(v.Summary.Medians) { [StandardMetrics.MachineIdle.Id] = 0.05 * 2 * v.Summary.MedianWallMs } } };
        var scenario = Limited();
        scenario = scenario with { Variants = [.. scenario.Variants.Select(Busy)] };

        var r = Recommender.For(scenario, processorCount: 2)!;
        Assert.Null(r.Limit);
        var unjudged = r.LimitNotJudged!;
        Assert.True(unjudged.MachineBusy);
        Assert.Equal(0.05, unjudged.MachineIdleShare);
        Assert.Equal("A limit inside the items could not be judged: 2 variants with far more items in flight than parallel-for@4 were no faster, but other work kept the machine's cores busy (as little as 5% of its core time idle in their regions), so the CPU cannot be ruled out.", RecommendationText.LimitNotJudged(unjudged).Text);
        Assert.Equal(21, ConcurrencyLab.Analysis.Summarizer.Answer(scenario, processorCount: 2).IdealMs);

        // Where the machine's time was not read (off Linux), the process's own cores decide alone: judged, no share.
        var unread = Recommender.For(Limited(), processorCount: 2)!.Limit!;
        Assert.Equal((false, (double?)null), (unread.MachineBusy, unread.MachineIdleShare));
    }

    [Fact]
    public void ALimitInsideTheItems_SetsTheIdeal_AndEachEfficiencyIsAgainstIt()
    {
        var answered = ConcurrencyLab.Analysis.Summarizer.Answer(Limited(), processorCount: 2);

        Assert.Equal(240, answered.IdealMs);
        Assert.StartsWith("measured: a limit inside the items lets about 4.0 make progress at once", answered.IdealReason, StringComparison.Ordinal);
        Assert.Contains("the scenario's own bound, 21.0 ms (the longest item), assumes no such limit", answered.IdealReason, StringComparison.Ordinal);
        Assert.Equal(1.0, answered.Variants.Single(v => v.Name == "parallel-for@4").Summary!.Efficiency);
        Assert.Equal(0.5, answered.Variants.Single(v => v.Name == "parallel-for@2").Summary!.Efficiency);
        Assert.Null(Assert.Single(answered.Recommendations!).Gap);

        // A scenario whose own ideal already holds the limit keeps its own.
        Assert.Equal(235, ConcurrencyLab.Analysis.Summarizer.Answer(Limited() with { IdealMs = 235 }, processorCount: 2).IdealMs);
    }

    [Fact]
    public void OnlySlower_IsListedOnOneLine_FromTwiceTheFastest()
    {
        var r = Recommend(V("whenall", 100), V("semaphore@4", 250), V("sequential", 2000), V("parallel-for@40", 150));

        Assert.Equal(["semaphore@4", "sequential"], r.Avoid.Select(a => a.Variant).Order());
        Assert.All(r.Avoid, a => Assert.IsType<MuchSlower>(a));
        Assert.Equal(["Use: whenall is the fastest, at 100 ms.", "Avoid, as 2 or more times slower than whenall, for reasons this run's figures do not explain: semaphore@4, sequential."], RecommendationText.Lines(r, Scenario()).Select(l => l.Text));
    }

    [Fact]
    public void VariantsThatRunDifferentWork_AreNotWeighedAgainstEachOther()
    {
        var scenario = Scenario(V("whenall-async@5", 200, requests: "5"), V("waitall@5", 1000, requests: "5"), V("whenall-async@15", 230, requests: "15")) with { WorkParameters = ["requests"] };

        var all = Recommender.AllFor(scenario, processorCount: 2);

        Assert.Equal(["requests=5", "requests=15"], all.Select(r => r.Group));
        Assert.Equal("waitall@5", all[0].Avoid.Single().Variant);
        Assert.Empty(all[1].Avoid);
        Assert.StartsWith("At requests=15: Use: whenall-async@15", RecommendationText.Lines(all[1], scenario)[0].Text, StringComparison.Ordinal);
    }

    [Fact]
    public void TheAnswer_IsStoredInResultsJson_AndReadBackAsTheSameTypes()
    {
        var scenario = Scenario(V("whenall", 100), V("task-run-waitall", 150, starved: 12), V("lossy", 7000, failed: true), V("wrong", 90, misclassified: 3), V("sequential", 2000));
        var stored = scenario with { Recommendations = Recommender.AllFor(scenario, processorCount: 2) };
        var run = ExporterTests.SampleRun() with { Scenarios = [stored] };
        var folder = Directory.CreateTempSubdirectory("conclab-recommendation-");
        try
        {
            var path = Path.Combine(folder.FullName, "results.json");
            File.WriteAllText(path, System.Text.Json.JsonSerializer.Serialize(run, ConcurrencyLab.Serialization.LabJson.Options));
            Assert.Contains("\"kind\": \"blocksPoolThreads\"", File.ReadAllText(path), StringComparison.Ordinal);

            var back = Assert.Single(Assert.Single(ResultsFile.Read(path).Scenarios).Recommendations!);
            var written = Assert.Single(stored.Recommendations);
            Assert.Equal(written with { Avoid = [], NotJudged = [] }, back with { Avoid = [], NotJudged = [] });
            Assert.Equal(written.Avoid.Select(a => a.GetType()), back.Avoid.Select(a => a.GetType()));
            Assert.Equal(["lossy", "wrong", "task-run-waitall", "sequential"], back.Avoid.Select(a => a.Variant));
            Assert.Equal(3, Assert.IsType<WrongResults>(back.Avoid[1]).Metrics["misclassified"]);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void AFileWrittenBeforeAnswersWereStored_GetsItsAnswerComputed_AndAStoredOneIsTakenAsWritten()
    {
        var scenario = Scenario(V("whenall", 100), V("sequential", 2000));
        Assert.Null(scenario.Recommendations);
        Assert.Equal("whenall", Assert.Single(Recommender.Of(scenario, processorCount: 2)).Use);

        // Stored: what the run concluded, even where the figures would now say otherwise; an empty list stays empty.
        var stored = scenario with { Recommendations = [new Recommendation { Fastest = "sequential", FastestMs = 2000, Use = "sequential", Because = UseBecause.Fastest }] };
        Assert.Equal("sequential", Assert.Single(Recommender.Of(stored, processorCount: 2)).Use);
        Assert.Empty(Recommender.Of(scenario with { Recommendations = [] }, processorCount: 2));
    }

    // A scenario that expects each item's CPU to be 4 ms, within 10%: mix's check of its calibration, as data.
    private static readonly Metric ItemCpu = Metric.Milliseconds("itemCpuMs", "Item CPU");

    private static VariantResult WithItemCpu(VariantResult variant, double itemCpuMs)
    {
        var medians = new Dictionary<string, double>(variant.Summary!.Medians) { [ItemCpu.Id] = itemCpuMs };
        return variant with { Summary = variant.Summary with { Medians = medians } };
    }

    private static ScenarioResult Expecting(params VariantResult[] variants) =>
        Scenario(variants) with { Metrics = [Misclassified, ItemCpu], Expectations = [new ExpectedMetric { Metric = ItemCpu.Id, Value = 4, Tolerance = 0.1 }] };

    [Fact]
    public void AVariantWhoseWorkStrayed_IsNeitherToUseNorToAvoid_AndSaysWhy()
    {
        // threads did heavier work (6.15 ms an item against 4): its 2.1x is not the pattern's alone, so no "avoid";
        // lighter did less (3 ms), which made it the fastest: it is not the one to use either.
        var scenario = Expecting(
            WithItemCpu(V("lighter", 300), 3.0),
            WithItemCpu(V("channel", 480), 4.03),
            WithItemCpu(V("threads", 1000), 6.15),
            WithItemCpu(V("sequential", 7000), 4.1),
            V("unmeasured", 2000));

        var r = Recommender.For(scenario, processorCount: 2)!;

        Assert.Equal(("channel", "channel"), (r.Fastest, r.Use));
        Assert.Equal(["lighter", "threads"], r.NotJudged.Select(u => u.Variant));
        Assert.Equal((4.0, 6.15, 0.1), (r.NotJudged[1].Expected, r.NotJudged[1].Measured, r.NotJudged[1].Tolerance));
        Assert.DoesNotContain(r.Avoid, a => a.Variant is "lighter" or "threads");

        // The rest are weighed as before: sequential within 10% of 4 ms, and one whose trials did not record the metric.
        Assert.Equal(["sequential", "unmeasured"], r.Avoid.Select(a => a.Variant).Order(StringComparer.Ordinal));

        var said = RecommendationText.Lines(r, scenario).Select(l => l.Text).ToList();
        var threads = Assert.Single(said, l => l.StartsWith("Not judged: threads", StringComparison.Ordinal));
        Assert.Contains("whose median item CPU was 6.15 ms against the 4.00 ms", threads, StringComparison.Ordinal);
        Assert.Contains("10% either way", threads, StringComparison.Ordinal);
        Assert.DoesNotContain(said, l => l.StartsWith("Avoid threads", StringComparison.Ordinal));

        // Without the expectation, the same figures give the old answer: lighter fastest, threads to avoid.
        var plain = Recommender.For(scenario with { Expectations = [] }, processorCount: 2)!;
        Assert.Equal("lighter", plain.Use);
        Assert.Empty(plain.NotJudged);
        Assert.Contains(plain.Avoid, a => a.Variant == "threads");
    }

    [Fact]
    public void WhenNoVariantJudgedIsSound_TheAnswerSaysWhyThereIsNone_AndTheHeadlineMarksTheFastest()
    {
        // Every variant ran other work: no one to use, and not because any failed.
        var allOff = Expecting(WithItemCpu(V("lighter", 300), 3.0), WithItemCpu(V("threads", 1000), 6.15));
        var none = Recommender.For(allOff, processorCount: 2)!;
        Assert.Equal((UseBecause.NoneSound, (string?)null, 2), (none.Because, none.Use, none.NotJudged.Count));
        Assert.Equal("none: every variant ran other work than the run describes (below).", RecommendationText.UseReason(none).Text);

        // One ran other work, the other failed: both said.
        var mixed = Recommender.For(Expecting(WithItemCpu(V("lighter", 300), 3.0), WithItemCpu(V("channel", 480, failed: true), 4.0)), processorCount: 2)!;
        Assert.StartsWith("none: 1 ran other work than the run describes (below), and every other variant failed", RecommendationText.UseReason(mixed).Text, StringComparison.Ordinal);

        // The headline's fastest is the table's, said to be left out of the answer.
        var scenario = Expecting(WithItemCpu(V("lighter", 300), 3.0), WithItemCpu(V("channel", 480), 4.0));
        var fastest = ScenarioReport.Of(scenario with { Recommendations = Recommender.AllFor(scenario, 2) }, 2)
            .SelectMany(b => b is Passage p ? p.Lines : []).Select(l => l.Text).Single(l => l.StartsWith("Fastest:", StringComparison.Ordinal));
        Assert.Contains("lighter", fastest, StringComparison.Ordinal);
        Assert.Contains("ran other work than the run describes", fastest, StringComparison.Ordinal);
        Assert.Equal("lighter (other work: not judged)", RunSummary.Of(scenario, 2).Fastest);
    }

    [Fact]
    public void AnExpectationThatCannotBeWeighed_LeavesTheAnswerAlone()
    {
        // A metric the scenario does not record, or a value or tolerance no check could have made, weighs nothing.
        var variants = new[] { WithItemCpu(V("channel", 480), 4), WithItemCpu(V("threads", 1000), 9) };
        foreach (var expected in new[]
        {
            new ExpectedMetric { Metric = "noSuchMetric", Value = 4, Tolerance = 0.1 },
            new ExpectedMetric { Metric = ItemCpu.Id, Value = double.NaN, Tolerance = 0.1 },
            new ExpectedMetric { Metric = ItemCpu.Id, Value = 4, Tolerance = 1.5 },
            new ExpectedMetric { Metric = ItemCpu.Id, Value = -4, Tolerance = 0.1 },
        })
        {
            var r = Recommender.For(Expecting(variants) with { Expectations = [expected] }, processorCount: 2)!;
            Assert.Empty(r.NotJudged);
            Assert.Contains(r.Avoid, a => a.Variant == "threads");
        }
    }

    [Fact]
    public void VariantsLeftOutOfTheAnswer_AreStoredInResultsJson_AndAHostileFigureIsRefused()
    {
        var scenario = Expecting(WithItemCpu(V("channel", 480), 4), WithItemCpu(V("threads", 1000), 6.15));
        var stored = scenario with { Recommendations = Recommender.AllFor(scenario, processorCount: 2) };
        var folder = Directory.CreateTempSubdirectory("conclab-notjudged-");
        try
        {
            var path = Path.Combine(folder.FullName, "results.json");
            var json = System.Text.Json.JsonSerializer.Serialize(ExporterTests.SampleRun() with { Scenarios = [stored] }, ConcurrencyLab.Serialization.LabJson.Options);
            File.WriteAllText(path, json);
            var back = Assert.Single(ResultsFile.Read(path).Scenarios);
            Assert.Equal(stored.Expectations, back.Expectations);
            Assert.Equal(Assert.Single(stored.Recommendations!).NotJudged, Assert.Single(back.Recommendations!).NotJudged);

            // A tolerance no run writes, or a figure that is not a number a report can print: one line, no report.
            foreach (var (from, to) in new[]
            {
                ("\"tolerance\": 0.1\n", "\"tolerance\": 7\n"),
                ("\"measured\": 6.15", "\"measured\": \"NaN\""),
                ("\"measured\": 6.15", "\"measured\": -6.15"),
                ("\"expected\": 4,", "\"expected\": 0,"),
                ("\"variant\": \"threads\"", "\"variant\": \"ghost\""),
                ("\"variant\": \"threads\"", "\"variant\": \"channel\""),
            })
            {
                var hostile = Path.Combine(folder.FullName, "hostile.json");
                var edited = ReplaceInNotJudged(json, from, to);
                File.WriteAllText(hostile, edited);
                var error = Assert.Throws<ResultsFileException>(() => ResultsFile.Read(hostile));
                Assert.DoesNotContain('\n', error.Message);
                Assert.Contains("notJudged[0]", error.Message, StringComparison.Ordinal);
            }

            // An expectation no run writes: a metric the scenario does not describe, a negative value, a tolerance of 50.
            foreach (var expectation in new ExpectedMetric[]
            {
                new() { Metric = "../\u001b[2J", Value = 4, Tolerance = 0.1 },
                new() { Metric = ItemCpu.Id, Value = -1, Tolerance = 0.1 },
                new() { Metric = ItemCpu.Id, Value = 4, Tolerance = 50 },
            })
            {
                var hostile = Path.Combine(folder.FullName, "expectation.json");
                var edited = ExporterTests.SampleRun() with { Scenarios = [stored with { Expectations = [expectation] }] };
                File.WriteAllText(hostile, System.Text.Json.JsonSerializer.Serialize(edited, ConcurrencyLab.Serialization.LabJson.Options));
                var error = Assert.Throws<ResultsFileException>(() => ResultsFile.Read(hostile));
                Assert.DoesNotContain('\n', error.Message);
                Assert.Contains("expectations[0]", error.Message, StringComparison.Ordinal);
            }
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    // The text after the recommendation's "notJudged", with one figure replaced.
    private static string ReplaceInNotJudged(string json, string from, string to)
    {
        var at = json.LastIndexOf("\"notJudged\": [", StringComparison.Ordinal);
        Assert.True(at >= 0, "the recommendation holds notJudged");
        var rest = json[at..];
        var inside = rest.IndexOf(from.TrimEnd('\n'), StringComparison.Ordinal);
        Assert.True(inside >= 0, $"notJudged holds {from}");
        return json[..at] + rest[..inside] + to.TrimEnd('\n') + rest[(inside + from.TrimEnd('\n').Length)..];
    }

    private static string Reason(AvoidReason reason, Recommendation r) => RecommendationText.Reason(reason, r, Scenario()).Text;
}
