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

    private static IReadOnlyDictionary<string, EarlyStop> After(Dictionary<string, List<TrialResult>> all, Func<Variant, string>? group = null, int planned = 5)
    {
        var variants = all.Keys.Select(V).ToList();
        return EarlyStopping.After(variants, all, variants, group ?? (_ => string.Empty), planned);
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
        // Random variants, each with random walls: whatever stops had three ok trials and fewer than planned; the one
        // with the lowest median among sound variants never stops as out of contention; and the low end of each
        // out-of-contention stop is above twice the high end of the fastest it names.
        Gen.Select(Gen.Int[2, 6], Gen.Int[0, 7], Gen.Int[4, 9], Gen.Int[0, int.MaxValue]).Sample((variants, trials, planned, seed) =>
        {
            var random = new Random(seed);
            var all = Enumerable.Range(0, variants).ToDictionary(
                i => $"v{i}",
                i => Walls([.. Enumerable.Range(0, trials).Select(_ => Math.Pow(10, 1 + (i * random.NextDouble())) * (1 + (0.05 * random.NextDouble())))]));
            var stops = After(all, planned: planned);

            var fastest = all.Where(p => p.Value.Count >= EarlyStopping.MinimumTrials).OrderBy(p => Median.Of([.. p.Value.Select(t => t.WallMs)]).Median).Select(p => p.Key).FirstOrDefault();
            foreach (var (name, stop) in stops)
            {
                Assert.InRange(stop.Trials, EarlyStopping.MinimumTrials, planned - 1);
                Assert.Equal(all[name].Count, stop.Trials);
                if (stop.Reason == EarlyStopReason.OutOfContention)
                {
                    Assert.NotEqual(fastest, name);
                    Assert.Equal(fastest, stop.Fastest);
                    Assert.True(stop.CiLowMs > EarlyStopping.OutOfContentionRatio * stop.FastestCiHighMs!.Value);
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
        Assert.Equal(ConcurrencyLab.Claims.Decide.MinimumTrials, EarlyStopping.MinimumTrials);
        Assert.Equal(ConcurrencyLab.Analysis.Recommender.SlowRatio, EarlyStopping.OutOfContentionRatio);
    }
}
