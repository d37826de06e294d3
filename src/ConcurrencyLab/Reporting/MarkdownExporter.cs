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
            var story = ScenarioStory.Of(scenario, run.Environment.ProcessorCount);
            writer.WriteLine($"{Escape(story.Ideal.Before)}`{story.Ideal.Baseline}`{story.Ideal.After}");
            if (story.Fastest is { } fastest)
            {
                writer.WriteLine();
                writer.WriteLine($"Fastest: **{fastest.Variant}**{Escape(fastest.Rest)}");
            }

            foreach (var lines in story.Recommendations)
            {
                writer.WriteLine();
                foreach (var line in lines)
                {
                    writer.WriteLine($"- {Escape(line)}");
                }
            }

            if (story.Claims.Count > 0)
            {
                writer.WriteLine();
                foreach (var claim in story.Claims)
                {
                    writer.WriteLine($"- {Escape(claim.Text)}");
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

            if (story.Accounts.Count > 0)
            {
                writer.WriteLine();
                writer.WriteLine("What the runtime reported (each variant's median trial):");
                writer.WriteLine();
                foreach (var account in story.Accounts)
                {
                    writer.WriteLine($"- {Escape(account)}");
                }
            }

            if (story.Failures.Count > 0 || story.Notes.Count > 0)
            {
                writer.WriteLine();
                foreach (var note in story.Notes)
                {
                    writer.WriteLine($"- Note: {Escape(note)}");
                }

                foreach (var failure in story.Failures)
                {
                    writer.WriteLine($"- `{failure.Variant}` {failure.Trial}: {Escape(failure.What)}");
                }
            }
        }
    }

    /// <summary>Text as a table cell holds it: a bar escaped, a line break a space.</summary>
    internal static string Escape(string text) => text.Replace("|", "\\|", StringComparison.Ordinal).ReplaceLineEndings(" ");
}
