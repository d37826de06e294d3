using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary><c>results.md</c>: one GitHub table per scenario, with the environment and method, ready to paste.</summary>
public sealed class MarkdownExporter : IExporter
{
    /// <summary>The exporter, in GitHub-flavoured Markdown: a table per scenario, then its notes.</summary>
    public static MarkdownExporter GitHub { get; } = new();

    /// <summary><c>results.md</c>.</summary>
    public string FileName => "results.md";

    /// <summary>Writes <paramref name="run"/>'s tables to <paramref name="writer"/>.</summary>
    public void Export(RunResult run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(writer);
        var invariant = CultureInfo.InvariantCulture;
        writer.WriteLine("# ConcurrencyLab results");
        writer.WriteLine();
        writer.WriteLine(RunDescription.Machine(run) + "  ");
        writer.WriteLine(RunDescription.Method(run));
        if (run.Scenarios.Count > 1)
        {
            writer.WriteLine();
            writer.WriteLine("| scenario | fastest | use | efficiency | published claims |");
            writer.WriteLine("| --- | --- | --- | ---: | --- |");
            foreach (var row in RunSummary.Of(run))
            {
                writer.WriteLine($"| {Escape(row.Scenario)} | {Escape(row.Fastest)} | {Escape(row.Use)} | {row.Efficiency} | {Escape(row.Claims)} |");
            }
        }

        foreach (var scenario in run.Scenarios)
        {
            writer.WriteLine();
            writer.WriteLine($"## {scenario.Name}");
            writer.WriteLine();
            writer.WriteLine($"Parameters: {string.Join(", ", scenario.Parameters.Select(p => $"`{p.Key}={p.Value}`"))}.  ");
            writer.WriteLine($"Ideal: {scenario.IdealMs.ToString("0.##", invariant)} ms, {scenario.IdealReason}. Ratio is to `{scenario.Baseline}`.");
            if (ResultColumn.Best(scenario) is { Summary: { } best } bestVariant)
            {
                writer.WriteLine();
                var efficiency = best.Efficiency is { } e ? $", efficiency {e.ToString("0.00", invariant)} against the ideal" : string.Empty;
                writer.WriteLine($"Fastest: **{bestVariant.Name}**, median {best.MedianWallMs.ToString("0.0", invariant)} ms{efficiency}.");
            }

            foreach (var recommendation in Analysis.Recommender.Of(scenario, run.Environment.ProcessorCount))
            {
                writer.WriteLine();
                foreach (var line in RecommendationText.Lines(recommendation, scenario))
                {
                    writer.WriteLine($"- {Escape(line)}");
                }
            }

            if (scenario.Claims.Count > 0)
            {
                writer.WriteLine();
                foreach (var claim in scenario.Claims)
                {
                    writer.WriteLine(claim.Verdict == Verdict.NotTested
                        ? $"- Not tested by this run: {Escape(claim.Claim)} ({Escape(claim.Reason)})"
                        : $"- Published claim: {Escape(claim.Sentence)}");
                }
            }

            writer.WriteLine();
            var columns = ResultColumn.For(scenario);
            writer.WriteLine("| " + string.Join(" | ", columns.Select(c => c.HeaderWithUnit)) + " |");
            writer.WriteLine("|" + string.Join("|", columns.Select((c, i) => i == 0 || c.Id == "status" ? " --- " : " ---: ")) + "|");
            foreach (var variant in ResultColumn.Order(scenario))
            {
                writer.WriteLine("| " + string.Join(" | ", columns.Select(c => Escape(c.Format(scenario, variant)))) + " |");
            }

            if (RuntimeAccountText.Describe(scenario) is { Count: > 0 } accounts)
            {
                writer.WriteLine();
                writer.WriteLine("What the runtime reported (each variant's median trial):");
                writer.WriteLine();
                foreach (var account in accounts)
                {
                    writer.WriteLine($"- {Escape(account)}");
                }
            }

            var failures = scenario.Variants.SelectMany(v => v.Trials.Where(t => t.Error is not null).Select(t => (v.Name, t))).ToList();
            if (failures.Count > 0 || scenario.Notes.Count > 0)
            {
                writer.WriteLine();
                foreach (var note in scenario.Notes)
                {
                    writer.WriteLine($"- Note: {Escape(note)}");
                }

                foreach (var (name, trial) in failures)
                {
                    writer.WriteLine($"- `{name}` trial {trial.Repeat + 1}: {trial.Status.ToText()}, {Escape(trial.Error!)}");
                }
            }
        }
    }

    /// <summary>Text as a table cell holds it: a bar escaped, a line break a space.</summary>
    internal static string Escape(string text) => text.Replace("|", "\\|", StringComparison.Ordinal).ReplaceLineEndings(" ");
}
