using ConcurrencyLab.Measurement;
using CsCheck;

namespace ConcurrencyLab.Tests.Measurement;

/// <summary>The floor under a workload's runs: each item's least time over every trial, the longest of those.</summary>
public sealed class ItemFloorTests
{
    [Fact]
    public void TheLongestItem_IsTheOneWhoseLeastTimeIsLongest_OverEveryVariantAndForm()
    {
        var floor = new ItemFloor();

        // The blocking form ran item 2 in 150 ms; the task form ran it in 51: the floor is the task form's.
        floor.Add("w", "sequential", [150, 149, 150]);
        floor.Add("w", "whenall", [50, 49, 51]);
        floor.Add("w", "whenall", [52, 55, 53]);

        // Each item's least time on average, (50 + 49 + 51) / 3, and one workload alone.
        Assert.Equal(new LongestItem(2, 3, 51, 3, 2) { MeanMs = 50, OnlyWorkload = true }, floor.Longest());
    }

    [Fact]
    public void TwoWorkloads_GiveTheLesserBound_AndTimesThatAreNoTimes_AreLeftOut()
    {
        var floor = new ItemFloor();
        floor.Add("small", "a", [10, 20]);
        floor.Add("large", "a", [100, 200, 300]);
        floor.Add("small", "b", [double.NaN, 1]);
        floor.Add("small", "b", [-1, 1]);
        floor.Add("small", "b", []);

        // Of the small workload, whose bound is least: its items' least times on average, and not the only workload.
        Assert.Equal(new LongestItem(1, 2, 20, 1, 1) { MeanMs = 15, OnlyWorkload = false }, floor.Longest());
        Assert.Null(new ItemFloor().Longest());
    }

    [Fact]
    public void NoRun_EverEndsBeforeTheFloor_AndAnotherRunNeverRaisesIt()
    {
        // Runs of a batch of items, each run's item times drawn at random; a run's wall time is at least its
        // longest item (items side by side) plus whatever else it spent, or the sum of its items (one after another).
        var runs = Gen.Int[1, 30].SelectMany(items =>
            Gen.Select(Gen.Double[0.001, 1000].Array[items], Gen.Double[0, 50], Gen.Bool).Array[1, 8]);

        runs.Sample(sample =>
        {
            var floor = new ItemFloor();
            double? before = null;
            foreach (var (times, slack, _) in sample)
            {
                floor.Add("w", "v", times);
                var now = floor.Longest()!.Ms;
                Assert.True(before is null || now <= before, $"the floor rose from {before} to {now}");
                before = now;
            }

            foreach (var (times, slack, inSeries) in sample)
            {
                var wall = inSeries ? times.Sum() : times.Max() + slack;
                Assert.True(floor.Longest()!.Ms <= wall, $"a run of {wall} ms ended before the floor of {floor.Longest()!.Ms} ms");
            }
        });
    }
}
