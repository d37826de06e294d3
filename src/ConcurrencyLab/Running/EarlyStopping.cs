using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Statistics;

namespace ConcurrencyLab.Running;

/// <summary>
/// Adaptive trial counts: after each measured round, which variants have had enough trials. A variant stops once it
/// has <see cref="MinimumTrials"/> ok trials and lies wholly above <see cref="OutOfContentionRatio"/> times the
/// fastest variant's interval (more trials could not make it the answer); in a scenario whose variants no post's
/// claims judge (<see cref="Scenario.MayStopAfterTwoTrials"/>), already after <see cref="FarMinimumTrials"/> when both
/// lie above <see cref="FarOutOfContentionRatio"/> times the fastest's; or once it has
/// <see cref="TightMinimumTrials"/> and an interval within <see cref="TightShare"/> of its median either side (more
/// would only narrow it). A variant with a failed or
/// timed-out trial runs them all: its failures are the finding. Variants are weighed only against those running the
/// same work (<see cref="ScenarioPlan.WorkParameters"/>). docs/method.md says what this does to the statistics.
/// </summary>
internal static class EarlyStopping
{
    /// <summary>
    /// The fewest ok trials a variant has before it may stop: as many as a claim's interval needs
    /// (the reproducer's Decide.MinimumTrials, which a test holds equal to this), so stopping early never leaves a claim unjudged.
    /// </summary>
    public const int MinimumTrials = 3;

    /// <summary>
    /// A variant whose interval's low end is above this multiple of the fastest's interval's high end is out of
    /// contention: the multiple at which the answer lists a variant as slow (<see cref="Analysis.Recommender.SlowRatio"/>).
    /// </summary>
    public const double OutOfContentionRatio = 2;

    /// <summary>
    /// The fewest ok trials before a variant far out of contention may stop, where no claim needs three of it: with
    /// two, the lab's interval is the two trials' range.
    /// </summary>
    public const int FarMinimumTrials = 2;

    /// <summary>
    /// With <see cref="FarMinimumTrials"/>, the multiple of the fastest's high end (its slowest trial then) that both
    /// of a variant's trials must lie above: twice <see cref="OutOfContentionRatio"/>, since two trials' range says
    /// less than three trials' interval (docs/method.md).
    /// </summary>
    public const double FarOutOfContentionRatio = 2 * OutOfContentionRatio;

    /// <summary>
    /// The fewest ok trials before a variant may stop as tight: under 5, the lab's interval is little more than the
    /// range of the trials (three that happen to agree say little of the fourth); from 5 on it is the Harrell-Davis
    /// interval proper. Measured: a variant whose first three trials lay within 2% (705-722 ms) had a median of 683
    /// ms and an interval of 628-773 over six in the run before.
    /// </summary>
    public const int TightMinimumTrials = 5;

    /// <summary>A variant whose interval lies within this share of its median on either side is tight: 2%,
    /// BenchmarkDotNet's own default for the error at which it stops iterating.</summary>
    public const double TightShare = 0.02;

    /// <summary>The fewest ok trials a variant of <paramref name="scenario"/> has before it may stop.</summary>
    public static int FewestTrials(Scenario scenario) =>
        scenario is { MayStopAfterTwoTrials: true } ? FarMinimumTrials : MinimumTrials;

    /// <summary>
    /// The variants among <paramref name="running"/> that stop after this round, by name, each weighed against the
    /// fastest sound variant of its work group in <paramref name="all"/> (stopped ones included, whose trials are final).
    /// </summary>
    /// <param name="running">The variants still running.</param>
    /// <param name="all">Every variant's measured trials so far, by name.</param>
    /// <param name="phase">The variants running the same work as <paramref name="running"/> in this phase (stopped ones included).</param>
    /// <param name="groupOf">A variant's work group: variants in different groups run different work.</param>
    /// <param name="planned">The most measured trials a variant may have.</param>
    /// <param name="fewest">The fewest ok trials before a variant may stop (<see cref="FewestTrials"/>).</param>
    /// <param name="expected">
    /// What the scenario expects of its trials' metrics (<see cref="Scenario.Expectations"/>): a variant whose trials
    /// stray from it ran other work, which the answer leaves out, so no other variant stops against it.
    /// </param>
    public static IReadOnlyDictionary<string, EarlyStop> After(
        IReadOnlyList<Variant> running,
        IReadOnlyDictionary<string, List<TrialResult>> all,
        IReadOnlyList<Variant> phase,
        Func<Variant, string> groupOf,
        int planned,
        int fewest = MinimumTrials,
        IReadOnlyList<ExpectedMetric>? expected = null)
    {
        ArgumentNullException.ThrowIfNull(running);
        ArgumentNullException.ThrowIfNull(all);
        ArgumentNullException.ThrowIfNull(phase);
        ArgumentNullException.ThrowIfNull(groupOf);

        // Each sound variant's estimate, made once; then each group's fastest, with enough trials to have an
        // interval worth weighing against.
        var estimates = phase
            .Select(v => (Variant: v, Estimate: Sound(all.GetValueOrDefault(v.Name) ?? [], fewest)))
            .Where(p => p.Estimate is not null)
            .ToDictionary(p => p.Variant.Name, p => (p.Variant, Estimate: p.Estimate!.Value), StringComparer.Ordinal);
        var fastest = estimates.Values
            .Where(p => !Strays(all.GetValueOrDefault(p.Variant.Name) ?? [], expected ?? []))
            .GroupBy(p => groupOf(p.Variant), StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.MinBy(p => p.Estimate.Median), StringComparer.Ordinal);

        var stops = new Dictionary<string, EarlyStop>(StringComparer.Ordinal);
        foreach (var variant in running)
        {
            var trials = all.GetValueOrDefault(variant.Name) ?? [];
            if (trials.Count >= planned || !estimates.TryGetValue(variant.Name, out var mine))
            {
                continue;
            }

            var own = mine.Estimate;
            if (fastest.TryGetValue(groupOf(variant), out var best) && best.Variant.Name != variant.Name
                && RatioFor(trials.Count, all.GetValueOrDefault(best.Variant.Name)?.Count ?? 0) is var ratio
                && own.Low > ratio * best.Estimate.High)
            {
                stops[variant.Name] = Stop(EarlyStopReason.OutOfContention, trials.Count, planned, own) with
                {
                    Fastest = best.Variant.Name,
                    FastestCiHighMs = best.Estimate.High,
                    Ratio = ratio,
                };
            }
            else if (trials.Count >= TightMinimumTrials && own.High - own.Low <= 2 * TightShare * own.Median)
            {
                stops[variant.Name] = Stop(EarlyStopReason.Tight, trials.Count, planned, own);
            }
        }

        return stops;
    }

    // Intervals of three trials or more on both sides are weighed at 2x; where either side has fewer, at 4x.
    private static double RatioFor(int trials, int fastestTrials) =>
        Math.Min(trials, fastestTrials) >= MinimumTrials ? OutOfContentionRatio : FarOutOfContentionRatio;

    // Whether the trials' median of a metric the scenario expects a value of lies beyond its tolerance, as the answer
    // would judge it (Recommender.Unlike): trials that did not record the metric say nothing.
    private static bool Strays(List<TrialResult> trials, IReadOnlyList<ExpectedMetric> expected) =>
        expected.Any(e =>
        {
            var values = trials.Where(t => t.Status == TrialStatus.Ok && t.Metrics.ContainsKey(e.Metric)).Select(t => t.Metrics[e.Metric])
                .Where(double.IsFinite).ToList();
            return values.Count > 0 && !e.Holds(MedianEstimate.MedianOf(values));
        });

    // The estimate of a variant whose every trial so far was ok and who has enough of them; null otherwise.
    private static MedianEstimate? Sound(List<TrialResult> trials, int fewest) =>
        trials.Count >= fewest && trials.All(t => t.Status == TrialStatus.Ok)
            ? MedianEstimate.Of([.. trials.Select(t => t.WallMs)])
            : null;

    private static EarlyStop Stop(EarlyStopReason reason, int trials, int planned, MedianEstimate own) => new()
    {
        Reason = reason,
        Trials = trials,
        Planned = planned,
        MedianMs = own.Median,
        CiLowMs = own.Low,
        CiHighMs = own.High,
    };
}
