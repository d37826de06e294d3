using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Statistics;

namespace ConcurrencyLab.Analysis;

/// <summary>
/// The stage after running: turns what a run measured (<see cref="RunRecord"/>) into its results, each variant's
/// trials into its summary (only trials with status ok count), and lets each scenario read its own results.
/// </summary>
internal static class Summarizer
{
    /// <summary>The results of <paramref name="run"/>: every scenario summarised.</summary>
    public static RunResult Summarise(RunRecord run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return new RunResult
        {
            ToolVersion = RunResult.CurrentToolVersion,
            StartedAt = run.StartedAt,
            Environment = run.Environment,
            Settings = run.Settings,
            // The claims judged with what the run knows of itself: the machine that measured it, the runtime's settings.
            Scenarios =
            [
                .. run.Scenarios.Select(s =>
                {
                    var result = Summarise(s, run.Environment.ProcessorCount);
                    return result with { Claims = Claims(s.Plan.Scenario, result, run.Environment, run.Settings) };
                }),
            ],
            Cancelled = run.Cancelled,
            Notes = run.Notes,
        };
    }

    /// <summary>
    /// The results of one scenario: each variant's summary against the ideal and the baseline, a note when the
    /// trials ran different workloads, and the scenario's own reading of its results (a failure there costs a
    /// note, never the results).
    /// </summary>
    public static ScenarioResult Summarise(ScenarioRecord scenario) => Summarise(scenario, System.Environment.ProcessorCount);

    /// <summary>
    /// As <see cref="Summarise(ScenarioRecord)"/>, on a machine of <paramref name="processorCount"/> cores: where
    /// the scenario gives no ideal, one is measured from the results (see <see cref="MeasuredIdeal"/>).
    /// </summary>
    public static ScenarioResult Summarise(ScenarioRecord scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (scenario.Ideal.Ms <= 0 && MeasuredIdeal(scenario, processorCount) is { } measured)
        {
            return Summarise(scenario with { Ideal = measured }, processorCount) with { IdealMeasured = true };
        }

        var plan = scenario.Plan;
        var notes = new List<string>(scenario.Notes);
        var grow = plan.Grow;
        var baseline = scenario.Variants.FirstOrDefault(v => v.Variant.Name == plan.Baseline);

        // With --grow, each size has its own ideal and its own baseline: the baseline's variant at that size.
        double IdealOf(Variant v)
            => grow?.SizeOf(v) is { } size && scenario.GrowIdeals.TryGetValue(size, out var bound) && bound.Ms > 0 ? bound.Ms : scenario.Ideal.Ms;
        var baselineLine = baseline is null || grow is null ? null : Growth.LineOf(baseline.Variant.Key, grow.Name);
        var baselineBySize = grow is null || baselineLine is null
            ? []
            : scenario.Variants.Where(o => grow.SizeOf(o.Variant) is not null && Growth.LineOf(o.Variant.Key, grow.Name).Equals(baselineLine))
                .GroupBy(o => grow.SizeOf(o.Variant)!.Value)
                .ToDictionary(g => g.Key, g => MedianWall(g.First()));
        var baselineMedian = baseline is null ? null : MedianWall(baseline);
        double? BaselineOf(Variant v) => grow?.SizeOf(v) is { } size ? baselineBySize.GetValueOrDefault(size) : baselineMedian;

        static double? MedianWall(VariantTrials variant) =>
            variant.Trials.Where(t => t.Status == TrialStatus.Ok).Select(t => t.WallMs).ToList() is { Count: > 0 } ok ? MedianEstimate.MedianOf(ok)
                : null;

        VariantSummary? SummaryOf(VariantTrials v)
        {
            var ideal = IdealOf(v.Variant);
            var summary = Summarise(v.Trials, ideal, BaselineOf(v.Variant), plan.Scenario.Metrics);
            return summary is not null && ideal != scenario.Ideal.Ms ? summary with { IdealMs = ideal } : summary;
        }

        // Variants at different values of a sweep run different work on purpose; within one set of values, the
        // work must be the same.
        var sweeps = plan.Scenario.Variants(plan.Parameters).Sweeps.Select(s => s.Parameter.Name)
            .Concat(grow is { IsSweep: false } ? [grow.Name] : []).ToList();
        var mixed = scenario.Variants
            .GroupBy(v => string.Join(",", sweeps.Select(name => v.Variant.Parameters.GetValueOrDefault(name))))
            .Select(g => g.SelectMany(v => v.Trials).Select(t => t.WorkloadDigest).Where(d => !string.IsNullOrEmpty(d)).Distinct().Count())
            .Where(count => count > 1)
            .ToList();
        if (mixed.Count > 0)
        {
            notes.Add($"trials ran different workloads ({mixed.Max()} digests{(sweeps.Count > 0 ? " at the same sweep " +
                "values" : string.Empty)}): results are not comparable.");
        }

        var result = new ScenarioResult
        {
            Name = plan.Scenario.Name,
            Parameters = plan.Parameters.Values,
            IdealMs = scenario.Ideal.Ms,
            IdealReason = scenario.Ideal.Reason,
            Bounds = scenario.Bounds,
            ItemTimes = scenario.LongestItem is { OnlyWorkload: true, Items: > 0 } floor && grow is null
                ? new ItemLeastTimes { Items = floor.Items, MeanMs = Math.Round(floor.MeanMs, 3), LongestMs = floor.Ms, Timings = floor.Timings,
                    Variants = floor.Variants }
                : null,
            DegreeSearches = scenario.DegreeSearches,
            MachineLoad = scenario.Load,
            Baseline = plan.Baseline,
            Metrics = plan.Scenario.Metrics,
            WorkParameters = plan.WorkParameters(),
            Variants =
            [
                .. scenario.Variants.Select(v => new VariantResult
                {
                    Name = v.Variant.Name,
                    Description = v.Variant.Description,
                    Family = v.Variant.Family,
                    Form = v.Variant.Form,
                    Parameters = v.Variant.Parameters,
                    Status = v.Trials.Count == 0 ? TrialStatus.Failed : VariantStatus(v.Trials),
                    Trials = v.Trials,
                    Summary = SummaryOf(v),
                    Stop = v.Stop,
                }),
            ],
            Notes = notes,
        };
        // What the scenario expects of its trials' metrics, before the answer is made: a variant that strayed is left out of it.
        result = result with { Expectations = plan.Scenario.WeighableExpectations(result.Parameters) };
        if (grow is not null)
        {
            result = result with { Growth = Growth.Of(result, plan.Space
                ?? plan.Scenario.Variants(plan.Parameters), grow.Name,
                    grow.Sizes,
                        grow.Sizes.ToDictionary(size => size, size => scenario.GrowIdeals.TryGetValue(size, out var b) && b.Ms > 0 ? b.Ms : 0)) };
        }

        var answered = Answer(result, processorCount);
        return answered with
        {
            Notes = [.. result.Notes, .. BeatenIdeal(answered), .. Conclude(plan.Scenario, result)],
            Claims = Claims(plan.Scenario, result, null, null),
        };
    }

    /// <summary>
    /// The answer of a scenario's results, as data: each variant's runtime account added up, and the
    /// recommendations on a machine of <paramref name="processorCount"/> cores, made again from these variants
    /// (whatever an earlier result they were put together from held). Every way a scenario's results are made ends here.
    /// </summary>
    internal static ScenarioResult Answer(ScenarioResult result, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(result);
        var variants = result.Variants.Select(v => v with { Account = Accounts.For(v) }).ToList();
        var answered = result with { Variants = variants };
        var recommendations = Recommender.AllFor(answered, processorCount);
        if (LimitedIdeal(answered, recommendations) is { } limited)
        {
            answered = limited;
            recommendations = Recommender.AllFor(answered, processorCount);
        }

        return answered with { Recommendations = recommendations };
    }

    /// <summary>
    /// The results with the ideal a limit inside the items sets, where the answer found one and it is well above the
    /// scenario's own (by a tenth): no more than the limit's slots make progress at once, so the items' least times
    /// added up over the slots bound every variant's time. Each efficiency is then against it. Null where there is no
    /// such limit, several answers (work that differs by group), or a run that grew the work.
    /// </summary>
    internal static ScenarioResult? LimitedIdeal(ScenarioResult result, IReadOnlyList<Recommendation> recommendations)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(recommendations);
        if (recommendations is not [{ Limit: { } limit }] || result.Growth is not null || limit.BoundMs <= 1.1 * Math.Max(0, result.IdealMs))
        {
            return null;
        }

        var before = result.IdealMs > 0
            ? $"; the scenario's own bound, {NumberText.Ms(result.IdealMs)} ms ({result.IdealReason.TrimEnd('.')}), assumes no such " +
                $"limit" : string.Empty;
        var reason = $"measured: a limit inside the items lets about " +
            $"{limit.AtOnce.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture)} make progress at once (the answer says how " +
            $"the run shows it), so {limit.Items} items of {NumberText.Ms(limit.ItemLeastMs)} ms at their least need " +
            $"{NumberText.Ms(limit.BoundMs)} ms in {limit.Slots} slot{(limit.Slots == 1 ? string.Empty : "s")}{before}";
        return result with
        {
            IdealMs = limit.BoundMs,
            IdealReason = reason,
            IdealMeasured = true,
            Variants =
            [
                .. result.Variants.Select(v => v.Summary is { IdealMs: null } summary
                    ? v with { Summary = summary with { Efficiency = EfficiencyOf(limit.BoundMs, summary.MedianWallMs) } }
                    : v),
            ],
        };
    }

    // The post's claims judged on the run, by the scenario that reproduces a post (ConcurrencyLab.Reproduction);
    // none for any other.
    private static IReadOnlyList<ClaimResult> Claims(Scenario scenario, ScenarioResult result, EnvironmentInfo? machine, RunSettings? settings) =>
        scenario is IJudgedByClaims judged ? judged.JudgeClaims(result, machine, settings) : [];

    /// <summary>
    /// A note for each variant whose median is below the ideal: the bound was wrong, by how much, and the variant's
    /// efficiency is left out rather than said above 1.
    /// </summary>
    internal static IEnumerable<string> BeatenIdeal(ScenarioResult result)
    {
        ArgumentNullException.ThrowIfNull(result);

        // Each variant against its own ideal: the scenario's, or with --grow the one at its size.
        foreach (var variant in result.Variants.Where(v => v.Summary is { } s && (s.IdealMs ?? result.IdealMs) is > 0 and var ideal
            && s.MedianWallMs < ideal))
        {
            var summary = variant.Summary!;
            var idealMs = summary.IdealMs ?? result.IdealMs;
            var reason = summary.IdealMs is null ? result.IdealReason : "the ideal at its size";
            var within = summary.CiHighMs >= idealMs ? ", within its interval" : string.Empty;
            yield return $"the ideal is not a lower bound here: {variant.Name}'s median, {NumberText.Ms(summary.MedianWallMs)} ms " +
                $"({NumberText.Ms(summary.CiLowMs)}-{NumberText.Ms(summary.CiHighMs)} ms), is below it ({NumberText.Ms(idealMs)} ms: " +
                $"{reason}) by {NumberText.Ms(idealMs - summary.MedianWallMs)} ms{within}, so the bound is in error and {variant.Name} has " +
                $"no efficiency.";
        }
    }

    /// <summary>The scenario's reading of its results; a failure there costs a note, never the results.</summary>
    private static IReadOnlyList<string> Conclude(Scenario scenario, ScenarioResult result)
    {
        try
        {
            return [.. scenario.Conclusions(result)];
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            return [$"the scenario's conclusions could not be drawn: {TrialFailure.Describe(ex)}"];
        }
    }

    /// <summary>
    /// A lower bound measured from the results, for a scenario that gives none: the longest item at its fastest
    /// (each item's least time in any trial of any variant and form, the longest of those), or all cores busy
    /// with the least CPU any trial used, whichever is longer. Each holds for every trial: a run lasts at least as
    /// long as each of its items took in it, and at least its CPU time spread over every core. Without item
    /// times (a record from before they were kept), the sequential variants' longest gap stands in, as before.
    /// Null when the trials recorded neither. A bound the scenario gives always wins over this one.
    /// </summary>
    internal static IdealBound? MeasuredIdeal(ScenarioRecord scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var ok = scenario.Variants
            .SelectMany(v => v.Trials.Where(t => t.Status == TrialStatus.Ok).Select(t => (v.Variant.Name, Trial: t)))
            .ToList();
        var cores = Math.Max(1, processorCount);
        var cpu = Least(StandardMetrics.Cpu);
        var cpuBound = cpu.Ms / cores;
        string? itemText;
        double? itemMs;
        if (scenario.LongestItem is { } longest)
        {
            itemMs = longest.Ms;
            itemText = $"the longest item at its fastest (item {longest.Index + 1} of {longest.Items}: {Ms(longest.Ms)} ms, the least of " +
                $"its {longest.Timings} timings in {longest.Variants} variant{(longest.Variants == 1 ? string.Empty : "s")})";
        }
        else
        {
            var gap = Least(StandardMetrics.LongestItem);
            itemMs = gap.Ms;
            itemText = gap.Ms is { } g ? $"the longest item alone ({Ms(g)} ms, in {gap.Name})" : null;
        }

        if (Math.Max(itemMs ?? 0, cpuBound ?? 0) <= 0)
        {
            return null;
        }

        var cpuText = cpu.Ms is { } c
            ? $"all {cores} cores busy with the least CPU any trial used ({Ms(c)} ms, {cpu.Name}: {Ms(c / cores)} ms)" : null;
        var binds = (itemMs ?? 0) >= (cpuBound ?? 0) ? "the longest item binds" : "the CPU binds";
        var reason = itemText is not null && cpuText is not null
            ? $"measured: {itemText} or {cpuText}, whichever is longer; {binds}" : $"measured: {itemText ?? cpuText}";
        return new IdealBound(Math.Max(itemMs ?? 0, cpuBound ?? 0), reason);

        // The trial with the least of a metric, its variant and that value: the least, not a median, since the
        // bound must hold for every trial; a trial that read 0 makes the bound 0, rather than be passed over. No
        // name and no value when none has it.
        (string? Name, double? Ms) Least(Metric metric)
        {
            var values = ok.Select(t => (t.Name, Ms: t.Trial.Value(metric))).Where(v => v.Ms >= 0 && double.IsFinite(v.Ms.Value)).ToList();
            return values.Count == 0 ? (null, null) : values.MinBy(v => v.Ms);
        }

        static string Ms(double value) => StandardMetrics.WallTime.Write(value);
    }

    /// <summary>Summarises <paramref name="trials"/>; null when none succeeded.</summary>
    /// <param name="trials">The variant's measured trials.</param>
    /// <param name="idealMs">The scenario's ideal; 0 or less when unknown, which leaves efficiency out.</param>
    /// <param name="baselineMedianMs">The baseline's median wall time, when it has one.</param>
    /// <param name="scenarioMetrics">The scenario's own metrics, whose descriptors say how to take their medians.</param>
    public static VariantSummary? Summarise(
        IReadOnlyList<TrialResult> trials,
        double idealMs,
        double? baselineMedianMs,
        IReadOnlyList<Metric> scenarioMetrics)
    {
        ArgumentNullException.ThrowIfNull(trials);
        ArgumentNullException.ThrowIfNull(scenarioMetrics);
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
            // A variant faster than the ideal shows the ideal is no bound: that is said in the scenario's notes
            // (BeatenIdeal), never as an efficiency above 1.
            Efficiency = EfficiencyOf(idealMs, wall.Median),
            RatioToBaseline = baselineMedianMs is > 0 ? wall.Median / baselineMedianMs.Value : null,
            Spread = min > 0 ? max / min : 0,
            Medians = VariantSummary.MediansOf(ok, scenarioMetrics),
        };
    }

    /// <summary>The ideal over a median, where the ideal is known (above 0) and not beaten; null otherwise.</summary>
    private static double? EfficiencyOf(double idealMs, double medianMs) => idealMs > 0 && medianMs >= idealMs ? idealMs / medianMs : null;

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
