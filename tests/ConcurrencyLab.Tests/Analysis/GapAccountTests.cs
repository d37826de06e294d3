using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Reporting;

namespace ConcurrencyLab.Tests.Analysis;

/// <summary>
/// The gap between the best variant and the ideal, explained by the measured limit that accounts for most of it
/// (<see cref="Recommender.GapOf"/>): each limit held to a made-up result where it must be named and one where it must not.
/// </summary>
public sealed class GapAccountTests
{
    private const double Ideal = 430;

    private static VariantResult V(string name, double ms, double? callerMs = null, double? firstItemMs = null, RuntimeAccount? runtime = null, double poolThreads = 4)
    {
        var metrics = new Dictionary<string, double> { [StandardMetrics.WallTime.Id] = ms, [StandardMetrics.PeakPoolThreads.Id] = poolThreads };
        if (callerMs is { } caller)
        {
            metrics[StandardMetrics.CallerTime.Id] = caller;
        }

        if (firstItemMs is { } first)
        {
            metrics[StandardMetrics.FirstItem.Id] = first;
        }

        return new VariantResult
        {
            Name = name,
            Description = name,
            Status = TrialStatus.Ok,
            Trials = [new TrialResult { Metrics = metrics, Runtime = runtime }],
            Parameters = new Dictionary<string, string>(),
            Summary = new VariantSummary { Trials = 1, MedianWallMs = ms, CiLowMs = ms - 5, CiHighMs = ms + 5, Medians = metrics, Efficiency = Ideal / ms },
        };
    }

    private static ScenarioResult Scenario(params VariantResult[] variants) =>
        ExporterTests.SampleRun().Scenarios[0] with { Variants = variants, IdealMs = Ideal, Recommendations = null };

    private static Recommendation Recommend(params VariantResult[] variants) => Recommender.For(Scenario(variants), processorCount: 2)!;

    [Fact]
    public void WorkBeforeTheFirstAwait_OnTheCallingThread_IsNamedForWhenAll()
    {
        // The 4 ms-then-30 ms shape: 200 items' CPU before their first await all run on the caller, about 800 ms.
        var r = Recommend(V("whenall", 858, callerMs: 825, firstItemMs: 0.002), V("sequential-tap", 6900, callerMs: 4));

        var gap = r.Gap!;
        Assert.Equal((GapLimit.CallerSideCpu, 395.0, 428.0), (gap.Limit, gap.Parts[0].ExplainedMs, gap.GapMs));
        Assert.Equal([GapLimit.PoolThreadsBlocked, GapLimit.LockHeld, GapLimit.GcPause], gap.NotJudged);
        var text = RecommendationText.Gap(gap).Text;
        Assert.Contains("whenall reached 0.50 of it (858 ms against 430 ms); caller-side CPU explains 395 of the 428 ms: the calling thread spent 825 ms inside the items", text, StringComparison.Ordinal);
        Assert.Contains("Not judged here: pool threads blocked, a lock held, GC pauses (the runtime's events were not read)", text, StringComparison.Ordinal);
    }

    [Fact]
    public void AtOrAboveTheThreshold_ThereIsNoGapToAccountFor()
    {
        Assert.Null(Recommend(V("whenall", Ideal / 0.85, callerMs: 500)).Gap);
        Assert.NotNull(Recommend(V("whenall", Ideal / 0.75, callerMs: 500)).Gap);
    }

    [Fact]
    public void ALimitThatAccountsForLessThanHalf_LeavesTheGapUnexplained_AndSaysTheMostOne()
    {
        var gap = Recommend(V("threads", 694, callerMs: 0, firstItemMs: 5.3)).Gap!;

        Assert.Equal(GapLimit.Unexplained, gap.Limit);
        Assert.Equal(GapLimit.StartUp, gap.Parts[0].Limit);
        Assert.Contains("no measured limit explains half of the 264 ms. The most any measured limit explains: start-up, 5.30 ms", RecommendationText.Gap(gap).Text, StringComparison.Ordinal);
    }

    [Fact]
    public void ThePoolStillRaisingItsTarget_ExplainsTheRampItTook_ByTheReasonMostRaisesHad()
    {
        PoolAdjustment To(int threads, double at, PoolAdjustmentReason why) => new(at, threads, why, 0);
        var starved = new RuntimeAccount { PoolTargetAtStart = 2, PoolAdjustments = [To(3, 100, PoolAdjustmentReason.Starvation), To(4, 350, PoolAdjustmentReason.Starvation), To(5, 900, PoolAdjustmentReason.Starvation)] };

        // The pool lowers its target for blocking too, when the blocking ends (at 250 ms): that is no raise.
        var blocked = new RuntimeAccount
        {
            PoolTargetAtStart = 2,
            PoolAdjustments = [To(3, 10, PoolAdjustmentReason.CooperativeBlocking), To(4, 20, PoolAdjustmentReason.CooperativeBlocking), To(3, 250, PoolAdjustmentReason.CooperativeBlocking), To(4, 300, PoolAdjustmentReason.Starvation)],
        };

        var slow = Recommend(V("parallel-for", 1000, runtime: starved)).Gap!;
        var fast = Recommend(V("parallel-for", 1000, runtime: blocked)).Gap!;

        // The ramp's 900 ms is more than the 570 ms gap: a limit never explains more than the gap.
        Assert.Equal((GapLimit.SlowInjection, 570.0, 3), (slow.Limit, slow.Parts[0].ExplainedMs, slow.Parts[0].Count));
        Assert.Equal((GapLimit.PoolThreadsBlocked, 300.0), (fast.Limit, fast.Parts[0].ExplainedMs));
        Assert.Equal(3, fast.Parts[0].Count);
        Assert.DoesNotContain(slow.NotJudged, l => l is GapLimit.LockHeld or GapLimit.PoolThreadsBlocked);
    }

    [Fact]
    public void LockWaits_CountOverThePoolsThreads_NotAsIfOneThreadWaitedThemAll()
    {
        var account = new RuntimeAccount { LockContentions = new BlockedTime(Count: 400, TotalMs: 2400, LongestMs: 9) };

        var gap = Recommend(V("parallel-for", 1000, runtime: account, poolThreads: 4)).Gap!;

        Assert.Equal((GapLimit.LockHeld, 570.0), (gap.Limit, gap.Parts[0].ExplainedMs));
        var fewer = Recommend(V("parallel-for", 1000, runtime: account with { LockContentions = new BlockedTime(400, 800, 9) }, poolThreads: 4)).Gap!;
        Assert.Equal((GapLimit.Unexplained, 200.0), (fewer.Limit, fewer.Parts[0].ExplainedMs));
    }

    [Fact]
    public void WhereTheMachinesCoresWent_IsTheMediansOfTheTrials_SaidApartFromTheLimits_AndLeftOutWhereNotRead()
    {
        var hash = V("direct@4", 700);
        var medians = new Dictionary<string, double>(hash.Summary!.Medians)
        {
            [StandardMetrics.Cpu.Id] = 940,
            [StandardMetrics.MachineIdle.Id] = 350,
            [StandardMetrics.MachineSteal.Id] = 80,
            [StandardMetrics.OthersCpu.Id] = 30,
        };
        var gap = Recommend(hash with { Summary = hash.Summary with { Medians = medians } }).Gap!;

        // Not a limit: the gap stays as the limits leave it.
        Assert.Equal(GapLimit.Unexplained, gap.Limit);
        Assert.Equal(new MachineShare { CoreMs = 1400, ProcessCpuMs = 940, IdleMs = 350, StealMs = 80, OthersMs = 30 }, gap.Machine);
        var said = RecommendationText.Gap(gap).Text;
        Assert.Equal(
            "The machine's core time in its trials' regions (1400 ms; medians, the machine's states read in ticks of 10 ms): the trial's process 940 ms, idle 350 ms, stolen by the hypervisor 80 ms, other work 30 ms.",
            said[said.IndexOf("The machine's", StringComparison.Ordinal)..]);

        // A machine of 8 cores under a quota of 2: its idle cores are not the run's, so no share is said.
        var wider = new Dictionary<string, double>(medians) { [StandardMetrics.MachineIdle.Id] = 4600 };
        Assert.Null(Recommend(hash with { Summary = hash.Summary with { Medians = wider } }).Gap!.Machine);

        // A trial that read no machine (not Linux, or an older file) says nothing about it.
        var unread = Recommend(V("direct@4", 700)).Gap!;
        Assert.Null(unread.Machine);
        Assert.DoesNotContain("machine's core time", RecommendationText.Gap(unread).Text, StringComparison.Ordinal);
    }

    [Fact]
    public void ABeatenIdeal_HasNoEfficiency_AndSoNoGap()
    {
        var beaten = V("whenall", 400, callerMs: 900);
        beaten = beaten with { Summary = beaten.Summary! with { Efficiency = null } };

        Assert.Null(Recommend(beaten).Gap);
    }
}
