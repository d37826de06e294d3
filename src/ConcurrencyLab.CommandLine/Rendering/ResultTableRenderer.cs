using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.CommandLine.Rendering;

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

        var story = ScenarioStory.Of(scenario, processorCount ?? Environment.ProcessorCount);
        var lines = new List<IRenderable>();
        if (leftOut.Count > 0)
        {
            lines.Add(new Text($"Left out to fit {width} columns: {string.Join(", ", leftOut.Select(c => c.Header))}; --columns all shows every column, and results.md has them all.", new Style(Color.Grey)));
        }

        lines.Add(new Text(story.Ideal.Before + story.Ideal.Baseline + story.Ideal.After));
        if (story.Fastest is { } fastest)
        {
            lines.Add(new Markup($"Fastest: [green bold]{Markup.Escape(fastest.Variant)}[/]{Markup.Escape(fastest.Rest)}"));
        }

        // The first line of each recommendation says what to use (after its group, where there is one); the rest what to avoid.
        lines.AddRange(story.Recommendations.SelectMany(r => r.Select((line, i) => new Text(line, new Style(i == 0 ? Color.Green : Color.Yellow)))));

        // The tested claims one by one; the others, which need another run, in one line.
        foreach (var claim in story.Claims.Where(c => c.Claim.Verdict != Verdict.NotTested))
        {
            lines.Add(new Text(claim.Text, new Style(claim.Claim.Holds ? Color.Aqua : claim.Claim.Judged ? Color.Fuchsia : Color.Grey)));
        }

        if (story.NotTested is { } untested)
        {
            lines.Add(new Text(untested, new Style(Color.Grey)));
        }

        // The runtime's own reasons, where the pool added threads because work waited: the why of the table's
        // thread columns, as a table of their own. The other variants' accounts are in results.md and report.html.
        if (AccountTable.For(scenario, ResultColumn.Order(scenario)) is { } accounts)
        {
            lines.Add(accounts);
        }

        lines.AddRange(story.Notes.Select(note => new Text("Note: " + note, new Style(Color.Yellow))));
        lines.AddRange(story.Failures.Select(f => new Text($"{f.Variant} {f.Trial}: {f.What}", new Style(Color.Red))));

        return new Rows([table, .. lines, Text.Empty]);
    }
}
