using ConcurrencyLab.Measurement;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;
using CsCheck;

namespace ConcurrencyLab.Tests.Measurement;

/// <summary>Items in flight, counted exactly from each item's start and end over a region.</summary>
public sealed class ItemsInFlightTests
{
    [Fact]
    public void KnownIntervals_GiveTheirMeanPeakShareAndTimeline()
    {
        // A region of 600 ticks at 1000 a second (600 ms): two items over [0, 300), one over [300, 600), and one
        // over [100, 200): 1000 item-ticks in all, three at once at the peak, at least two for 300 of the 600.
        long[] begun = [1000, 1000, 1300, 1100];
        long[] ended = [1300, 1300, 1600, 1200];

        var f = ItemsInFlight.Of(begun, ended, 1000, 1600, 1000, allowed: 2)!;

        Assert.Equal(1000.0 / 600, f.Mean, 3);
        Assert.Equal(3, f.Peak);
        Assert.Equal(2, f.Allowed);
        Assert.Equal(0.5, f.AtAllowedShare);
        Assert.Equal(10, f.BinMs, 3);
        Assert.Equal(ItemsInFlight.Bins, f.Timeline.Count);
        Assert.Equal(3, f.Timeline[15]);
        Assert.Equal(2, f.Timeline[5]);
        Assert.Equal(1, f.Timeline[45]);
    }

    [Fact]
    public void AnItemThatStartsAsAnotherEnds_IsNotCountedWithIt_AndOneThatNeverEnded_CountsToTheRegionsEnd()
    {
        // Three items one after another, each starting at the tick the one before ended: one at a time, never two.
        var series = ItemsInFlight.Of([10, 20, 30], [20, 30, 40], 10, 40, 1000, allowed: 1)!;
        Assert.Equal((1.0, 1, 1.0), (series.Mean, series.Peak, series.AtAllowedShare!.Value));

        // An item that never began is no item; one that never ended is in flight to the end.
        var open = ItemsInFlight.Of([0, 10], [0, 0], 10, 40, 1000, allowed: null)!;
        Assert.Equal((1.0, 1, (double?)null), (open.Mean, open.Peak, open.AtAllowedShare));

        // Times outside the region are clamped into it.
        var clamped = ItemsInFlight.Of([5], [50], 10, 40, 1000, allowed: 1)!;
        Assert.Equal(1.0, clamped.Mean);

        Assert.Null(ItemsInFlight.Of([0, 0], [0, 0], 10, 40, 1000, allowed: 1));
        Assert.Null(ItemsInFlight.Of([10], [20], 40, 40, 1000, allowed: 1));
        Assert.Null(ItemsInFlight.Of([10], [20, 30], 10, 40, 1000, allowed: 1));
    }

    [Fact]
    public void ForAnyItems_TheMeanIsTheirTimeOverTheRegion_TheTimelineAveragesToIt_AndThePeakBoundsBoth()
    {
        var items = Gen.Select(Gen.Long[0, 10_000], Gen.Long[0, 5_000]).Array[1, 60];
        items.Sample(spans =>
        {
            var begun = spans.Select(s => 1 + s.Item1).ToArray();
            var ended = spans.Select(s => 1 + s.Item1 + s.Item2).ToArray();
            var (start, end) = (1L, ended.Max() + 1);
            var f = ItemsInFlight.Of(begun, ended, start, end, 1000, allowed: 3)!;

            // Little's law over the region, exactly: the items' times added up, over its length.
            // (Each figure is kept to three decimals.)
            var exact = spans.Sum(s => (double)s.Item2) / (end - start);
            Assert.InRange(f.Mean, exact - 0.001, exact + 0.001);
            Assert.InRange(f.Timeline.Average(), exact - 0.001, exact + 0.001);
            Assert.True(f.Peak >= f.Timeline.Max() - 1e-9 && f.Peak <= spans.Length);
            Assert.InRange(f.AtAllowedShare!.Value, 0, 1);
        });
    }

    [Fact]
    public void EachStrategy_AllowsItsDegree_OneForALoop_AndEveryItemWhereItStartsThemAll()
    {
        int Most(string id, string degree, int items = 200)
        {
            Assert.True(Degree.TryParse(degree, out var d));
            return StrategyCatalog.Find(id)!.MostAtOnce(d, items);
        }

        Assert.Equal(1, Most("sequential", "default"));
        Assert.Equal(1, Most("task-loop", "default"));
        Assert.Equal(200, Most("threadpool", "default"));
        Assert.Equal(200, Most("whenall", "default"));
        Assert.Equal(128, Most("parallel-for", "128"));
        Assert.Equal(40, Most("parallel-for", "128", items: 40));
        Assert.Equal(200, Most("parallel-for", "default"));
        Assert.Equal(1, Most("dataflow", "default"));
        Assert.Equal(Environment.ProcessorCount, Most("plinq", "default"));
        Assert.Equal(Environment.ProcessorCount, Most("foreach-async", "default"));
        Assert.Equal(0, Most("whenall", "default", items: 0));
    }

    [Fact]
    public async Task ABatchRunByAStrategy_CountsAtMostItsDegreeInFlight_AndAllOfItsItems()
    {
        // Eight items of 20 ms through Parallel.ForEachAsync at 2: two at a time, four rounds.
        var batch = new WorkBatch(new Waits(8, 20), WorkForm.Tap);
        batch.MarkStart();
        await StrategyCatalog.Find("foreach-async")!.ExecuteAsync(batch, Degree.Of(2));

        var f = batch.InFlight(allowed: 2)!;
        Assert.Equal(2, f.Peak);
        Assert.InRange(f.Mean, 1.5, 2.0);
        Assert.True(f.AtAllowedShare >= 0.75, $"{f.AtAllowedShare}");
    }

    private sealed class Waits(int count, int ms) : Workload
    {
        public override int Count => count;

        public override async ValueTask RunAsync(int index, CancellationToken cancellationToken) => await Task.Delay(ms, cancellationToken);
    }
}
