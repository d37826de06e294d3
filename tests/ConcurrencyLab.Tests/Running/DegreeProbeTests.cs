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

    [Fact]
    public void ACostWithAMinimum_IsDoubledPast_ThenNarrowedOnALogScale()
    {
        // 1000/d of waiting shared out, plus d of overhead: least at about 32.
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 12);

        var probed = Search(probe, d => (1000.0 / d) + d);

        Assert.Equal([2, 4, 8, 16, 32, 64, 23, 45], probed);
        Assert.Equal(32, probe.Best);
        Assert.Equal((32, 32), probe.AsFast);
    }

    [Fact]
    public void AFlatRange_ChoosesItsLeastDegree_AndSaysHowWideItIs()
    {
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 12);

        var probed = Search(probe, d => Math.Max(100, 1600.0 / d));

        Assert.Equal([2, 4, 8, 16, 32, 11, 23], probed);
        Assert.Equal(16, probe.Best);
        Assert.Equal((16, 32), probe.AsFast);
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
    public void AnImprovementWithinTheNoise_DoesNotKeepDoubling()
    {
        // 4 is 3% faster than 2: inside the 5% any two runs differ by, so doubling stops at 4.
        var probe = new DegreeProbe(start: 2, max: 1024, budget: 12);
        probe.Record(2, [100, 100, 100]);
        probe.Record(4, [97, 97, 97]);

        Assert.Equal([3], probe.Next());
        Assert.Equal((2, 4), probe.AsFast);
    }
}
