using ConcurrencyLab.Running;

namespace ConcurrencyLab.Tests.Running;

/// <summary>The degree search against made-up costs: what it probes, what it picks, and where it stops.</summary>
public sealed class DegreeProbeTests
{
    // Runs the search to its end against a cost per degree, three equal trials a probe; gives the degrees probed in order.
    private static List<int> Search(DegreeProbe probe, Func<int, double> cost)
    {
        var probed = new List<int>();
        while (probe.Next() is { Count: > 0 } next)
        {
            foreach (var degree in next)
            {
                probed.Add(degree);
                probe.Record(degree, [cost(degree), cost(degree), cost(degree)]);
            }
        }

        return probed;
    }

    // Runs the search as the runner does, each probe with the trials it asks for, each trial drawn from the cost
    // (with its noise); gives how many trials it took.
    private static int SearchAsRun(DegreeProbe probe, Func<int, int, double> cost)
    {
        var trials = 0;
        while (probe.Next() is { Count: > 0 } next)
        {
            foreach (var degree in next)
            {
                var count = probe.TrialsFor(degree);
                probe.Record(degree, [.. Enumerable.Range(trials, count).Select(i => cost(degree, i))]);
                trials += count;
            }
        }

        return trials;
    }

    [Fact]
    public void WhereEachDoublingHalvesTheTime_OneTrialADegreeSettlesIt_AndTheBestGetsItsFullTrials()
    {
        // 200 items that only wait 100 ms: the time halves with each doubling, up to the items (mix's wait shape).
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 10);
        probe.LimitTo(200);

        var trials = SearchAsRun(probe, (d, i) => (20_000.0 / Math.Min(d, 200)) + 10 + (i % 3));

        Assert.Equal(200, probe.Best);
        Assert.Equal(DegreeProbe.Trials, probe.Tried.Single(t => t.Degree == 200).WallMs.Count);
        Assert.All(probe.Tried.Where(t => t.Degree < 128), t => Assert.Single(t.WallMs));

        // An exhaustive sweep of 16 degrees at 3 trials each takes 48: the search, a third of that at most.
        Assert.InRange(trials, 1, 16);
    }

    [Fact]
    public void WhereOneTrialCannotTellTwoDegreesApart_BothGetTheirFullTrials_BeforeTheSearchGoesOn()
    {
        // CPU-bound on 2 cores: every degree from 2 up takes about as long; trials differ by a few percent.
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 10);

        SearchAsRun(probe, (d, i) => 200 * (1 + (0.02 * (i % 3))) + (d > 8 ? d : 0));

        Assert.All(probe.Tried.Where(t => t.Degree is 2 or 4), t => Assert.Equal(DegreeProbe.Trials, t.WallMs.Count));
        Assert.DoesNotContain(probe.Tried, t => t.Degree > 8);
        Assert.True(probe.AsFast!.Value.From <= 2 && probe.AsFast.Value.To >= 4, $"as fast: {probe.AsFast}");
    }

    [Fact]
    public void ASingleTrialFarSlowerThanTheBest_StopsTheDoubling_WithoutMoreTrials()
    {
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 10);
        probe.Record(2, [100]);
        probe.Record(4, [400]);

        // Far slower: settled at one trial, and one more doubling (as far slower) ends it.
        Assert.Equal([8], probe.Next());
        Assert.Equal(1, probe.TrialsFor(8));
        probe.Record(8, [800]);
        Assert.Equal([3], probe.Next());
        Assert.Equal(1, probe.TrialsFor(3));
        probe.Record(3, [300]);

        // Nothing near the best is left short of trials but the best itself.
        Assert.Equal([2], probe.Next());
        Assert.Equal(2, probe.TrialsFor(2));
        probe.Record(2, [101, 99]);
        Assert.Empty(probe.Next());
        Assert.Equal(2, probe.Best);
    }

    [Fact]
    public void ACostWithAMinimum_IsDoubledPast_ThenNarrowedOnALogScale()
    {
        // 1000/d of waiting shared out, plus d of overhead: least at about 32.
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 12);

        var probed = Search(probe, d => (1000.0 / d) + d);

        // 64 is no better than 32, nor is 128 (one step past a miss, in case the time only falls slowly): then narrowed.
        Assert.Equal([2, 4, 8, 16, 32, 64, 128, 23, 45], probed);
        Assert.Equal(32, probe.Best);
        Assert.Equal((32, 32), probe.AsFast);
    }

    [Fact]
    public void AFlatRange_ChoosesItsLeastDegree_AndSaysHowWideItIs()
    {
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 12);

        var probed = Search(probe, d => Math.Max(100, 1600.0 / d));

        // Toward 8 (twice as slow) the curve has a slope, so its midpoint is probed; toward 32 it is flat: none.
        Assert.Equal([2, 4, 8, 16, 32, 64, 11], probed);
        Assert.Equal(16, probe.Best);
        Assert.Equal((16, 64), probe.AsFast);
    }

    [Fact]
    public void TheSearchStops_AtItsBudget_AtTheMaximum_AndAtAProbeThatFailed()
    {
        Assert.Equal([2, 4, 8], Search(new DegreeProbe(start: 2, max: 1024, budget: 3), d => 1000.0 / d));
        Assert.Equal([2, 4, 8, 6], Search(new DegreeProbe(start: 2, max: 8, budget: 12), d => 1000.0 / d));

        var failing = new DegreeProbe(start: 2, max: 1024, budget: 12);
        failing.Record(2, [100, 100]);
        failing.Record(4, []);
        Assert.Equal(2, failing.Best);
        Assert.Equal([3], failing.Next());
    }

    [Fact]
    public void AProbeThatSaysHowManyItemsThereAre_CapsTheSearchAtThem()
    {
        // 12 items: past 12, every item already runs at once, so the doubling ends at 12, not 16.
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 12);
        probe.Record(2, [500, 500]);
        probe.LimitTo(12);

        var probed = Search(probe, d => 1000.0 / Math.Min(d, 12));

        Assert.Equal([4, 8, 12, 10], probed);
        Assert.Equal(12, probe.Best);
    }

    [Fact]
    public void AStartAboveTheItems_IsNeverChosen_TheItemsAreTriedInstead_AndAProbeWithNoSuccessIsNoCandidate()
    {
        // 16 cores, 10 items: 16 was probed before the count was known; 10 is tried, and only 10 can be chosen.
        var probe = new DegreeProbe(start: 16, max: 1024, budget: 12);
        probe.LimitTo(10);
        probe.Record(16, [50, 50]);
        Assert.Equal([10], probe.Next());
        probe.Record(10, [52, 52]);
        Assert.Equal(10, probe.Best);
        Assert.Equal((10, 10), probe.AsFast);

        var failed = new DegreeProbe(start: 2, max: 1024, budget: 12);
        failed.Record(2, []);
        Assert.Null(failed.Best);
        Assert.Null(failed.AsFast);
        Assert.Empty(failed.Next());
    }

    [Fact]
    public void AnImprovementWithinTheNoise_TwiceInARow_StopsTheDoubling()
    {
        // 4 is 3% faster than 2: inside the 5% any two runs differ by. One more doubling is tried, in case the time
        // falls slowly; 8 is no better either, so doubling stops there.
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 12);
        probe.Record(2, [100, 100, 100]);
        probe.Record(4, [97, 97, 97]);
        Assert.Equal([8], probe.Next());
        probe.Record(8, [98, 98, 98]);

        // Flat on both sides of the best within the noise: no midpoint can be faster than both ends, so none is probed.
        Assert.Empty(probe.Next());
        Assert.Equal((2, 8), probe.AsFast);
    }

    [Fact]
    public void ATimeThatFallsSlowly_KeepsTheDoublingGoingPastOneStepWithinTheNoise()
    {
        // A pool that grows as items block: 16 is 3% better than 8 (within the noise), 32 is 10% better than 8.
        var probe = new DegreeProbe(start: 8, max: 1024, budget: 12);
        probe.Record(8, [1000, 1000, 1000]);
        probe.Record(16, [970, 970, 970]);
        Assert.Equal([32], probe.Next());
        probe.Record(32, [900, 900, 900]);

        Assert.Equal([64], probe.Next());
        Assert.Equal(32, probe.Best);
    }

    [Fact]
    public void AFlatCurve_StopsAfterTwoDoublingsWithinTheNoise_AndProbesNoMidpoint()
    {
        // Items held to 4 at once by a semaphore: from degree 4 up the time is flat, below it twice as long.
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 10);

        var trials = SearchAsRun(probe, (d, _) => d < 4 ? 2000 : 1000);

        // 2, 4, then two doublings that do not improve; the midpoint toward 2 (which is slower beyond the noise), none
        // toward 8; and the degrees as fast as the best get their full trials.
        Assert.Equal([2, 3, 4, 8, 16], probe.Tried.Select(t => t.Degree));
        Assert.Equal(4, probe.Best);
        Assert.Equal((4, 16), probe.AsFast);
        Assert.InRange(trials, 5, 12);
    }

    [Fact]
    public void AStrategyThatCannotWin_GetsOneTrialADegree_AndNoneMoreAtItsBest()
    {
        // Another strategy has already reached 100 ms; this one's degrees all take about 300 (three times as long), so
        // however they compare among themselves, none of them is the run's answer.
        var cost = (int d, int i) => 300 * (1 + (0.02 * (i % 3))) - d;
        var hopeless = new DegreeProbe(start: 2, max: 1024, budget: 10) { Rival = 100 };
        var trials = SearchAsRun(hopeless, cost);

        Assert.All(hopeless.Tried, t => Assert.Single(t.WallMs));
        Assert.Equal(hopeless.Tried.Count, trials);
        Assert.NotNull(hopeless.Best);

        // The same costs, with no rival as fast (or none at all): degrees one trial cannot tell apart get their full trials.
        foreach (var rival in new double?[] { null, 250 })
        {
            var contender = new DegreeProbe(start: 2, max: 1024, budget: 10) { Rival = rival };
            SearchAsRun(contender, cost);
            Assert.Contains(contender.Tried, t => t.WallMs.Count == DegreeProbe.Trials);
        }
    }

    // Runs the search with each probe's trials and the share of the cores they kept busy, from a model of the work:
    // its wall time and CPU time at a degree, on 2 cores.
    private static int SearchWithCpu(DegreeProbe probe, Func<int, double> wall, double cpuMs)
    {
        var trials = 0;
        while (probe.Next() is { Count: > 0 } next)
        {
            foreach (var degree in next)
            {
                var count = probe.TrialsFor(degree);
                probe.Record(degree, [.. Enumerable.Repeat(wall(degree), count)], cpuMs / wall(degree) / 2);
                trials += count;
            }
        }

        return trials;
    }

    [Fact]
    public void AFirstProbeThatLeavesTheCoresIdle_SkipsTheDoublingsThatOnlyHalveTheTime()
    {
        // 200 items of 4 ms of CPU then 30 ms of waiting, on 2 cores: the time halves with each doubling until the
        // cores are saturated, at about degree 17 (2 cores x 34 / 4), and is 400 ms from there on.
        static double Wall(int d) => Math.Max(200 * 34.0 / d, 400);
        var skipping = new DegreeProbe(start: 2, max: 1024, budget: 10);
        skipping.LimitTo(200);
        var plain = new DegreeProbe(start: 2, max: 1024, budget: 10);
        plain.LimitTo(200);

        var trials = SearchWithCpu(skipping, Wall, cpuMs: 800);
        var without = SearchAsRun(plain, (d, _) => Wall(d));

        // Busy 12% of the time at degree 2: straight to 16, 4 and 8 never probed; and the same answer as without.
        Assert.Equal(2, skipping.Skipped);
        Assert.DoesNotContain(skipping.Tried, t => t.Degree is 4 or 8);
        Assert.Equal(400, Wall(skipping.Best!.Value));
        Assert.Equal(400, Wall(plain.Best!.Value));
        Assert.True(trials < without, $"{trials} trials skipping, {without} without");
    }

    [Fact]
    public void ASkipThatOvershootsAFlatCurve_StillFindsItsTime_AndABusyFirstProbeSkipsNothing()
    {
        // Held to 4 at once by a semaphore: twice as long below 4, flat from there. The idle cores at 2 predict a
        // saturation at 17, past the flat's start; the midpoint toward 2 finds a degree as fast, whatever it is.
        static double Held(int d) => d < 4 ? 3400 : 1700;
        var held = new DegreeProbe(start: 2, max: 1024, budget: 10);
        SearchWithCpu(held, Held, cpuMs: 800);
        Assert.Equal(1700, Held(held.Best!.Value));
        Assert.True(held.Tried.Count <= 6, string.Join(", ", held.Tried.Select(t => t.Degree)));

        // CPU-bound: the cores are busy 95% of the time at 2, so nothing is skipped.
        var busy = new DegreeProbe(start: 2, max: 1024, budget: 10);
        SearchWithCpu(busy, d => 1000 + d, cpuMs: 1900);
        Assert.Equal(0, busy.Skipped);
        Assert.Contains(busy.Tried, t => t.Degree == 4);
        Assert.Equal(2, busy.Best);
    }
}
