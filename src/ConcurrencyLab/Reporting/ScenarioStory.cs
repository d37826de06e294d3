using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// What is said around a scenario's table, made once from its results and its answer, for the console, results.md
/// and report.html alike: each renderer only chooses how a part looks (a colour, a bullet, an HTML list) and which
/// parts it has room for. Every sentence a report prints about a scenario is made here or in the parts it calls.
/// </summary>
/// <param name="Ideal">The ideal, why, and what the ratios are against.</param>
/// <param name="Fastest">The fastest variant, when one succeeded.</param>
/// <param name="Recommendations">Each recommendation's lines (what to use first, then what to avoid), one group per set of work parameters.</param>
/// <param name="Claims">Each claim of the post, in words: tested ones as their verdict's sentence, the others as what they need.</param>
/// <param name="NotTested">One line naming the claims the run did not test, for a report with no room for each; null when it tested all.</param>
/// <param name="Accounts">The runtime's account of each variant that has one, in the table's order.</param>
/// <param name="Notes">The scenario's notes.</param>
/// <param name="Failures">Each trial that failed, with why.</param>
internal sealed record ScenarioStory(
    IdealPart Ideal,
    FastestPart? Fastest,
    IReadOnlyList<IReadOnlyList<string>> Recommendations,
    IReadOnlyList<ClaimPart> Claims,
    string? NotTested,
    IReadOnlyList<string> Accounts,
    IReadOnlyList<string> Notes,
    IReadOnlyList<FailurePart> Failures)
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The story of <paramref name="scenario"/>, measured on a machine of <paramref name="processorCount"/> cores.</summary>
    public static ScenarioStory Of(ScenarioResult scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var best = ResultColumn.Best(scenario);
        return new ScenarioStory(
            new IdealPart($"Ideal {scenario.IdealMs.ToString("0.##", Invariant)} ms: {scenario.IdealReason}. Ratio is to ", scenario.Baseline, "."),
            best?.Summary is { } summary
                ? new FastestPart(best.Name, $", median {Measurement.Figures.Ms(summary.MedianWallMs)} ms{(summary.Efficiency is { } e ? $", efficiency {e.ToString("0.00", Invariant)} against the ideal" : string.Empty)}.")
                : null,
            [.. Analysis.Recommender.Of(scenario, processorCount).Select(r => RecommendationText.Lines(r, scenario))],
            [
                .. scenario.Claims.Select(c => c.Verdict == Verdict.NotTested
                    ? new ClaimPart(c, $"Not tested by this run: {c.Claim} ({c.Reason})")
                    : new ClaimPart(c, "Published claim: " + c.Sentence)),
            ],
            RunSummary.NotTestedLine(scenario.Name, scenario.Claims),
            RuntimeAccountText.Describe(scenario),
            scenario.Notes,
            [.. scenario.Variants.SelectMany(v => v.Trials.Where(t => t.Error is not null).Select(t => new FailurePart(v.Name, $"trial {t.Repeat + 1}", $"{t.Status.ToText()}, {t.Error}")))]);
    }
}

/// <summary>"Ideal 200 ms: why. Ratio is to " and the baseline (which a report may set apart as code), then ".".</summary>
/// <param name="Before">The words before the baseline's name.</param>
/// <param name="Baseline">The variant the ratios are against.</param>
/// <param name="After">The words after it.</param>
internal sealed record IdealPart(string Before, string Baseline, string After);

/// <summary>The fastest variant and what follows its name: ", median 51.5 ms, efficiency 0.95 against the ideal."</summary>
/// <param name="Variant">Its name, which a report may set apart.</param>
/// <param name="Rest">The words after the name.</param>
internal sealed record FastestPart(string Variant, string Rest);

/// <summary>A claim and its line.</summary>
/// <param name="Claim">The claim's result, for a report that marks its verdict.</param>
/// <param name="Text">The line.</param>
internal sealed record ClaimPart(ClaimResult Claim, string Text);

/// <summary>A failed trial: its variant (set apart where a report can), which trial, and what happened.</summary>
/// <param name="Variant">The variant's name.</param>
/// <param name="Trial">"trial 2".</param>
/// <param name="What">"failed, 3 of 40 items completed."</param>
internal sealed record FailurePart(string Variant, string Trial, string What);
