using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>A variant to avoid, and why, in one line drawn from what was measured.</summary>
/// <param name="Variant">The variant's name.</param>
/// <param name="Reason">Why, with the figures.</param>
/// <param name="OnlySlower">Whether its only reason is that it is much slower, so reports list it with the others like it.</param>
internal sealed record Avoid(string Variant, string Reason, bool OnlySlower = false);

/// <summary>
/// The answer after a scenario's table: the fastest variant; the one to use, which is the cheapest (fewest
/// peak threads, then least CPU) that the statistics cannot tell apart from the fastest (their 95% intervals
/// of the median overlap); and the variants to avoid, each with a reason computed from the results. Every
/// sentence comes from the results alone, so the same file always gives the same answer.
/// </summary>
/// <param name="Fastest">The variant with the lowest median wall time.</param>
/// <param name="Use">The variant to use; null when every variant failed a trial or gave wrong results.</param>
/// <param name="UseReason">Why that one, in a sentence.</param>
/// <param name="Avoid">The variants to avoid, worst reasons first.</param>
internal sealed record Recommendation(string Fastest, string? Use, string UseReason, IReadOnlyList<Avoid> Avoid)
{
    /// <summary>Where variants run different work (<see cref="ScenarioResult.WorkParameters"/>), what the group is: <c>requests=1000</c>; null when they all run the same.</summary>
    public string? Group { get; init; }

    /// <summary>
    /// A recommendation for each set of values of the scenario's work parameters (one when it has none), in
    /// the order of the values: variants that run different work are not weighed against each other.
    /// </summary>
    public static IReadOnlyList<Recommendation> AllFor(ScenarioResult scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (scenario.WorkParameters.Count == 0)
        {
            return For(scenario, processorCount) is { } only ? [only] : [];
        }

        return
        [
            .. scenario.Variants
                .GroupBy(v => string.Join(" ", scenario.WorkParameters.Select(p => $"{p}={v.Parameters.GetValueOrDefault(p, "-")}")))
                .OrderBy(g => g.Max(v => scenario.WorkParameters.Select(p => v.WholeNumber(p) ?? 0).DefaultIfEmpty().Sum()))
                .ThenBy(g => g.Key, StringComparer.Ordinal)
                .Select(g => For(scenario with { Variants = [.. g] }, processorCount) is { } r ? r with { Group = g.Key } : null)
                .OfType<Recommendation>(),
        ];
    }

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>A variant this many times slower than the fastest, with no other reason, is listed as slow.</summary>
    public const double SlowRatio = 2;

    /// <summary>As fast, but this many times the threads of the one to use (and at least <see cref="ExtraThreads"/> more) is a cost to avoid.</summary>
    public const double ThreadsRatio = 2;

    /// <summary>See <see cref="ThreadsRatio"/>.</summary>
    public const int ExtraThreads = 8;

    /// <summary>Fewer cores busy than this, on average, while much slower than the fastest: the threads were blocked, not working.</summary>
    public const double IdleCores = 0.25;

    /// <summary>The recommendation for <paramref name="scenario"/>, or null when no variant had an ok trial.</summary>
    public static Recommendation? For(ScenarioResult scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var ok = ResultColumn.Order(scenario).Where(v => v.Summary is not null).ToList();
        if (ok.Count == 0)
        {
            return null;
        }

        // Only a variant whose every trial was ok and whose results were right can be recommended.
        var sound = ok.Where(v => v.Trials.All(t => t.Status == TrialStatus.Ok) && Flags(scenario, v).Count == 0).ToList();
        var fastest = sound.Count > 0 ? sound[0] : ok[0];
        var best = fastest.Summary!;
        if (sound.Count == 0)
        {
            return new Recommendation(fastest.Name, null, "none: every variant run failed a trial or gave wrong results.", [.. scenario.Variants.Select(v => ReasonToAvoid(scenario, v, fastest, fastest, false, processorCount)).OfType<(int Rank, Avoid Item)>().OrderBy(a => a.Rank).Select(a => a.Item)]);
        }

        // Indistinguishable from the fastest: the intervals of the two medians overlap.
        var tied = sound.Where(v => v.Summary!.CiLowMs <= best.CiHighMs).ToList();
        var use = tied.OrderBy(v => Threads(v) ?? double.MaxValue).ThenBy(v => Cpu(v) ?? double.MaxValue).ThenBy(v => v.Summary!.MedianWallMs).First();
        var useReason = use == fastest
            ? $"{use.Name} is the fastest, at {Ms(best.MedianWallMs)} ms" + (tied.Count > 1 ? $", and no variant as fast uses fewer threads ({Count(Threads(use))})." : ".")
            : $"{use.Name} is as fast as {fastest.Name} within the statistics ({Ms(use.Summary!.CiLowMs)}-{Ms(use.Summary.CiHighMs)} ms against {Ms(best.CiLowMs)}-{Ms(best.CiHighMs)} ms) on {Count(Threads(use))} threads against {Count(Threads(fastest))}"
                + (Cpu(use) is { } cpu && Cpu(fastest) is { } fastestCpu ? $", and {Ms(cpu)} ms of CPU against {Ms(fastestCpu)}." : ".");

        var avoid = new List<(int Rank, Avoid Item)>();
        foreach (var variant in scenario.Variants.Where(v => v.Name != use.Name))
        {
            if (ReasonToAvoid(scenario, variant, use, fastest, tied.Contains(variant), processorCount) is { } reason)
            {
                avoid.Add(reason);
            }
        }

        return new Recommendation(fastest.Name, use.Name, useReason, [.. avoid.OrderBy(a => a.Rank).ThenBy(a => a.Item.Variant, StringComparer.Ordinal).Select(a => a.Item)]);
    }

    // The first rule that fires, by how much it should worry a reader: wrong answers, then waste, then slowness.
    private static (int Rank, Avoid Item)? ReasonToAvoid(ScenarioResult scenario, VariantResult variant, VariantResult use, VariantResult fastest, bool asFast, int processorCount)
    {
        var failed = variant.Trials.Where(t => t.Status != TrialStatus.Ok).ToList();
        if (failed.Count > 0)
        {
            var first = failed[0].Error ?? failed[0].Status.ToText();
            return (0, new Avoid(variant.Name, $"{failed.Count} of {variant.Trials.Count} trials {(failed.All(t => t.Status == TrialStatus.Timeout) ? "timed out" : "failed")}: {first.TrimEnd('.')}"));
        }

        if (variant.Summary is not { } summary)
        {
            return (0, new Avoid(variant.Name, "no trial was ok"));
        }

        var flags = Flags(scenario, variant);
        if (flags.Count > 0)
        {
            return (1, new Avoid(variant.Name, "wrong results: " + string.Join(", ", flags.Select(m => $"{m.DisplayName.ToLowerInvariant()} {m.Write(summary.Median(m)!.Value)} (should be 0)"))));
        }

        // The pool's injections, in the trial's process or in the service it drove (fanout's product service).
        foreach (var (where, starved, blocking) in new[]
        {
            (string.Empty, summary.Median(StandardMetrics.StarvationInjections) ?? 0, summary.Median(StandardMetrics.BlockingInjections) ?? 0),
            ($" in the {variant.Trials.Select(t => t.Service?.Name).FirstOrDefault(n => n is not null)} service", ServiceMedian(variant, StandardMetrics.StarvationInjections), ServiceMedian(variant, StandardMetrics.BlockingInjections)),
        })
        {
            if (starved + blocking >= 1)
            {
                var kinds = string.Join(" and ", new[] { starved >= 1 ? $"{Count(starved)} because queued work waited with no thread free" : null, blocking >= 1 ? $"{Count(blocking)} because its threads blocked on tasks" : null }.OfType<string>());
                return (2, new Avoid(variant.Name, $"blocks pool threads{where}: the runtime added {kinds}; {Ms(summary.MedianWallMs)} ms against {Ms(fastest.Summary!.MedianWallMs)} ms for {fastest.Name}"));
            }
        }

        var cores = summary.Median(StandardMetrics.CoresUsed);
        var fastestCores = fastest.Summary!.Median(StandardMetrics.CoresUsed);
        if (processorCount >= 2 && cores is >= 0.8 and <= 1.2 && fastestCores >= 1.5 && !asFast)
        {
            return (3, new Avoid(variant.Name, $"its CPU work ran one item at a time: {cores.Value.ToString("0.0", Invariant)} of {processorCount} cores busy, where {fastest.Name} kept {fastestCores.Value.ToString("0.0", Invariant)} busy"));
        }

        var ratio = summary.MedianWallMs / fastest.Summary.MedianWallMs;
        if (Threads(variant) is { } threads && Threads(use) is { } fewest && threads >= ThreadsRatio * fewest && threads >= fewest + ExtraThreads)
        {
            var speed = asFast ? "as fast, but" : $"{Times(ratio)} slower than {fastest.Name}, and";
            return (4, new Avoid(variant.Name, $"{speed} on {Count(threads)} threads against {Count(fewest)} for {use.Name}"));
        }

        // Much slower, calling blocking code, with the cores idle, and never given the threads its degree asked
        // for (the calling thread counts as one, as Parallel.For uses it): its threads sat blocked in the waits.
        // Given them, the degree is what held it back.
        var degree = variant.WholeNumber(Scenarios.BatchVariant.DegreeName);
        var poolThreads = summary.Median(StandardMetrics.PeakPoolThreads);
        if (ratio >= SlowRatio && variant.Form == Workloads.WorkForm.Sync && cores is { } idle && idle < IdleCores && (degree is null || poolThreads + 1 < degree))
        {
            var shortOf = degree is { } d && poolThreads is { } p ? $"; it asked for {d} at once and the pool had at most {Count(p)} threads" : string.Empty;
            return (4, new Avoid(variant.Name, $"it blocks its threads in the waits: {idle.ToString("0.00", Invariant)} of {processorCount} cores busy over {Ms(summary.MedianWallMs)} ms, {Times(ratio)} the time of {fastest.Name}{shortOf}"));
        }

        if (ratio >= SlowRatio && degree is { } limit)
        {
            return (4, new Avoid(variant.Name, $"it ran at most {limit} items at once: {Times(ratio)} the time of {fastest.Name}"));
        }

        return ratio >= SlowRatio
            ? (5, new Avoid(variant.Name, $"{Times(ratio)} slower than {fastest.Name} ({Ms(summary.MedianWallMs)} ms against {Ms(fastest.Summary.MedianWallMs)} ms)", OnlySlower: true))
            : null;
    }

    // The median over the ok trials of a metric of the service the trial drove; 0 where none recorded it.
    private static double ServiceMedian(VariantResult variant, Metric metric) =>
        Statistics.MedianEstimate.MedianOf(variant.Trials.Where(t => t.Status == TrialStatus.Ok).Select(t => t.Service?.Value(metric)).OfType<double>());

    private static List<Metric> Flags(ScenarioResult scenario, VariantResult variant) =>
        [.. ResultColumn.MetricsOf(scenario).Where(m => m.FlagsWhenNotZero && variant.Summary?.Median(m) is not (null or 0))];

    private static string Times(double ratio) => $"{ratio.ToString(ratio >= 10 ? "0" : "0.0", Invariant)} times";

    /// <summary>The most variants named on the line of those that are only slower.</summary>
    public const int SlowerNamed = 6;

    /// <summary>
    /// The recommendation as lines of text, the same in every report: first what to use, then each variant to
    /// avoid for a reason of its own, then one line for those that are only much slower.
    /// </summary>
    public IReadOnlyList<string> Lines()
    {
        var lines = new List<string> { (Group is null ? string.Empty : $"At {Group}: ") + "Use: " + UseReason };
        lines.AddRange(Avoid.Where(a => !a.OnlySlower).Select(a => $"Avoid {a.Variant}: {a.Reason}."));
        var slower = Avoid.Where(a => a.OnlySlower).ToList();
        if (slower.Count > 0)
        {
            var named = string.Join(", ", slower.Take(SlowerNamed).Select(a => a.Variant)) + (slower.Count > SlowerNamed ? $" and {slower.Count - SlowerNamed} more" : string.Empty);
            lines.Add(slower.Count == 1 ? $"Avoid {slower[0].Variant}: {slower[0].Reason}." : $"Avoid, as {SlowRatio.ToString(Invariant)} or more times slower than {Fastest}: {named}.");
        }

        return lines;
    }

    private static double? Threads(VariantResult variant) => variant.Summary?.Median(StandardMetrics.PeakThreads) is >= 0 and var threads ? threads : null;

    private static double? Cpu(VariantResult variant) => variant.Summary?.Median(StandardMetrics.Cpu);

    private static string Count(double? value) => value is { } v ? v.ToString("0.#", Invariant) : "?";

    private static string Ms(double value) => StandardMetrics.WallTime.Write(value);
}
