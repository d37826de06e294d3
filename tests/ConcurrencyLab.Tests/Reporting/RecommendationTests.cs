using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Workloads;
using Xunit;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>Each rule of the recommendation, held to a made-up result where it must fire and one where it must not.</summary>
public class RecommendationTests
{
    private static readonly Metric Misclassified = Metric.Count("misclassified", "Misclassified") with { FlagsWhenNotZero = true };

    private static VariantResult V(string name, double ms, double threads = 15, double cpu = 10, double cores = 0.5, double starved = 0, double ciHalf = 1, double misclassified = 0, bool failed = false, string? requests = null)
    {
        var metrics = new Dictionary<string, double>
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

    private static Recommendation Recommend(params VariantResult[] variants) => Recommendation.For(Scenario(variants), processorCount: 2)!;

    [Fact]
    public void TheOneToUse_IsTheCheapestTheStatisticsCannotTellFromTheFastest()
    {
        var tied = Recommend(V("whenall", 50, threads: 40, ciHalf: 3), V("channel", 52, threads: 15, ciHalf: 3));
        Assert.Equal("whenall", tied.Fastest);
        Assert.Equal("channel", tied.Use);
        Assert.StartsWith("channel is as fast as whenall within the statistics (49.0-55.0 ms against 47.0-53.0 ms) on 15 threads against 40", tied.UseReason, StringComparison.Ordinal);

        // Apart: the fastest, whatever it costs.
        var apart = Recommend(V("whenall", 50, threads: 40), V("channel", 70, threads: 15));
        Assert.Equal("whenall", apart.Use);
    }

    [Fact]
    public void AVariantWithWrongResultsOrAFailedTrial_IsNeverTheOneToUse_AndIsAvoidedFirst()
    {
        var r = Recommend(V("fast-but-wrong", 6000, misclassified: 42), V("lossy", 7000, failed: true), V("right", 9000));

        Assert.Equal("right", r.Use);
        Assert.Equal(["lossy", "fast-but-wrong"], r.Avoid.Select(a => a.Variant));
        Assert.Equal("1 of 2 trials failed: 3 of 40 items completed", r.Avoid[0].Reason);
        Assert.Equal("wrong results: misclassified 42 (should be 0)", r.Avoid[1].Reason);

        var none = Recommend(V("wrong", 6000, misclassified: 1));
        Assert.Null(none.Use);
    }

    [Fact]
    public void StarvationInjections_MakeAVariantOneToAvoid_AndNoneDoNot()
    {
        var r = Recommend(V("whenall", 100), V("task-run-waitall", 150, starved: 12), V("parallel-for@4", 150));

        var avoid = Assert.Single(r.Avoid);
        Assert.Equal("task-run-waitall", avoid.Variant);
        Assert.StartsWith("blocks pool threads: the runtime added 12 because queued work waited with no thread free", avoid.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void CpuThatRanOnOneCore_IsNamed_OnAMachineOfTwoOrMore_WhenTheFastestUsedMore()
    {
        Assert.Contains("its CPU work ran one item at a time: 1.0 of 2 cores busy, where parallel used 1.9", Recommend(V("parallel", 440, cores: 1.9), V("whenall", 830, cores: 1.0)).Avoid.Single().Reason.Replace("kept", "used", StringComparison.Ordinal), StringComparison.Ordinal);
        Assert.Empty(Recommend(V("parallel", 440, cores: 1.2), V("whenall", 830, cores: 1.0)).Avoid);
        Assert.Empty(Recommendation.For(Scenario(V("parallel", 440, cores: 1.9), V("whenall", 830, cores: 1.0)), processorCount: 1)!.Avoid);
    }

    [Fact]
    public void ManyMoreThreadsForTheSameTime_IsACost_AFewMoreIsNot()
    {
        var r = Recommend(V("whenall", 50, threads: 15, ciHalf: 2), V("threads", 51, threads: 115, ciHalf: 2));
        Assert.Equal("as fast, but on 115 threads against 15 for whenall", r.Avoid.Single().Reason);

        Assert.Empty(Recommend(V("whenall", 50, threads: 15, ciHalf: 2), V("threads", 51, threads: 20, ciHalf: 2)).Avoid);
    }

    [Fact]
    public void MuchSlowerBlockingWithTheCoresIdle_SaysItsThreadsSatBlocked_ButNotWhenTheyWorkedOrAwaited()
    {
        var idle = Recommend(V("whenall", 104, cores: 0.08), V("task-run-whenall", 6415, cores: 0.03) with { Form = WorkForm.Sync }).Avoid.Single();
        Assert.Equal("it blocks its threads in the waits: 0.03 of 2 cores busy over 6415 ms, 62 times the time of whenall", idle.Reason);

        Assert.True(Recommend(V("whenall", 104, cores: 0.08), V("sequential", 5711, cores: 0.9) with { Form = WorkForm.Sync }).Avoid.Single().OnlySlower);
        Assert.True(Recommend(V("whenall", 104, cores: 0.08), V("foreach-async", 5711, cores: 0.03) with { Form = WorkForm.Tap }).Avoid.Single().OnlySlower);
    }

    [Fact]
    public void MuchSlowerAtASetDegree_SaysHowFewRanAtOnce()
    {
        var limited = V("foreach-async@4", 690) with { Parameters = new Dictionary<string, string> { ["degree"] = "4" } };
        Assert.Equal("it ran at most 4 items at once: 14 times the time of whenall", Recommend(V("whenall", 50), limited).Avoid.Single().Reason);

        var unlimited = V("parallel-for@default", 1010) with { Parameters = new Dictionary<string, string> { ["degree"] = "default" } };
        Assert.True(Recommend(V("whenall", 50), unlimited).Avoid.Single().OnlySlower);
    }

    [Fact]
    public void OnlySlower_IsListedOnOneLine_FromTwiceTheFastest()
    {
        var r = Recommend(V("whenall", 100), V("semaphore@4", 250), V("sequential", 2000), V("parallel-for@40", 150));

        Assert.Equal(["semaphore@4", "sequential"], r.Avoid.Select(a => a.Variant).Order());
        Assert.Equal(["Use: whenall is the fastest, at 100 ms.", "Avoid, as 2 or more times slower than whenall: semaphore@4, sequential."], r.Lines());
    }

    [Fact]
    public void VariantsThatRunDifferentWork_AreNotWeighedAgainstEachOther()
    {
        var scenario = Scenario(V("whenall-async@5", 200, requests: "5"), V("waitall@5", 1000, requests: "5"), V("whenall-async@15", 230, requests: "15")) with { WorkParameters = ["requests"] };

        var all = Recommendation.AllFor(scenario, processorCount: 2);

        Assert.Equal(["requests=5", "requests=15"], all.Select(r => r.Group));
        Assert.Equal("waitall@5", all[0].Avoid.Single().Variant);
        Assert.Empty(all[1].Avoid);
        Assert.StartsWith("At requests=15: Use: whenall-async@15", all[1].Lines()[0], StringComparison.Ordinal);
    }
}
