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
        // A service under load and a program watched have reports of their own kind, their tables (if any) among the blocks.
        if (scenario.Load is not null || scenario.Watched is not null)
        {
            return RenderBlocks(scenario, processorCount ?? Environment.ProcessorCount);
        }

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
            table.AddRow(
                shown.Select(c => (IRenderable)new Text(TableColumns.Cell(c, scenario, variant), c.Id == "flags" ? new Style(Color.Yellow) : style)));
        }

        // The table leads on the console (it carries the scenario's name); the rest follows in the report's order.
        var lines = new List<IRenderable>();
        if (leftOut.Count > 0)
        {
            lines.Add(
                new Text($"Left out to fit {width} columns: {string.Join(", ", leftOut.Select(c => c.Header))}; --columns all shows every " +
                    $"column, and results.md has them all.", new Style(Color.Grey)));
        }

        foreach (var block in ScenarioReport.Of(scenario, processorCount ?? Environment.ProcessorCount).Where(b => b.Audience != Audience.Full))
        {
            switch (block)
            {
                case Passage or BulletList:
                    lines.AddRange(Lines(block));
                    break;
                case RuntimeTable:
                    // The runtime's own reasons, where the pool added threads because work waited: the why of the
                    // table's thread columns. The other variants' accounts are in results.md and report.html.
                    if (AccountTable.For(scenario, ResultColumn.Order(scenario)) is { } accounts)
                    {
                        lines.Add(accounts);
                    }

                    break;
            }
        }

        return new Rows([table, .. lines, Text.Empty]);
    }

    // A passage's or a list's statements, a console line each.
    private static IEnumerable<IRenderable> Lines(Block block) => block switch
    {
        Passage paragraph => paragraph.Lines.Select(Line),
        BulletList { Lead: { } lead } list => [Line(lead), .. list.Items.Select(Line)],
        BulletList list => list.Items.Select(Line),
        _ => [],
    };

    // A service under load: its brief steps table first, titled, then the report's lines in order.
    private static Rows RenderBlocks(ScenarioResult scenario, int processorCount)
    {
        var lines = new List<IRenderable>();
        foreach (var block in ScenarioReport.Of(scenario, processorCount).Where(b => b.Audience != Audience.Full))
        {
            switch (block)
            {
                case Passage or BulletList:
                    lines.AddRange(Lines(block));
                    break;
                case TextTable grid:
                    var table = new Table().Border(TableBorder.Rounded).Title($"[bold]{Markup.Escape(scenario.Name)}[/]");
                    for (var i = 0; i < grid.Headers.Count; i++)
                    {
                        var header = new TableColumn(Markup.Escape(grid.Headers[i]));
                        table.AddColumn(grid.Numeric[i] ? header.RightAligned() : header.NoWrap());
                    }

                    for (var r = 0; r < grid.Rows.Count; r++)
                    {
                        var style = r < grid.Flagged.Count && grid.Flagged[r] ? new Style(Color.Yellow) : Style.Plain;
                        table.AddRow(grid.Rows[r].Select(cell => (IRenderable)new Text(cell, style)));
                    }

                    lines.Insert(0, table);
                    break;
            }
        }

        return new Rows([.. lines, Text.Empty]);
    }

    /// <summary>
    /// A statement as one console line: coloured by its tone, a variant's name in bold (the fastest's in green), the
    /// rest as it is.
    /// </summary>
    internal static IRenderable Line(Statement statement)
    {
        var tone = statement.Tone switch
        {
            Tone.Use => new Style(Color.Green),
            Tone.Avoid or Tone.Note => new Style(Color.Yellow),
            Tone.Holds => new Style(Color.Aqua),
            Tone.DoesNotHold => new Style(Color.Fuchsia),
            Tone.Unjudged or Tone.NotTested => new Style(Color.Grey),
            Tone.Failure => new Style(Color.Red),
            _ => Style.Plain,
        };
        var paragraph = new Paragraph();
        foreach (var inline in statement.Inlines)
        {
            var style = inline switch
            {
                VariantName when statement.Tone == Tone.Fastest => new Style(Color.Green, decoration: Decoration.Bold),
                VariantName => tone.Combine(new Style(decoration: Decoration.Bold)),
                _ => tone,
            };
            paragraph.Append(inline.Text, style);
        }

        return paragraph;
    }
}
