namespace ConcurrencyLab.Running;

/// <summary>
/// The search for one strategy's degree of parallelism, as a sequence of probes: start at the core count, double
/// while the median improves beyond the noise seen so far, then try the midpoints (on a log scale) between the
/// best degree and its tried neighbours. A new degree is probed with one trial; it gets <see cref="Trials"/> only
/// where that one does not settle it (neither <see cref="Clear"/> times faster than the best so far, nor as much
/// slower), and the degrees that end up near the best get them before the search ends, unless the strategy cannot be
/// the run's answer: its times <see cref="Clear"/> times the <see cref="Rival"/>'s or more. Pure: the caller runs the
/// probes and records what they measured, so the search is tested against made-up costs.
/// </summary>
internal sealed class DegreeProbe
{
    /// <summary>The least share by which a degree must beat the best so far to count as better: timings on a shared
    /// machine differ by this much between runs of the same thing.</summary>
    public const double LeastNoise = 0.05;

    /// <summary>The trials a degree gets where one does not settle it, and the best and those near it always.</summary>
    public const int Trials = 3;

    /// <summary>Steps that do not improve on the best that doubling goes on past, before it stops.</summary>
    public const int Patience = 1;

    /// <summary>A single trial this many times faster than the best so far is better beyond any noise; this many times slower, worse.</summary>
    public const double Clear = 1.5;

    private readonly Dictionary<int, IReadOnlyList<double>> _tried = [];
    private readonly SortedSet<int> _topUps = [];
    private (int Degree, int Against)? _deciding;
    private int _misses;
    private bool _finalised;
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

    /// <summary>
    /// The least median any strategy searched beside this one has reached so far, set by the caller before each round;
    /// null when none has. A degree whose time is <see cref="Clear"/> times it or more cannot be the run's fastest, so
    /// no more trials are spent telling it from its neighbours: one trial each decides the doubling, and the best
    /// degree found is not topped up.
    /// </summary>
    public double? Rival { get; set; }

    /// <summary>The median of the best degree so far; null before any probe succeeded.</summary>
    public double? BestMedian => Best is { } best ? Median(_tried[best]) : null;

    /// <summary>Every degree probed, with its trials' wall times, in increasing degree.</summary>
    public IReadOnlyList<(int Degree, IReadOnlyList<double> WallMs)> Tried => [.. _tried.OrderBy(t => t.Key).Select(t => (t.Key, t.Value))];

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

            return NoiseOf(_tried[best]);
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

    /// <summary>The degrees to probe next, each with <see cref="TrialsFor"/> trials; empty when the search is over.</summary>
    public IReadOnlyList<int> Next()
    {
        if (_topUps.Count > 0)
        {
            return [.. _topUps];
        }

        if (_tried.Count >= _budget)
        {
            return Final();
        }

        if (!_narrowed)
        {
            return _tried.ContainsKey(_next) ? Final() : [_next];
        }

        // Between the best and each tried neighbour, the midpoint on a log scale, where it is a degree not tried:
        // chosen once, when doubling stops, and probed once each.
        if (_midpoints is not null)
        {
            return _midpoints.Where(m => !_tried.ContainsKey(m)).Take(_budget - _tried.Count).ToList() is { Count: > 0 } left ? left : Final();
        }

        if (Best is not { } best)
        {
            // No probe succeeded: nothing to narrow around.
            return [];
        }

        // Toward a neighbour as fast as the best within the noise, the curve is flat: a degree between them can be
        // no faster than both, so only a neighbour slower beyond the noise (or one that failed) has a midpoint.
        var below = _tried.Keys.Where(d => d < best).DefaultIfEmpty().Max();
        var above = _tried.Keys.Where(d => d > best).DefaultIfEmpty().Min();
        var slower = Median(_tried[best]) * (1 + Noise);
        var mids = new[] { below, above }
            .Where(n => n > 0 && Median(_tried[n]) > slower)
            .Select(n => (int)Math.Round(Math.Sqrt((double)n * best)))
            .Where(m => m >= 1 && m <= _max && !_tried.ContainsKey(m))
            .Distinct()
            .ToList();
        _midpoints = mids;
        return mids.Count > 0 ? [.. mids.Take(_budget - _tried.Count)] : Final();
    }

    /// <summary>How many trials to run of <paramref name="degree"/> now: one for a degree not yet tried, else what it
    /// lacks of <see cref="Trials"/>.</summary>
    public int TrialsFor(int degree) =>
        _tried.TryGetValue(degree, out var times) && times[0] < double.MaxValue ? Math.Max(1, Trials - times.Count) : 1;

    // Once nothing else is left: the best and every degree within Clear of it get their full trials, so that the
    // choice and the range as fast are made on medians, not on single trials; then the search is over.
    private IReadOnlyList<int> Final()
    {
        if (_finalised || Best is not { } best)
        {
            return [];
        }

        _finalised = true;
        if (CannotWin(Median(_tried[best])))
        {
            return [];
        }

        var limit = Median(_tried[best]) * Clear;
        _topUps.UnionWith(Candidates.Where(c => c.Value.Count < Trials && Median(c.Value) <= limit).Select(c => c.Key));
        return [.. _topUps];
    }

    /// <summary>
    /// The least share of the cores a first probe must leave idle for the search to skip doublings: busy a quarter of
    /// the time or less, the cores would be saturated only two doublings on or more.
    /// </summary>
    public const double IdleToSkip = 0.75;

    /// <summary>
    /// Records what a probe of <paramref name="degree"/> measured (a degree probed again adds to its trials), and
    /// decides what comes next. <paramref name="busyShare"/> is the share of the cores its trials kept busy (CPU time
    /// over wall time and cores), when known: a first probe that left them mostly idle makes the search skip the
    /// doublings whose gain that predicts (each about halving the time, as items that wait share the cores), straight
    /// to the greatest doubling at which the cores would not yet be saturated (degree / share), and go on from there.
    /// </summary>
    public void Record(int degree, IReadOnlyList<double> wallMs, double? busyShare = null)
    {
        ArgumentNullException.ThrowIfNull(wallMs);
        var times = wallMs.Where(w => double.IsFinite(w) && w > 0).ToList();

        // More trials of a degree already tried: added to its own; the decision they were wanted for is made once
        // all of them are in.
        if (_topUps.Remove(degree))
        {
            if (_tried.TryGetValue(degree, out var had) && had[0] < double.MaxValue)
            {
                _tried[degree] = [.. had, .. times];
            }

            if (_topUps.Count == 0 && _deciding is { } deciding)
            {
                _deciding = null;
                Decide(
                    deciding.Degree, improved: Median(
                        _tried[deciding.Degree]) < Median(_tried[deciding.Against]) * (1 - NoiseOf(_tried[deciding.Against])));
            }

            return;
        }

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

        if (bestBefore is { } b && times.Count < Trials)
        {
            // One trial settles it only when it is far from the best; otherwise both get their full trials first.
            var (median, best) = (Median(times), Median(_tried[b]));
            if (median * Clear < best || median > best * Clear)
            {
                Decide(degree, improved: median < best);
                return;
            }

            if (CannotWin(Math.Min(median, best)))
            {
                Decide(degree, improved: median < best * (1 - noiseBefore));
                return;
            }

            _topUps.Add(degree);
            if (_tried[b].Count < Trials)
            {
                _topUps.Add(b);
            }

            _deciding = (degree, b);
            return;
        }

        Decide(degree, improved: bestBefore is not { } before || Median(times) < Median(_tried[before]) * (1 - noiseBefore));
        if (bestBefore is null && busyShare is > 0 and <= 1 - IdleToSkip && !_narrowed)
        {
            // Each doubling up to degree / share would about halve the time (clear at one trial each); the search goes
            // to the last of them at once. The midpoints toward the start, slower beyond the noise, still get probed.
            var saturated = degree / busyShare.Value;
            var jump = degree;
            while (jump * 2 <= saturated && jump * 2 <= _max)
            {
                jump *= 2;
            }

            _next = Math.Max(_next, jump);
            Skipped = Math.Max(0, (int)Math.Round(Math.Log2((double)jump / degree)) - 1);
        }
    }

    /// <summary>How many doublings the first probe's idle cores let the search skip; 0 when none.</summary>
    public int Skipped { get; private set; }

    // Doubling goes on from a degree that improved on the best, and once more past one that did not: a time that
    // falls slowly (a pool that grows as items block) can miss the noise at one step and clear it at the next.
    // Two steps in a row that do not improve stop it.
    private void Decide(int degree, bool improved)
    {
        var again = improved || _misses++ < Patience;
        if (improved)
        {
            _misses = 0;
        }

        if (again && degree < _max)
        {
            _next = Math.Min(degree * 2, _max);
        }
        else
        {
            _narrowed = true;
        }
    }

    private bool CannotWin(double median) => Rival is { } rival && median >= rival * Clear;

    private static double NoiseOf(IReadOnlyList<double> walls)
    {
        var median = Median(walls);
        return median > 0 ? Math.Max(LeastNoise, (walls.Max() - walls.Min()) / (2 * median)) : LeastNoise;
    }

    private static double Median(IReadOnlyList<double> values) => Statistics.MedianEstimate.MedianOf(values);
}
