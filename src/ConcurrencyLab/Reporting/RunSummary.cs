using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// One line per scenario across a run, for the summary that ends it: the fastest variant, the one to use and its
/// efficiency, and how the published claims the run tested fared. Every cell comes from the results.
/// </summary>
/// <param name="Scenario">The scenario.</param>
/// <param name="Fastest">The fastest variant, or "none succeeded".</param>
/// <param name="Use">The variant to use (one per work group, joined), or "none".</param>
/// <param name="Efficiency">The one to use's efficiency against the ideal, as text; empty without an ideal.</param>
/// <param name="Claims">How the published claims fared here: "2 of 3 hold (not: ...)"; empty where none was tested.</param>
internal sealed record RunSummary(string Scenario, string Fastest, string Use, string Efficiency, string Claims)
{
    /// <summary>The summary of every scenario of <paramref name="run"/>, in the order they ran.</summary>
    public static IReadOnlyList<RunSummary> Of(RunResult run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return [.. run.Scenarios.Select(s => Of(s, run.Environment.ProcessorCount))];
    }

    /// <summary>The summary of one scenario on a machine of <paramref name="processorCount"/> cores.</summary>
    public static RunSummary Of(ScenarioResult scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var recommendations = Analysis.Recommender.Of(scenario, processorCount);
        var use = recommendations.Select(r => r.Use).OfType<string>().ToList();
        var efficiency = use
            .Select(name => scenario.Variants.FirstOrDefault(v => v.Name == name)?.Summary?.ShownEfficiency)
            .OfType<double>()
            .Select(e => e.ToString("0.00", CultureInfo.InvariantCulture))
            .ToList();
        return new RunSummary(
            scenario.Name,
            ResultColumn.Best(scenario) is { } best
                ? best.Name + (Analysis.Recommender.LeftOut(recommendations, best.Name) ? " (other work: not judged)" : string.Empty)
                    : "none succeeded",
            use.Count > 0 ? string.Join(", ", use) : "none",
            string.Join(", ", efficiency),
            ClaimsText(scenario.Claims));
    }

    /// <summary>
    /// "2 of 3 hold (not: delay-threads-19); 1 could not be judged"; empty when the run tested none. Claims the run
    /// did not put to the test are no verdicts and are not counted here (<see cref="NotTestedLine"/> says them).
    /// </summary>
    public static string ClaimsText(IReadOnlyList<ClaimResult> claims)
    {
        ArgumentNullException.ThrowIfNull(claims);
        var tested = claims.Where(c => c.Verdict != Verdict.NotTested).ToList();
        var judged = tested.Where(c => c.Judged).ToList();
        var unjudged = tested.Count - judged.Count;
        if (tested.Count == 0)
        {
            return string.Empty;
        }

        var not = judged.Where(c => !c.Holds).Select(c => c.Id).ToList();
        var text = judged.Count == 0 ? string.Empty
            : $"{judged.Count(c => c.Holds)} of {judged.Count} hold{(not.Count == 0 ? string.Empty : $" (not: {string.Join(", ", not)})")}";
        return unjudged == 0 ? text : $"{text}{(text.Length > 0 ? "; " : string.Empty)}{unjudged} could not be judged";
    }

    /// <summary>
    /// One line for the claims of <paramref name="scenario"/>'s post that the run did not put to the test, so a reader
    /// knows they exist and where they are tested; null when it tested every one.
    /// </summary>
    public static string? NotTestedLine(string scenario, IReadOnlyList<ClaimResult> claims)
    {
        ArgumentNullException.ThrowIfNull(claims);
        var untested = claims.Where(c => c.Verdict == Verdict.NotTested).Select(c => c.Id).ToList();

        // A few are named; more would fill the screen, and results.json names each with what it needs.
        var which = untested.Count <= 3 ? $" ({string.Join(", ", untested)})" : string.Empty;
        return untested.Count == 0
            ? null
            : $"Not tested by this run: {untested.Count} of the post's claims{which}; results.md says what each needs, and conclab " +
                $"reproduce {scenario} tests them.";
    }
}
