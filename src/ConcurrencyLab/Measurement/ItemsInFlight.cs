namespace ConcurrencyLab.Measurement;

/// <summary>
/// How many of a batch's items were under way at once over a trial's region, counted exactly from each item's start
/// (the strategy calling it) and end: an item is in flight from the one to the other, whether it runs, waits or
/// sleeps. What a strategy actually overlapped, beside what its degree allowed.
/// </summary>
internal sealed record ItemsInFlight
{
    /// <summary>How many spans <see cref="Timeline"/> has.</summary>
    public const int Bins = 60;

    /// <summary>Items in flight on average over the region: the items' times added up, over the region's length.</summary>
    public required double Mean { get; init; }

    /// <summary>The most items in flight at any moment.</summary>
    public required int Peak { get; init; }

    /// <summary>
    /// The most items the strategy lets run at once in this trial: its degree (the API's default read as the API reads
    /// it), one for a loop that waits for each item, every item for one that starts them all; never more than the
    /// batch's items. Null where the strategy is not one of the lab's.
    /// </summary>
    public int? Allowed { get; init; }

    /// <summary>The share of the region, from 0 to 1, with <see cref="Allowed"/> items in flight (or more); null with it.</summary>
    public double? AtAllowedShare { get; init; }

    /// <summary>The length of each of <see cref="Timeline"/>'s spans, in milliseconds.</summary>
    public double BinMs { get; init; }

    /// <summary>The region in <see cref="Bins"/> equal spans from its start, each the mean items in flight over its span.</summary>
    public IReadOnlyList<double> Timeline { get; init; } = [];

    /// <summary>
    /// The profile of items that began at <paramref name="begun"/> and ended at <paramref name="ended"/> (timestamps of
    /// one clock, by item; 0 where an item never began), over the region from <paramref name="start"/> to
    /// <paramref name="end"/> of that clock at <paramref name="frequency"/> ticks a second. An item that began but did
    /// not end counts to the region's end. Null when no item began or the region has no length.
    /// </summary>
    internal static ItemsInFlight? Of(ReadOnlySpan<long> begun, ReadOnlySpan<long> ended, long start, long end, long frequency, int? allowed)
    {
        if (begun.Length != ended.Length || end <= start || frequency <= 0)
        {
            return null;
        }

        // Each item is +1 at its start and -1 at its end, both clamped into the region; sorted, a sweep gives the
        // count at every moment. Ends sort before starts at the same tick, so an item that starts as another ends is
        // not counted with it.
        var edges = new List<(long At, int Step)>(2 * begun.Length);
        for (var i = 0; i < begun.Length; i++)
        {
            if (begun[i] == 0)
            {
                continue;
            }

            var from = Math.Clamp(begun[i], start, end);
            var to = ended[i] == 0 ? end : Math.Clamp(ended[i], from, end);
            edges.Add((from, 1));
            edges.Add((to, -1));
        }

        if (edges.Count == 0)
        {
            return null;
        }

        edges.Sort((a, b) => a.At != b.At ? a.At.CompareTo(b.At) : a.Step.CompareTo(b.Step));
        var length = (double)(end - start);
        var binTicks = length / Bins;
        var bins = new double[Bins];
        var (count, peak, previous) = (0, 0, start);
        double area = 0, atAllowed = 0;
        foreach (var (at, step) in edges)
        {
            Spread(previous, at, count);
            previous = at;
            count += step;
            peak = Math.Max(peak, count);
        }

        Spread(previous, end, count);
        var ms = 1000.0 / frequency;
        return new ItemsInFlight
        {
            Mean = Math.Round(area / length, 3),
            Peak = peak,
            Allowed = allowed,
            AtAllowedShare = allowed is null ? null : Math.Round(atAllowed / length, 3),
            BinMs = Math.Round(binTicks * ms, 3),
            Timeline = [.. bins.Select(b => Math.Round(b / binTicks, 3))],
        };

        // Adds count items over [from, to) to the totals and to the spans it covers.
        void Spread(long from, long to, int items)
        {
            if (to <= from || items == 0)
            {
                return;
            }

            area += (double)(to - from) * items;
            if (allowed is { } most && items >= most)
            {
                atAllowed += to - from;
            }

            var first = Math.Min(Bins - 1, (int)((from - start) / binTicks));
            var last = Math.Min(Bins - 1, (int)((to - start) / binTicks));
            for (var b = first; b <= last; b++)
            {
                var low = Math.Max(from - start, b * binTicks);
                var high = Math.Min(to - start, (b + 1) * binTicks);
                if (high > low)
                {
                    bins[b] += (high - low) * items;
                }
            }
        }
    }
}
