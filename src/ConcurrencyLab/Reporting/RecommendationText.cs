using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// A <see cref="Recommendation"/> in words, the same in every report: first what to use, then each variant to avoid
/// for a reason of its own, then one line for those that are only much slower. The words are made here and only
/// here; the figures come from the recommendation, the metric names and units from the scenario.
/// </summary>
internal static class RecommendationText
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The most variants named on the line of those that are only slower.</summary>
    public const int SlowerNamed = 6;

    /// <summary>The lines of <paramref name="recommendation"/>, a recommendation of <paramref name="scenario"/>.</summary>
    public static IReadOnlyList<string> Lines(Recommendation recommendation, ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(recommendation);
        ArgumentNullException.ThrowIfNull(scenario);
        var lines = new List<string> { (recommendation.Group is null ? string.Empty : $"At {recommendation.Group}: ") + "Use: " + UseReason(recommendation) };
        lines.AddRange(recommendation.Avoid.Where(a => a is not MuchSlower).Select(a => $"Avoid {a.Variant}: {Reason(a, recommendation, scenario)}."));
        var slower = recommendation.Avoid.OfType<MuchSlower>().ToList();
        if (slower.Count > 0)
        {
            var named = string.Join(", ", slower.Take(SlowerNamed).Select(a => a.Variant)) + (slower.Count > SlowerNamed ? $" and {slower.Count - SlowerNamed} more" : string.Empty);
            lines.Add(slower.Count == 1
                ? $"Avoid {slower[0].Variant}: {Reason(slower[0], recommendation, scenario)}."
                : $"Avoid, as {Analysis.Recommender.SlowRatio.ToString(Invariant)} or more times slower than {recommendation.Fastest}: {named}.");
        }

        return lines;
    }

    /// <summary>Why the recommendation names the variant it does, in a sentence.</summary>
    public static string UseReason(Recommendation r)
    {
        ArgumentNullException.ThrowIfNull(r);
        return r.Because switch
        {
            _ when r.Use is null || r.Because == UseBecause.NoneSound => "none: every variant run failed a trial or gave wrong results.",
            UseBecause.Fastest => $"{r.Use} is the fastest, at {Ms(r.FastestMs)} ms" + (r.AsFast > 1 ? $", and no variant as fast uses fewer threads ({Count(r.UseThreads)})." : "."),
            _ => $"{r.Use} is as fast as {r.Fastest} within the statistics ({Range(r.UseInterval)} ms against {Range(r.FastestInterval)} ms) on {Count(r.UseThreads)} threads against {Count(r.FastestThreads)}"
                + (r.UseCpuMs is { } cpu && r.FastestCpuMs is { } fastestCpu ? $", and {Ms(cpu)} ms of CPU against {Ms(fastestCpu)}." : "."),
        };
    }

    /// <summary>Why <paramref name="reason"/>'s variant is one to avoid, in a clause.</summary>
    public static string Reason(AvoidReason reason, Recommendation recommendation, ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(reason);
        ArgumentNullException.ThrowIfNull(recommendation);
        ArgumentNullException.ThrowIfNull(scenario);
        var fastest = recommendation.Fastest;
        return reason switch
        {
            TrialsFailed f => $"{f.Failed} of {f.Trials} trials {(f.TimedOut ? "timed out" : "failed")}: {f.FirstError.TrimEnd('.')}",
            NoOkTrial => "no trial was ok",
            WrongResults w => "wrong results" + (w.Metrics.Count == 0 ? string.Empty : ": " + string.Join(", ", w.Metrics.Select(m => Wrong(scenario, m.Key, m.Value)))),
            BlocksPoolThreads b => $"blocks pool threads{(b.Service is null ? string.Empty : $" in the {b.Service} service")}: the pool raised its thread target "
                + string.Join(" and ", new[] { b.Starvation >= 1 ? $"{Count(b.Starvation)} times because queued work waited with no thread free" : null, b.Blocking >= 1 ? $"{Count(b.Blocking)} times because its threads blocked on tasks" : null }.OfType<string>())
                + $"; {Ms(b.MedianMs)} ms against {Ms(recommendation.FastestMs)} ms for {fastest}",
            OneCoreBusy c => $"its CPU work ran one item at a time: {c.Cores.ToString("0.0", Invariant)} of {c.ProcessorCount} cores busy, where {fastest} kept {c.FastestCores.ToString("0.0", Invariant)} busy",
            ManyMoreThreads t => $"{(t.AsFast ? "as fast, but" : $"{Times(t.Ratio)} slower than {fastest}, and")} on {Count(t.Threads)} threads against {Count(t.UseThreads)} for {recommendation.Use}",
            BlockedWithCoresIdle i => $"it blocks its threads in the waits: {i.Cores.ToString("0.00", Invariant)} of {i.ProcessorCount} cores busy over {Ms(i.MedianMs)} ms, {Times(i.Ratio)} the time of {fastest}"
                + (i.Degree is { } d && i.PoolThreads is { } p ? $"; it asked for {d} at once and the pool had at most {Count(p)} threads" : string.Empty),
            HeldToItsDegree h => $"it ran at most {h.Degree} items at once: {Times(h.Ratio)} the time of {fastest}",
            MuchSlower s => $"{Times(s.Ratio)} slower than {fastest} ({Ms(s.MedianMs)} ms against {Ms(recommendation.FastestMs)} ms)",
            _ => reason.GetType().Name,
        };
    }

    // A metric that should be 0, named and written as the scenario describes it; by its id where it does not.
    private static string Wrong(ScenarioResult scenario, string id, double value) =>
        scenario.AllMetrics().FirstOrDefault(m => m.Id == id) is { } metric
            ? $"{metric.DisplayName.ToLowerInvariant()} {metric.Write(value)} (should be 0)"
            : $"{id} {value.ToString("0.#", Invariant)} (should be 0)";

    private static string Range(Interval? interval) => interval is { } i ? $"{Ms(i.Low)}-{Ms(i.High)}" : "?";

    private static string Times(double ratio) => $"{Figures.Multiple(ratio)} times";

    private static string Count(double? value) => value is { } v ? Figures.Count(v) : "?";

    private static string Ms(double value) => Figures.Ms(value);
}
