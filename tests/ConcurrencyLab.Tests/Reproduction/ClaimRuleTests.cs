using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios.Delay;
using ConcurrencyLab.Scenarios.Fanout;
using ConcurrencyLab.Scenarios.Hash;
using ConcurrencyLab.Scenarios.Poll;
using ConcurrencyLab.Scenarios.Scan;
using ConcurrencyLab.Statistics;
using Xunit;
using static ConcurrencyLab.Tests.Reproduction.Made;

namespace ConcurrencyLab.Tests.Reproduction;

/// <summary>
/// Every published claim's decision rule, held to made-up results where it must hold and where it must not; and
/// a claim whose evidence is missing (a failed variant, a scenario that did not run) is never given a verdict.
/// </summary>
public class ClaimRuleTests
{
    private static Judgement Judge(PublishedClaims post, string id, ClaimEvidence evidence) =>
        post.Claims.Single(c => c.Id == id).Evaluate(evidence);

    // Scan ---------------------------------------------------------------------------------------------------

    private static readonly IReadOnlyDictionary<string, string> ScanParameters = With(("timeout-ms", 500));

    [Fact]
    public void ScanSequential_HoldsAtTheSilentHostsTimesTheTimeout_AndNotAtHalfOfIt()
    {
        Assert.Equal(Verdict.Holds, Judge(ScanClaims.All, "scan-sequential", Evidence(ScanParameters, V("sequential-apm", 103_000, (ScanScenario.FoundSilent, 204)))).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(ScanClaims.All, "scan-sequential", Evidence(ScanParameters, V("sequential-apm", 51_000, (ScanScenario.FoundSilent, 204)))).Verdict);
    }

    [Fact]
    public void ScanParallelFarFaster_NeedsEveryParallelVariantThreeTimesFaster()
    {
        VariantResult[] Variants(double slowest) =>
            [V("sequential-apm", 100_000), V("task-run-apm", 6000), V("task-run-tap", 6000), V("parallel-for@999-apm", 8000), V("parallel-for@999-tap", slowest)];

        Assert.Equal(Verdict.Holds, Judge(ScanClaims.All, "scan-parallel-far-faster", Evidence(None, Variants(8000))).Verdict);
        var not = Judge(ScanClaims.All, "scan-parallel-far-faster", Evidence(None, Variants(50_000)));
        Assert.Equal(Verdict.DoesNotHold, not.Verdict);
        Assert.Contains("parallel-for@999-tap", not.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void ScanDefaultDegree_HoldsInBothForms_OnlyInOne_OrInNeither()
    {
        ClaimEvidence Of(double apm, double tap) => Evidence(None, V("parallel-for@default-apm", apm), V("parallel-for@999-apm", 8000), V("parallel-for@default-tap", tap), V("parallel-for@999-tap", 8000));

        Assert.Equal(Verdict.Holds, Judge(ScanClaims.All, "scan-default-degree", Of(20_000, 16_000)).Verdict);
        var one = Judge(ScanClaims.All, "scan-default-degree", Of(20_000, 8000));
        Assert.Equal(Verdict.HoldsOnlyIf, one.Verdict);
        Assert.Equal("holds only with APM", one.VerdictText);
        Assert.Equal(Verdict.DoesNotHold, Judge(ScanClaims.All, "scan-default-degree", Of(8000, 8000)).Verdict);
    }

    [Fact]
    public void ScanTapAsFastAsApm_FailsWhenAnyScheduleShowsTapSlower()
    {
        ClaimEvidence Of(double taskRunTap) => Evidence(
            None,
            V("sequential-apm", 100_000), V("sequential-tap", 100_500), V("task-run-apm", 8000), V("task-run-tap", taskRunTap),
            V("parallel-for@default-apm", 20_000), V("parallel-for@default-tap", 16_000), V("parallel-for@999-apm", 8000), V("parallel-for@999-tap", 8100));

        Assert.Equal(Verdict.Holds, Judge(ScanClaims.All, "scan-tap-apm", Of(6000)).Verdict);
        var slower = Judge(ScanClaims.All, "scan-tap-apm", Of(16_000));
        Assert.Equal(Verdict.DoesNotHold, slower.Verdict);
        Assert.Contains("task-run", slower.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void ScanMoreCores_ComparesTwoAndEightCores_AndCannotJudgeWithoutBoth()
    {
        string[] names = ["task-run-apm", "task-run-tap", "parallel-for@999-apm", "parallel-for@999-tap", "parallel-for@default-apm", "parallel-for@default-tap"];
        ClaimEvidence Of(double atEight, double defaultAtEight) => new(
            Result(None, [.. names.Select(n => V(n, 10_000).AtCores(2)), .. names.Select(n => V(n, n.Contains("default", StringComparison.Ordinal) ? defaultAtEight : atEight).AtCores(8))]),
            [2, 8]);

        Assert.Equal(Verdict.Holds, Judge(ScanClaims.All, "scan-more-cores", Of(7000, 7000)).Verdict);
        var some = Judge(ScanClaims.All, "scan-more-cores", Of(10_000, 7000));
        Assert.Equal(Verdict.HoldsOnlyIf, some.Verdict);
        Assert.Contains("parallel-for@default-apm", some.Condition, StringComparison.Ordinal);
        Assert.Equal(Verdict.DoesNotHold, Judge(ScanClaims.All, "scan-more-cores", Of(10_000, 10_000)).Verdict);
        Assert.Equal(Verdict.CouldNotJudge, Judge(ScanClaims.All, "scan-more-cores", Evidence(None, [.. names.Select(n => V(n, 10_000))])).Verdict);
    }

    // Delay --------------------------------------------------------------------------------------------------

    [Fact]
    public void DelayChannel12x_HoldsFromHalfThePublishedMultiple_AndNotBelow()
    {
        Assert.Equal(Verdict.Holds, Judge(DelayClaims.All, "delay-channel-12x", Evidence(None, V("channel", 50), V("parallel-for@4", 800))).Verdict);
        var three = Judge(DelayClaims.All, "delay-channel-12x", Evidence(None, V("channel", 50), V("parallel-for@4", 150)));
        Assert.Equal(Verdict.DoesNotHold, three.Verdict);
        Assert.Contains("not by about 12x", three.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void DelayForEachAsync40_MustBeShownSlowerThanTheChannel()
    {
        Assert.Equal(Verdict.Holds, Judge(DelayClaims.All, "delay-foreach-async-40", Evidence(With(("items", 100)), V("channel", 50), V("foreach-async@40", 100))).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(DelayClaims.All, "delay-foreach-async-40", Evidence(With(("items", 100)), V("channel", 50), V("foreach-async@40", 50))).Verdict);

        // At 40 items degree 40 takes every item at once: the run does not put the claim to the test.
        var tooFew = Judge(DelayClaims.All, "delay-foreach-async-40", Evidence(With(("items", 40)), V("channel", 50), V("foreach-async@40", 50)));
        Assert.Equal(Verdict.CouldNotJudge, tooFew.Verdict);
        Assert.True(tooFew.NotRun);
    }

    [Fact]
    public void DelayDefaultDegree_SaysTheDegreeItRanAt()
    {
        var holds = Judge(DelayClaims.All, "delay-default-degree", Evidence(None, V("foreach-async@default", 400, (StandardMetrics.ProcessorCountSeen, 8)), V("foreach-async@40", 100)));
        Assert.Equal(Verdict.Holds, holds.Verdict);
        Assert.Contains("8 here", holds.Reason, StringComparison.Ordinal);
        Assert.Equal(Verdict.DoesNotHold, Judge(DelayClaims.All, "delay-default-degree", Evidence(None, V("foreach-async@default", 100, (StandardMetrics.ProcessorCountSeen, 64)), V("foreach-async@40", 100))).Verdict);
    }

    [Fact]
    public void DelayThreads19_FailsOnAnyTrialAbove19()
    {
        ClaimEvidence Of(double channelThreads) => Evidence(
            None,
            Trials("channel", [50, 50, 50], (StandardMetrics.PeakThreads, [13, 13, channelThreads])),
            V("parallel-for@4", 800, (StandardMetrics.PeakThreads, 14)),
            V("foreach-async@4", 700, (StandardMetrics.PeakThreads, 14)),
            V("foreach-async@40", 100, (StandardMetrics.PeakThreads, 14)),
            V("foreach-async@default", 400, (StandardMetrics.PeakThreads, 14)));

        Assert.Equal(Verdict.Holds, Judge(DelayClaims.All, "delay-threads-19", Of(19)).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(DelayClaims.All, "delay-threads-19", Of(21)).Verdict);
    }

    [Fact]
    public void DelayChannelPosition_NeedsEveryLastPassApartFromEveryFirstPass_AndThreePassesOfEach()
    {
        ClaimEvidence Of(double[] first, double[] last)
        {
            var lastRun = new ClaimEvidence(Result(None, Trials("channel", [.. last.Select(_ => 50.0)], (StandardMetrics.PeakThreads, last))), []);
            var runs = new Dictionary<string, ClaimEvidence> { ["delay-channel-last"] = lastRun };
            return new ClaimEvidence(Result(None, Trials("channel", [.. first.Select(_ => 50.0)], (StandardMetrics.PeakThreads, first))), [], runs: runs);
        }

        Assert.Equal(Verdict.Holds, Judge(DelayClaims.All, "delay-channel-position", Of([13, 13, 14], [19, 20, 19])).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(DelayClaims.All, "delay-channel-position", Of([13, 15, 14], [14, 20, 19])).Verdict);

        // The direction the post points to: last above first, not the other way round.
        Assert.Equal(Verdict.DoesNotHold, Judge(DelayClaims.All, "delay-channel-position", Of([19, 20, 19], [13, 13, 14])).Verdict);
        Assert.Equal(Verdict.CouldNotJudge, Judge(DelayClaims.All, "delay-channel-position", Of([13, 13], [19, 20])).Verdict);
    }

    [Fact]
    public void APerCoresVerdict_NamesEachCountsCondition_AndTheCountsThatCouldNotJudge()
    {
        var combined = Claim.Combine([(2, Judgement.Holds("a", "r")), (8, Judgement.OnlyIf("with TAP", "b", "r"))]);
        Assert.Equal("holds only with 2 cores or with 8 cores with TAP", combined.VerdictText);

        var partly = Claim.Combine([(2, Judgement.Holds("a", "r")), (8, Judgement.CouldNotJudge("no ok trial"))]);
        Assert.Equal("holds only with 2 cores (not judged with 8 cores)", partly.VerdictText);

        var neither = Claim.Combine([(2, Judgement.DoesNotHold("a", "r")), (8, Judgement.CouldNotJudge("no ok trial"))]);
        Assert.Equal(Verdict.DoesNotHold, neither.Verdict);
        Assert.EndsWith("(not judged with 8 cores)", neither.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void ARuleThatFails_CostsItsClaimAVerdict_NeverTheRun()
    {
        var claim = new Claim("boom", "a claim", "a figure", ["run"], _ => throw new InvalidOperationException("Sequence contains no elements"));

        var judgement = claim.Evaluate(Evidence(None, V("channel", 50)));

        Assert.Equal(Verdict.CouldNotJudge, judgement.Verdict);
        Assert.Equal("its rule failed: InvalidOperationException: Sequence contains no elements", judgement.Reason);
    }

    [Fact]
    public void AnInconclusiveSpread_IsNoVerdict_ForTheRulesThatClaimNoChange()
    {
        // Trials from 0.7 to 1.3 of the median: flat cannot be told from a change of 10%.
        var spread = Evidence(With(("files", 512), ("cache", "cold")), Trials("async@16", [16_000, 23_000, 30_000]), Trials("async@128", [16_000, 23_000, 30_000]), V("sync@16", 23_000), V("sync@128", 23_000));
        Assert.Equal(Verdict.CouldNotJudge, Judge(HashClaims.All, "hash-async-flat", spread).Verdict);
    }

    [Fact]
    public void APerCoresClaim_HoldsOnlyWithTheCoresWhereItHeld()
    {
        var evidence = new ClaimEvidence(
            Result(None, V("channel", 50).AtCores(2), V("parallel-for@4", 800).AtCores(2), V("channel", 50).AtCores(8), V("parallel-for@4", 200).AtCores(8)),
            [2, 8]);

        var judgement = Judge(DelayClaims.All, "delay-channel-12x", evidence);

        Assert.Equal(Verdict.HoldsOnlyIf, judgement.Verdict);
        Assert.Equal("holds only with 2 cores", judgement.VerdictText);
        Assert.StartsWith("2 cores: 16x", judgement.Figure, StringComparison.Ordinal);
    }

    // Poll ---------------------------------------------------------------------------------------------------

    private static readonly IReadOnlyDictionary<string, string> PollParameters = With(("connections", 500), ("interval-ms", 50), ("duration", 10));

    private static ClaimEvidence Poll(double threadsMemory = 110e6, double taskPolls = 9300, double awaitPolls = 4150) => Evidence(
        PollParameters,
        V("threads", 10_000, (StandardMetrics.PeakThreads, 510), (StandardMetrics.PeakWorkingSet, threadsMemory), (PollScenario.PollsPerSec, 8600)),
        V("threadpool", 10_000, (StandardMetrics.PeakThreads, 30), (StandardMetrics.PeakWorkingSet, 60e6), (PollScenario.PollsPerSec, 9500)),
        V("task", 10_000, (StandardMetrics.PeakThreads, 30), (StandardMetrics.PeakWorkingSet, 60e6), (PollScenario.PollsPerSec, taskPolls)),
        V("await", 10_000, (StandardMetrics.PeakThreads, 30), (StandardMetrics.PeakWorkingSet, 60e6), (PollScenario.PollsPerSec, awaitPolls)),
        V("parallel", 10_000, (StandardMetrics.PeakThreads, 30), (StandardMetrics.PeakWorkingSet, 60e6), (PollScenario.PollsPerSec, 9380)));

    [Fact]
    public void PollThreads_NeedAThreadPerConnectionAndTheMostMemory()
    {
        Assert.Equal(Verdict.Holds, Judge(PollClaims.All, "poll-threads", Poll()).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(PollClaims.All, "poll-threads", Poll(threadsMemory: 50e6)).Verdict);
    }

    [Fact]
    public void PollPoolMostPolls_FailsWhenAnotherVariantPollsMore_OrTies()
    {
        Assert.Equal(Verdict.Holds, Judge(PollClaims.All, "poll-pool-most-polls", Poll()).Verdict);
        var task = Judge(PollClaims.All, "poll-pool-most-polls", Poll(taskPolls: 9900));
        Assert.Equal(Verdict.DoesNotHold, task.Verdict);
        Assert.StartsWith("task polled more", task.Reason, StringComparison.Ordinal);
        var tie = Judge(PollClaims.All, "poll-pool-most-polls", Poll(taskPolls: 9500));
        Assert.Equal(Verdict.DoesNotHold, tie.Verdict);
        Assert.StartsWith("a tie with task", tie.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void PollAwaitHalf_HoldsBelowSixTenthsOfThePool_AndNotAbove()
    {
        Assert.Equal(Verdict.Holds, Judge(PollClaims.All, "poll-await-half", Poll()).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(PollClaims.All, "poll-await-half", Poll(awaitPolls: 9000)).Verdict);
    }

    [Fact]
    public void PollCatchUp_HoldsOnASteadyState_DoesNotWhenALongEnoughRunNeverReachedOne_AndCannotTellFromAShortRun()
    {
        ClaimEvidence Of(double[] steady, int duration) => Evidence(
            With(("duration", duration)),
            Trials("threadpool", [duration * 1000.0, duration * 1000.0, duration * 1000.0], (PollScenario.SteadyStateMs, steady), (StandardMetrics.PeakPoolThreads, [54, 54, 54])));

        Assert.Equal(Verdict.Holds, Judge(PollClaims.All, "poll-catch-up-100", Of([12_000, 13_000, 11_000], 30)).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(PollClaims.All, "poll-catch-up-100", Of([-1, -1, 13_000], 30)).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(PollClaims.All, "poll-catch-up-500", Of([-1, -1, -1], 200)).Verdict);
        var shortRun = Judge(PollClaims.All, "poll-catch-up-500", Of([-1, -1, -1], 15));
        Assert.Equal(Verdict.CouldNotJudge, shortRun.Verdict);
        Assert.Contains("too short", shortRun.Reason, StringComparison.Ordinal);
    }

    // Fanout -------------------------------------------------------------------------------------------------

    private static ClaimEvidence Fanout(double blockingThreadsAt1000 = 80, double asyncMsAt1000 = 87_000, double waitallErrors = 0) => Evidence(
        With(("requests", "100,1000")),
        V("waitall@100", 43_000, (FanoutScenario.ServerPeakThreads, 121), (FanoutScenario.Errors, 0)),
        V("whenall-blocking@100", 42_000, (FanoutScenario.ServerPeakThreads, 63), (FanoutScenario.Errors, 0)),
        V("whenall-async@100", 21_000, (FanoutScenario.ServerPeakThreads, 54), (FanoutScenario.Errors, 0)),
        V("waitall@1000", 188_000, (FanoutScenario.ServerPeakThreads, 139), (FanoutScenario.Errors, waitallErrors)),
        V("whenall-blocking@1000", 174_000, (FanoutScenario.ServerPeakThreads, blockingThreadsAt1000), (FanoutScenario.Errors, 0)),
        V("whenall-async@1000", asyncMsAt1000, (FanoutScenario.ServerPeakThreads, 53), (FanoutScenario.Errors, 0)));

    [Fact]
    public void FanoutWhenAllThreads_HoldsAtEachN_OrOnlyAtThoseWhereItHeld()
    {
        Assert.Equal(Verdict.Holds, Judge(FanoutClaims.All, "fanout-whenall-threads", Fanout()).Verdict);
        var one = Judge(FanoutClaims.All, "fanout-whenall-threads", Fanout(blockingThreadsAt1000: 130));
        Assert.Equal(Verdict.HoldsOnlyIf, one.Verdict);
        Assert.Equal("holds only at N = 100", one.VerdictText);
    }

    [Fact]
    public void FanoutAsyncHalves_FailsWhereTheAsyncClientIsNotTwiceAsFast()
    {
        Assert.Equal(Verdict.Holds, Judge(FanoutClaims.All, "fanout-async-halves", Fanout()).Verdict);
        Assert.Equal(Verdict.HoldsOnlyIf, Judge(FanoutClaims.All, "fanout-async-halves", Fanout(asyncMsAt1000: 170_000)).Verdict);
    }

    [Fact]
    public void FanoutLargestN_FailsWhenAPatternLosesRequests()
    {
        Assert.Equal(Verdict.Holds, Judge(FanoutClaims.All, "fanout-largest-n", Fanout()).Verdict);
        var lost = Judge(FanoutClaims.All, "fanout-largest-n", Fanout(waitallErrors: 1000));
        Assert.Equal(Verdict.DoesNotHold, lost.Verdict);
        Assert.Contains("waitall@1000 failed requests", lost.Reason, StringComparison.Ordinal);
    }

    // Hash ---------------------------------------------------------------------------------------------------

    private static ClaimEvidence Hash(double async128, double sync128, string cache = "cold", double notCold = 0) => Evidence(
        With(("files", 512), ("cache", cache)),
        V("async@16", 23_000, (HashScenario.NotCold, notCold)),
        V("async@128", async128),
        V("sync@16", 23_000),
        V("sync@128", sync128));

    [Fact]
    public void HashAsyncFlat_AndSyncFalls_HoldOnThePublishedShape_AndNotOnTheOpposite()
    {
        Assert.Equal(Verdict.Holds, Judge(HashClaims.All, "hash-async-flat", Hash(23_100, 38_000)).Verdict);
        Assert.Equal(Verdict.Holds, Judge(HashClaims.All, "hash-sync-falls", Hash(23_100, 38_000)).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(HashClaims.All, "hash-async-flat", Hash(35_000, 23_000)).Verdict);
        Assert.Equal(Verdict.DoesNotHold, Judge(HashClaims.All, "hash-sync-falls", Hash(35_000, 23_000)).Verdict);
    }

    [Fact]
    public void HashClaims_CannotBeJudgedOnAWarmCacheOrFilesThatWouldNotGoCold()
    {
        Assert.Equal(Verdict.CouldNotJudge, Judge(HashClaims.All, "hash-async-flat", Hash(23_100, 38_000, cache: "warm")).Verdict);
        var notCold = Judge(HashClaims.All, "hash-sync-falls", Hash(23_100, 38_000, notCold: 1));
        Assert.Equal(Verdict.CouldNotJudge, notCold.Verdict);
        Assert.Contains("could not make the cache cold", notCold.Reason, StringComparison.Ordinal);
    }

    // Missing evidence ---------------------------------------------------------------------------------------

    [Fact]
    public void AClaimWhoseScenarioFailed_CouldNotBeJudged_NeverAVerdict()
    {
        var notRun = new ClaimEvidence(null, [2, 8], "the scenario's set-up failed: no loopback");
        var failed = Evidence(None, Failed("channel"), V("parallel-for@4", 800));
        foreach (var post in new[] { ScanClaims.All, DelayClaims.All, PollClaims.All, FanoutClaims.All, HashClaims.All })
        {
            foreach (var claim in post.Claims)
            {
                var judgement = claim.Evaluate(notRun);
                Assert.Equal(Verdict.CouldNotJudge, judgement.Verdict);
                Assert.Contains("set-up failed", judgement.Reason, StringComparison.Ordinal);
            }
        }

        var one = Judge(DelayClaims.All, "delay-channel-12x", failed);
        Assert.Equal(Verdict.CouldNotJudge, one.Verdict);
        Assert.Equal("channel had no ok trial (the service did not start)", one.Reason);
    }

    [Fact]
    public void APlainRun_JudgesOnlyTheClaimsItsVariantsTest()
    {
        var scan = ConcurrencyLab.Scenarios.ScenarioCatalog.BuiltIn.Single(s => s.Name == "scan");
        var delay = ConcurrencyLab.Scenarios.ScenarioCatalog.BuiltIn.Single(s => s.Name == "delay");

        var scanClaims = ConcurrencyLab.Analysis.Summarizer.Judge(scan, Result(ScanParameters, V("sequential-apm", 103_000, (ScanScenario.FoundSilent, 204)), V("whenall-async", 600)));
        var delayClaims = ConcurrencyLab.Analysis.Summarizer.Judge(delay, Result(None, V("parallel-for@4", 800), V("channel", 50), Failed("whenall")));

        // More cores needs a run over 2 and 8; the Channel's position needs a run with it last: neither was made.
        Assert.Equal(["scan-sequential"], scanClaims.Select(c => c.Id));
        Assert.Equal(["delay-channel-12x"], delayClaims.Select(c => c.Id));
        Assert.True(delayClaims[0].Holds && delayClaims[0].Judged);
    }

    [Fact]
    public void EveryClaimNamesRunsItsPostMakes_AndEveryPostHasClaimsAndRuns()
    {
        foreach (var post in new[] { ScanClaims.All, DelayClaims.All, PollClaims.All, FanoutClaims.All, HashClaims.All })
        {
            Assert.NotEmpty(post.Claims);
            Assert.Equal(post.Runs.Count, post.Runs.Select(r => r.Key).Distinct().Count());
            Assert.All(post.Claims, c => Assert.All(c.Runs, key => Assert.Contains(post.Runs, r => r.Key == key)));
        }
    }

    [Fact]
    public void ARatiosInterval_HoldsBothMediansIntervals()
    {
        var ratio = RatioEstimate.Of(new MedianEstimate(100, 90, 110), new MedianEstimate(10, 8, 12));

        Assert.Equal(10, ratio.Value, 6);
        Assert.Equal(90.0 / 12, ratio.Low, 6);
        Assert.Equal(110.0 / 8, ratio.High, 6);
        Assert.True(ratio.Above(7) && !ratio.Above(8));
        Assert.True(ratio.Below(14) && !ratio.Below(13));
    }
}
