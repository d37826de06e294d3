namespace ConcurrencyLab.Running;

/// <summary>
/// The search for one strategy's degree of parallelism, as a sequence of probes: start at the core count, double
/// while the median improves beyond the noise seen so far, then try the midpoints (on a log scale) between the
/// best degree and its tried neighbours. Pure: the caller runs the probes and records what they measured, so the
/// search is tested against made-up costs.
/// </summary>
internal sealed class DegreeProbe
{
    /// <summary>The least share by which a degree must beat the best so far to count as better: timings on a shared machine differ by this much between runs of the same thing.</summary>
    public const double LeastNoise = 0.05;

    private readonly Dictionary<int, IReadOnlyList<double>> _tried = [];
    private int _max;
    private readonly int _budget;
    private bool _narrowed;
    private List<int>? _midpoints;
    private int _next;

    /// <summary>A search from <paramref name="start"/> up to <paramref name="max"/>, in at most <paramref name="budget"/> probes.</summary>
    public DegreeProbe(int start, int max, int budget)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(max, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(budget, 1);
        _max = max;
        _budget = budget;
        _next = Math.Clamp(start, 1, max);
    }

    /// <summary>
    /// Lowers the highest degree searched to <paramref name="max"/> (the batch's items, once a probe has said how
    /// many): a degree the search would have doubled to past it becomes the last degree doubled to.
    /// </summary>
    public void LimitTo(int max)
    {
        if (max < 1 || max >= _max)
        {
            return;
        }

        _max = max;
        if (!_narrowed && _next > max)
        {
            _next = _tried.ContainsKey(max) ? _next : max;
            _narrowed = _tried.ContainsKey(max);
        }
    }

    /// <summary>Every degree probed, with its trials' wall times, in increasing degree.</summary>
    public IReadOnlyList<(int Degree, IReadOnlyList<double> WallMs)> Tried => [.. _tried.OrderBy(t => t.Key).Select(t => (t.Key, t.Value))];

    /// <summary>Whether the search has nothing more to probe.</summary>
    public bool Done => Next().Count == 0;

    /// <summary>The degree with the least median so far, the lesser degree of two alike; null before any probe.</summary>
    public int? Best => Candidates.Any() ? Candidates.OrderBy(t => Median(t.Value)).ThenBy(t => t.Key).First().Key : null;

    // The degrees that can be chosen: probed with a trial that succeeded, and within the cap.
    private IEnumerable<KeyValuePair<int, IReadOnlyList<double>>> Candidates => _tried.Where(t => t.Key <= _max && t.Value[0] < double.MaxValue);

    /// <summary>
    /// How far apart two probes of the same degree may be by chance: half the best probe's range over its median,
    /// and never less than <see cref="LeastNoise"/>.
    /// </summary>
    public double Noise
    {
        get
        {
            if (Best is not { } best)
            {
                return LeastNoise;
            }

            var walls = _tried[best];
            var median = Median(walls);
            return median > 0 ? Math.Max(LeastNoise, (walls.Max() - walls.Min()) / (2 * median)) : LeastNoise;
        }
    }

    /// <summary>The degrees as fast as the best, within <see cref="Noise"/>: the least and the greatest of them.</summary>
    public (int From, int To)? AsFast
    {
        get
        {
            if (Best is not { } best)
            {
                return null;
            }

            var limit = Median(_tried[best]) * (1 + Noise);
            var fast = Candidates.Where(t => Median(t.Value) <= limit).Select(t => t.Key).ToList();
            return (fast.Min(), fast.Max());
        }
    }

    /// <summary>The degrees to probe next (each once); empty when the search is over.</summary>
    public IReadOnlyList<int> Next()
    {
        if (_tried.Count >= _budget)
        {
            return [];
        }

        if (!_narrowed)
        {
            return _tried.ContainsKey(_next) ? [] : [_next];
        }

        // Between the best and each tried neighbour, the midpoint on a log scale, where it is a degree not tried:
        // chosen once, when doubling stops, and probed once each.
        if (_midpoints is not null)
        {
            return [.. _midpoints.Where(m => !_tried.ContainsKey(m)).Take(_budget - _tried.Count)];
        }

        if (Best is not { } best)
        {
            // No probe succeeded: nothing to narrow around.
            return [];
        }

        var below = _tried.Keys.Where(d => d < best).DefaultIfEmpty().Max();
        var above = _tried.Keys.Where(d => d > best).DefaultIfEmpty().Min();
        var mids = new[] { below, above }
            .Where(n => n > 0)
            .Select(n => (int)Math.Round(Math.Sqrt((double)n * best)))
            .Where(m => m >= 1 && m <= _max && !_tried.ContainsKey(m))
            .Distinct()
            .ToList();
        _midpoints = mids;
        return [.. mids.Take(_budget - _tried.Count)];
    }

    /// <summary>Records what a probe of <paramref name="degree"/> measured, and decides what comes next.</summary>
    public void Record(int degree, IReadOnlyList<double> wallMs)
    {
        ArgumentNullException.ThrowIfNull(wallMs);
        var times = wallMs.Where(w => double.IsFinite(w) && w > 0).ToList();
        if (times.Count == 0)
        {
            // A probe with no successful trial is no candidate; doubling stops there.
            _tried[degree] = [double.MaxValue];
            _narrowed = true;
            return;
        }

        var bestBefore = Best;
        var noiseBefore = Noise;
        _tried[degree] = times;
        if (_narrowed)
        {
            return;
        }

        // A degree above the cap (the core count, above a batch of fewer items): the cap is tried next.
        if (degree > _max)
        {
            _next = _max;
            _narrowed = _tried.ContainsKey(_max);
            return;
        }

        var improved = bestBefore is not { } b || Median(times) < Median(_tried[b]) * (1 - noiseBefore);
        if (improved && degree < _max)
        {
            _next = Math.Min(degree * 2, _max);
        }
        else
        {
            _narrowed = true;
        }
    }

    private static double Median(IReadOnlyList<double> values) => Statistics.MedianEstimate.MedianOf(values);
}
