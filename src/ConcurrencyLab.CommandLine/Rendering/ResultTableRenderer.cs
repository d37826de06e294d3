using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.Cli.Rendering;

/// <summary>Builds the console table of one scenario; writes nothing itself.</summary>
internal static class ResultTableRenderer
{
    /// <summary>
    /// The scenario's table and what follows it, in <paramref name="width"/> characters: <paramref name="columns"/>
    /// (the ones that decide, unless told) as many as fit. <paramref name="processorCount"/> is the measured
    /// machine's (this one's unless told).
    /// </summary>
    public static IRenderable Render(ScenarioResult scenario, int? processorCount = null, TableColumns? columns = null, int width = int.MaxValue)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var (shown, leftOut) = (columns ?? TableColumns.Default).For(scenario, width);
        var table = new Table().Border(TableBorder.Rounded).Title($"[bold]{Markup.Escape(scenario.Name)}[/]");
        foreach (var column in shown)
        {
            var header = new TableColumn(Markup.Escape(column.HeaderWithUnit));
            table.AddColumn(column.Id == "variant" ? header.NoWrap() : header.RightAligned());
        }

        var best = ResultColumn.Best(scenario);
        foreach (var variant in ResultColumn.Order(scenario))
        {
            var style = variant.Status switch
            {
                TrialStatus.Ok when variant == best => new Style(Color.Green, decoration: Decoration.Bold),
                TrialStatus.Ok => Style.Plain,
                _ => new Style(Color.Red),
            };
            table.AddRow(shown.Select(c => (IRenderable)new Text(TableColumns.Cell(c, scenario, variant), c.Id == "flags" ? new Style(Color.Yellow) : style)));
        }

        var invariant = CultureInfo.InvariantCulture;
        var lines = new List<IRenderable>();
        if (leftOut.Count > 0)
        {
            lines.Add(new Text($"Left out to fit {width} columns: {string.Join(", ", leftOut.Select(c => c.Header))}; --columns all shows every column, and results.md has them all.", new Style(Color.Grey)));
        }

        lines.Add(new Text($"Ideal {scenario.IdealMs.ToString("0.##", invariant)} ms: {scenario.IdealReason}. Ratio is to {scenario.Baseline}."));
        if (best?.Summary is { } summary)
        {
            var efficiency = summary.Efficiency is { } e ? $", efficiency {e.ToString("0.00", invariant)} against the ideal" : string.Empty;
            lines.Add(new Markup($"Fastest: [green bold]{Markup.Escape(best.Name)}[/], median {summary.MedianWallMs.ToString("0.0", invariant)} ms{efficiency}."));
        }

        foreach (var recommendation in Recommender.Of(scenario, processorCount ?? Environment.ProcessorCount))
        {
            // The first line says what to use (after its group, where there is one); the rest what to avoid.
            lines.AddRange(RecommendationText.Lines(recommendation, scenario).Select((line, i) => new Text(line, new Style(i == 0 ? Color.Green : Color.Yellow))));
        }

        foreach (var claim in scenario.Claims.Where(c => c.Verdict != Verdict.NotTested))
        {
            lines.Add(new Text("Published claim: " + claim.Sentence, new Style(claim.Holds ? Color.Aqua : claim.Judged ? Color.Fuchsia : Color.Grey)));
        }

        if (RunSummary.NotTestedLine(scenario.Name, scenario.Claims) is { } untested)
        {
            lines.Add(new Text(untested, new Style(Color.Grey)));
        }

        // The runtime's own reasons, where the pool added threads because work waited: the why of the table's
        // thread columns, as a table of their own. The other variants' accounts are in results.md and report.html.
        if (AccountTable.For(scenario, ResultColumn.Order(scenario)) is { } accounts)
        {
            lines.Add(accounts);
        }

        foreach (var note in scenario.Notes)
        {
            lines.Add(new Text("Note: " + note, new Style(Color.Yellow)));
        }

        foreach (var variant in scenario.Variants)
        {
            foreach (var trial in variant.Trials.Where(t => t.Error is not null))
            {
                lines.Add(new Text($"{variant.Name} trial {trial.Repeat + 1}: {trial.Status.ToText()}, {trial.Error}", new Style(Color.Red)));
            }
        }

        return new Rows([table, .. lines, Text.Empty]);
    }
}
