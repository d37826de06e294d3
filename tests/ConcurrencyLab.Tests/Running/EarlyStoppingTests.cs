using CsCheck;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using Median = ConcurrencyLab.Statistics.MedianEstimate;

namespace ConcurrencyLab.Tests.Running;

public sealed class EarlyStoppingTests
{
    private static Variant V(string name) => new(name, name, null, new Dictionary<string, string>(), name);

    private static List<TrialResult> Walls(params double[] walls) =>
        [.. walls.Select((w, i) => new TrialResult { Metrics = Measured.Metrics(w), ItemsPlanned = 1, ItemsCompleted = 1, Repeat = i })];

    private static IReadOnlyDictionary<string, EarlyStop> After(Dictionary<string, List<TrialResult>> all, Func<Variant, string>? group = null, int planned = 5, bool afterTwo = false)
    {
        var variants = all.Keys.Select(V).ToList();
        return EarlyStopping.After(variants, all, variants, group ?? (_ => string.Empty), planned, afterTwo ? EarlyStopping.FarMinimumTrials : EarlyStopping.MinimumTrials);
    }

    [Fact]
    public void AVariantWhollyAboveTwiceTheFastestsInterval_IsOutOfContention_AndTheFastestIsNot()
    {
        var stops = After(new()
        {
            ["fast"] = Walls(100, 130, 110),
            ["slow"] = Walls(400, 520, 450),
            ["near"] = Walls(150, 240, 200),
        });

        var slow = Assert.Single(stops).Value;
        Assert.Equal("slow", Assert.Single(stops).Key);
        Assert.Equal(EarlyStopReason.OutOfContention, slow.Reason);
        Assert.Equal("fast", slow.Fastest);
        Assert.Equal(3, slow.Trials);
        Assert.Equal(5, slow.Planned);
        Assert.True(slow.CiLowMs > EarlyStopping.OutOfContentionRatio * slow.FastestCiHighMs!.Value);
    }

    [Fact]
    public void NoVariantStops_AgainstOneWhoseTrialsRanOtherWork()
    {
        // "lighter" is fastest only because its items took 3 ms of CPU for 4 asked: the answer leaves it out, so "slow"
        // is weighed against "fast", under twice whose high end it reaches; without the expectation it stops.
        static List<TrialResult> WithItemCpu(List<TrialResult> trials, double ms) =>
            [.. trials.Select(t => t with { Metrics = new Dictionary<string, double>(t.Metrics) { ["itemCpuMs"] = ms } })];
        var all = new Dictionary<string, List<TrialResult>>
        {
            ["lighter"] = WithItemCpu(Walls(50, 52, 51), 3.0),
            ["fast"] = WithItemCpu(Walls(100, 130, 110), 4.0),
            ["slow"] = WithItemCpu(Walls(200, 240, 230), 4.1),
        };
        var variants = all.Keys.Select(V).ToList();
        ExpectedMetric[] expected = [new() { Metric = "itemCpuMs", Value = 4, Tolerance = 0.1 }];

        Assert.Empty(EarlyStopping.After(variants, all, variants, _ => string.Empty, 5, EarlyStopping.MinimumTrials, expected));
        Assert.Equal("lighter", Assert.Single(EarlyStopping.After(variants, all, variants, _ => string.Empty, 5, EarlyStopping.MinimumTrials)).Value.Fastest);
    }

    [Fact]
    public void BelowTwiceTheFastestsHighEnd_KeepsRunning_EvenWhenMuchSlowerAtTheMedian()
    {
        // The median is 4x the fastest's, but one trial reaches down under twice the fastest's high end.
        var stops = After(new()
        {
            ["fast"] = Walls(100, 130, 110),
            ["slow"] = Walls(250, 450, 460),
        });

        Assert.Empty(stops);
    }

    [Fact]
    public void AnIntervalWithinTwoPercentOfItsMedian_IsTight_AndOneJustWider_IsNot_NorOneOfOnlyThreeTrials()
    {
        var stops = After(new()
        {
            ["steady"] = Walls(100, 101, 102, 101, 100),
            ["loose"] = Walls(100, 104, 108, 100, 108),
            ["three"] = Walls(100, 101, 100),
        }, planned: 8);

        var steady = Assert.Single(stops);
        Assert.Equal("steady", steady.Key);
        Assert.Equal(EarlyStopReason.Tight, steady.Value.Reason);
        Assert.Null(steady.Value.Fastest);
    }

    [Fact]
    public void NoStop_BeforeThreeTrials_WithAFailedTrial_OrAtThePlannedCount()
    {
        var failed = Walls(400, 410, 405);
        failed[1] = TrialResult.Unmeasured(TrialStatus.Failed, "boom", isolated: true);

        Assert.DoesNotContain("two", After(new() { ["fast"] = Walls(100, 100, 100), ["two"] = Walls(900, 900) }).Keys);
        Assert.DoesNotContain("failing", After(new() { ["fast"] = Walls(100, 101, 100), ["failing"] = failed }).Keys);
        Assert.Empty(After(new() { ["fast"] = Walls(100, 130, 110, 90, 120), ["slow"] = Walls(400, 410, 405, 400, 401) }, planned: 5));
    }

    [Fact]
    public void InAWorkloadOfYourOwn_TwoTrialsBothAboveFourTimesTheFastestsSlowest_Stop_AndNotThreeOrTwoAndAHalf()
    {
        var all = new Dictionary<string, List<TrialResult>>
        {
            ["fast"] = Walls(480, 500),
            ["hopeless"] = Walls(6_800, 6_900),
            ["slow"] = Walls(1_950, 2_100),
            ["borderline"] = Walls(1_999, 9_000),
        };

        // Only where no claim needs three trials of each variant; and at 4x the fastest's slowest trial (500 ms), so
        // 1,950 ms (3.9x) goes on, as does one whose faster trial is at 3.998x.
        Assert.Empty(After(all, planned: 6));
        var stops = After(all, planned: 6, afterTwo: true);
        var hopeless = Assert.Single(stops);
        Assert.Equal("hopeless", hopeless.Key);
        Assert.Equal(EarlyStopReason.OutOfContention, hopeless.Value.Reason);
        Assert.Equal(2, hopeless.Value.Trials);
        Assert.Equal(EarlyStopping.FarOutOfContentionRatio, hopeless.Value.Ratio);
        Assert.Equal(500, hopeless.Value.FastestCiHighMs);
        Assert.Equal(6_800, hopeless.Value.CiLowMs);

        // Three trials on both sides: intervals at 2x, as everywhere.
        var three = After(new() { ["fast"] = Walls(480, 500, 490), ["slow"] = Walls(1_950, 2_100, 2_000) }, planned: 6, afterTwo: true);
        Assert.Equal(EarlyStopping.OutOfContentionRatio, Assert.Single(three).Value.Ratio);

        // One trial is never enough.
        Assert.Empty(After(new() { ["fast"] = Walls(500), ["hopeless"] = Walls(9_000) }, planned: 6, afterTwo: true));
    }

    [Fact]
    public void OnlyAWorkloadOfYourOwn_MayStopAfterTwo_AndItsRunIsAdaptiveFromThreeTrials()
    {
        Assert.True(ConcurrencyLab.Experiments.ScenarioCatalog.Mix.MayStopAfterTwoTrials);
        Assert.All(ConcurrencyLab.Experiments.ScenarioCatalog.BuiltIn.Where(s => s.Name != "mix"), s => Assert.False(s.MayStopAfterTwoTrials, s.Name));

        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["mix"], Quick = true }, ConcurrencyLab.Experiments.ScenarioCatalog.Tool, out var mix, out var errors), string.Join("; ", errors));
        Assert.Equal(3, mix.Settings.Repeat);
        Assert.True(mix.Settings.Adaptive);
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["delay"], Quick = true }, ConcurrencyLab.Experiments.ScenarioCatalog.Tool, out var delay, out _));
        Assert.False(delay.Settings.Adaptive);
    }

    [Fact]
    public void AVariantIsWeighedOnlyAgainstThoseRunningTheSameWork()
    {
        var all = new Dictionary<string, List<TrialResult>>
        {
            ["whenall:items=10"] = Walls(10, 13, 11),
            ["channel:items=100"] = Walls(100, 130, 115),
        };

        Assert.Single(After(all));
        Assert.Empty(After(all, group: v => v.Name.Split(':')[1]));
    }

    [Fact]
    public void ByProperty_AStopNeverComesEarlyNorLate_AndAnOutOfContentionStopIsFarAboveTheFastest()
    {
        // Random variants, each with random walls: whatever stops had three ok trials (two in a workload of your own)
        // and fewer than planned; the one with the lowest median among sound variants never stops as out of
        // contention; and the low end of each out-of-contention stop is above twice the high end of the fastest it
        // names (four times, after two trials).
        Gen.Select(Gen.Int[2, 6], Gen.Int[0, 7], Gen.Int[4, 9], Gen.Int[0, int.MaxValue], Gen.Bool).Sample((variants, trials, planned, seed, afterTwo) =>
        {
            var random = new Random(seed);
            var all = Enumerable.Range(0, variants).ToDictionary(
                i => $"v{i}",
                i => Walls([.. Enumerable.Range(0, trials).Select(_ => Math.Pow(10, 1 + (i * random.NextDouble())) * (1 + (0.05 * random.NextDouble())))]));
            var stops = After(all, planned: planned, afterTwo: afterTwo);
            var fewest = afterTwo ? EarlyStopping.FarMinimumTrials : EarlyStopping.MinimumTrials;

            var fastest = all.Where(p => p.Value.Count >= fewest).OrderBy(p => Median.Of([.. p.Value.Select(t => t.WallMs)]).Median).Select(p => p.Key).FirstOrDefault();
            foreach (var (name, stop) in stops)
            {
                Assert.InRange(stop.Trials, fewest, planned - 1);
                Assert.Equal(all[name].Count, stop.Trials);
                if (stop.Reason == EarlyStopReason.OutOfContention)
                {
                    Assert.NotEqual(fastest, name);
                    Assert.Equal(fastest, stop.Fastest);
                    Assert.Equal(stop.Trials >= EarlyStopping.MinimumTrials ? EarlyStopping.OutOfContentionRatio : EarlyStopping.FarOutOfContentionRatio, stop.Ratio);
                    Assert.True(stop.CiLowMs > stop.Ratio * stop.FastestCiHighMs!.Value);
                }
                else
                {
                    Assert.True(stop.Trials >= EarlyStopping.TightMinimumTrials);
                    Assert.True(stop.CiHighMs - stop.CiLowMs <= 2 * EarlyStopping.TightShare * stop.MedianMs);
                }
            }
        }, iter: 500);
    }

    [Fact]
    public void TheFewestTrials_AreAsManyAsAClaimNeeds()
    {
        Assert.Equal(ConcurrencyLab.Reproduction.Claims.Decide.MinimumTrials, EarlyStopping.MinimumTrials);
        Assert.Equal(ConcurrencyLab.Analysis.Recommender.SlowRatio, EarlyStopping.OutOfContentionRatio);
    }
}
