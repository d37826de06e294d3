using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Statistics;

/// <summary>Turns a variant's trials into its summary; only trials with status ok count.</summary>
public static class Summarizer
{
    /// <summary>Summarises <paramref name="trials"/>; null when none succeeded.</summary>
    /// <param name="trials">The variant's measured trials.</param>
    /// <param name="idealMs">The scenario's ideal; 0 or less when unknown, which leaves efficiency out.</param>
    /// <param name="baselineMedianMs">The baseline's median wall time, when it has one.</param>
    /// <param name="scenarioMetrics">The scenario's own metrics, whose descriptors say how to take their medians.</param>
    public static VariantSummary? Summarise(IReadOnlyList<TrialResult> trials, double idealMs, double? baselineMedianMs, IReadOnlyList<Metric>? scenarioMetrics = null)
    {
        ArgumentNullException.ThrowIfNull(trials);
        var ok = trials.Where(t => t.Status == TrialStatus.Ok).ToList();
        if (ok.Count == 0)
        {
            return null;
        }

        var wall = MedianEstimate.Of(ok.Select(t => t.WallMs).ToList());
        var min = ok.Min(t => t.WallMs);
        var max = ok.Max(t => t.WallMs);
        return new VariantSummary
        {
            Trials = ok.Count,
            MedianWallMs = wall.Median,
            MinWallMs = min,
            MaxWallMs = max,
            CiLowMs = wall.Low,
            CiHighMs = wall.High,
            Efficiency = idealMs > 0 && wall.Median > 0 ? idealMs / wall.Median : null,
            RatioToBaseline = baselineMedianMs is > 0 ? wall.Median / baselineMedianMs.Value : null,
            Spread = min > 0 ? max / min : 0,
            Medians = VariantSummary.MediansOf(ok, scenarioMetrics ?? []),
        };
    }

    /// <summary>The status of a variant: ok only when every trial was; otherwise the worst seen.</summary>
    public static TrialStatus VariantStatus(IReadOnlyList<TrialResult> trials)
    {
        ArgumentNullException.ThrowIfNull(trials);
        if (trials.Any(t => t.Status == TrialStatus.Failed))
        {
            return TrialStatus.Failed;
        }

        return trials.Any(t => t.Status == TrialStatus.Timeout) ? TrialStatus.Timeout : TrialStatus.Ok;
    }
}
