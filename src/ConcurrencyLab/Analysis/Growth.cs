using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace ConcurrencyLab.Analysis;

/// <summary>Fits how each variant's time grew with a parameter grown by <c>--grow</c> (see <see cref="GrowthResult"/>).</summary>
internal static class Growth
{
    /// <summary>
    /// The growth of <paramref name="scenario"/>'s variants over <paramref name="parameter"/>'s <paramref name="sizes"/>,
    /// against the ideal at each (<paramref name="idealsMs"/>, by size; 0 or absent where there is none). A line is
    /// the variants whose keys differ only in the size, named by <paramref name="space"/>.
    /// </summary>
    public static GrowthResult Of(
        ScenarioResult scenario,
        VariantSpace space,
        string parameter,
        IReadOnlyList<int> sizes,
        IReadOnlyDictionary<int, double> idealsMs)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(space);
        ArgumentNullException.ThrowIfNull(parameter);
        ArgumentNullException.ThrowIfNull(sizes);
        ArgumentNullException.ThrowIfNull(idealsMs);
        var ideals = sizes.Select(s => idealsMs.TryGetValue(s, out var ms) && ms > 0 && double.IsFinite(ms) ? ms : 0).ToList();
        var idealExponent = ideals.All(i => i > 0) ? Fit([.. sizes.Select((s, i) => (s, ideals[i]))]).Exponent : null;
        // A degree searched at each size (--dop auto) may differ from size to size: its line is the strategy's at
        // the degree found, foreach-async@auto.
        var searched = scenario.DegreeSearches.Select(d => d.Variant).ToHashSet(StringComparer.Ordinal);
        var lines = scenario.Variants
            .Where(v => v.WholeNumber(parameter) is { } size && sizes.Contains(size))
            .Select(v => (Variant: v, Key: space.KeyOf(v)))
            .Where(v => v.Key is not null)
            .GroupBy(v => LineOf(searched.Contains(v.Variant.Name) ? Searched(v.Key!) : v.Key!, parameter), v => v.Variant)
            .Select(line =>
            {
                var at = sizes.Select(s => line.FirstOrDefault(v => v.WholeNumber(parameter) == s)).ToList();
                var medians = at.Select(v => v?.Summary?.MedianWallMs).ToList();
                var points = line
                    .SelectMany(
                        v => v.Trials.Where(t => t.Status == TrialStatus.Ok && t.WallMs > 0 && double.IsFinite(t.WallMs))
                            .Select(t => (Size: v.WholeNumber(parameter)!.Value, t.WallMs)))
                    .ToList();
                var fit = Fit(points);
                return new LineGrowth
                {
                    Line = space.NameOf(line.Key),
                    MediansMs = medians,
                    Exponent = fit.Exponent,
                    ExponentLow = fit.Low,
                    ExponentHigh = fit.High,
                    StopsKeepingUpAt = StopsAt(sizes, medians, ideals),
                };
            })
            .OrderBy(l => l.Exponent ?? double.MaxValue)
            .ThenBy(l => l.Line, StringComparer.Ordinal)
            .ToList();
        var baseline = scenario.Variants.FirstOrDefault(v => v.Name == scenario.Baseline) is { } first && space.KeyOf(first) is { } key
            ? space.NameOf(LineOf(key, parameter))
            : null;
        return new GrowthResult { Parameter = parameter, Sizes = sizes, IdealsMs = ideals, IdealExponent = idealExponent, Lines = lines,
            BaselineLine = baseline };
    }

    /// <summary>
    /// The least-squares slope of ln(time) against ln(size) and its 95% interval (Student's t on the residuals);
    /// no slope with fewer than two sizes, no interval with fewer than three points.
    /// </summary>
    public static (double? Exponent, double? Low, double? High) Fit(IReadOnlyList<(int Size, double Ms)> points)
    {
        ArgumentNullException.ThrowIfNull(points);
        var usable = points.Where(p => p.Size > 0 && p.Ms > 0 && double.IsFinite(p.Ms)).Select(p => (X: Math.Log(p.Size), Y: Math.Log(p.Ms)))
            .ToList();
        if (usable.Select(p => p.X).Distinct().Count() < 2)
        {
            return (null, null, null);
        }

        var meanX = usable.Average(p => p.X);
        var meanY = usable.Average(p => p.Y);
        var sxx = usable.Sum(p => (p.X - meanX) * (p.X - meanX));
        var slope = usable.Sum(p => (p.X - meanX) * (p.Y - meanY)) / sxx;
        if (usable.Count < 3)
        {
            return (slope, null, null);
        }

        var intercept = meanY - (slope * meanX);
        var residuals = usable.Sum(p => Math.Pow(p.Y - (intercept + (slope * p.X)), 2));
        var error = Math.Sqrt(residuals / (usable.Count - 2) / sxx);
        var t = new StudentDistribution(usable.Count - 2).Quantile(0.975);
        return (slope, slope - (t * error), slope + (t * error));
    }

    // The first size at which, from the size before it, the line's time grew faster than the ideal's by at least
    // the threshold in exponent (against a flat ideal where the ideal is unknown); null when it kept up.
    private static int? StopsAt(IReadOnlyList<int> sizes, List<double?> medians, List<double> ideals)
    {
        for (var i = 1; i < sizes.Count; i++)
        {
            if (medians[i - 1] is not > 0 || medians[i] is not > 0)
            {
                continue;
            }

            var span = Math.Log((double)sizes[i] / sizes[i - 1]);
            var local = Math.Log(medians[i]!.Value / medians[i - 1]!.Value) / span;
            var ideal = ideals[i - 1] > 0 && ideals[i] > 0 ? Math.Log(ideals[i] / ideals[i - 1]) / span : 0;
            if (local - ideal >= GrowthResult.StopsKeepingUp)
            {
                return sizes[i];
            }
        }

        return null;
    }

    // foreach-async@32:items=100 as foreach-async@auto:items=100.
    private static VariantKey Searched(VariantKey key) =>
        key.WholeNumber(BatchVariant.DegreeName) is null ? key : key.With(BatchVariant.DegreeName, VariantValue.Of(BatchScenario.SearchWord));

    /// <summary>A variant's line: its key without the size, <c>parallel-for@4</c> for <c>parallel-for@4:items=1000</c>.</summary>
    public static VariantKey LineOf(VariantKey variant, string parameter)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return variant.Without(parameter);
    }
}
