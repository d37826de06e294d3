namespace ConcurrencyLab.Measurement;

/// <summary>
/// The least time each item of a workload took in any measured trial, whatever the variant or form: a floor no
/// run of that workload can go under, since a run lasts at least as long as each of its items did in it. Kept per
/// workload (by its digest), since a sweep over the work makes different items.
/// </summary>
internal sealed class ItemFloor
{
    private readonly Dictionary<string, Floor> _floors = new(StringComparer.Ordinal);

    /// <summary>Folds in one trial's item times (by index) of the workload <paramref name="digest"/>, run by <paramref name="variant"/>.</summary>
    public void Add(string digest, string variant, IReadOnlyList<double> itemTimesMs)
    {
        ArgumentNullException.ThrowIfNull(digest);
        ArgumentNullException.ThrowIfNull(variant);
        ArgumentNullException.ThrowIfNull(itemTimesMs);
        if (itemTimesMs.Count == 0 || itemTimesMs.Any(t => !double.IsFinite(t) || t < 0))
        {
            return;
        }

        // A workload is its digest and its length: a workload that gives no digest is told apart by its items.
        var key = digest + "#" + itemTimesMs.Count.ToString(System.Globalization.CultureInfo.InvariantCulture);
        if (!_floors.TryGetValue(key, out var floor))
        {
            floor = new Floor([.. itemTimesMs], 0, new HashSet<string>(StringComparer.Ordinal));
            _floors[key] = floor;
        }

        for (var i = 0; i < floor.Least.Length; i++)
        {
            floor.Least[i] = Math.Min(floor.Least[i], itemTimesMs[i]);
        }

        floor.Variants.Add(variant);
        _floors[key] = floor with { Timings = floor.Timings + 1 };
    }

    /// <summary>
    /// The longest item at its fastest, for the workload whose bound is least (each workload's bound holds for its
    /// own runs, so the least holds for all): null when no trial timed its items.
    /// </summary>
    public LongestItem? Longest()
    {
        if (_floors.Count == 0)
        {
            return null;
        }

        return _floors.Values
            .Select(f =>
            {
                var index = Array.IndexOf(f.Least, f.Least.Max());
                return new LongestItem(index, f.Least.Length, f.Least[index], f.Timings, f.Variants.Count) { MeanMs = f.Least.Average(),
                    OnlyWorkload = _floors.Count == 1 };
            })
            .MinBy(l => l.Ms);
    }

    private sealed record Floor(double[] Least, int Timings, HashSet<string> Variants);
}

/// <summary>The item whose least time was the longest.</summary>
/// <param name="Index">Its index in the batch.</param>
/// <param name="Items">How many items the batch had.</param>
/// <param name="Ms">Its least time over every trial that timed it.</param>
/// <param name="Timings">How many trials timed it.</param>
/// <param name="Variants">How many variants those trials ran.</param>
internal sealed record LongestItem(int Index, int Items, double Ms, int Timings, int Variants)
{
    /// <summary>The items' least times, on average: what an item takes at its fastest.</summary>
    public double MeanMs { get; init; }

    /// <summary>Whether every timed trial ran this one workload (no sweep or growth of the work made others).</summary>
    public bool OnlyWorkload { get; init; }
}
