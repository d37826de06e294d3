using ConcurrencyLab.Comparing;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// A comparison of two runs as a console table: slower rows in red, faster in green. The variant's name is never
/// broken, and the medians' headers are short, so the verdict has room in 100 columns.
/// </summary>
internal static class ComparisonTableRenderer
{
    public static IRenderable Render(RunComparison comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        var table = new Table().RoundedBorder()
            .AddColumn("Scenario")
            .AddColumn(new TableColumn("Variant").NoWrap())
            .AddColumn(new TableColumn("Old (ms)").RightAligned())
            .AddColumn(new TableColumn("New (ms)").RightAligned())
            .AddColumn(new TableColumn("Ratio").RightAligned())
            .AddColumn(new TableColumn("p").RightAligned())
            .AddColumn(new TableColumn("Trials").RightAligned())
            .AddColumn("Verdict");
        foreach (var row in comparison.Rows)
        {
            var verdict = ComparisonText.Verdict(row, comparison.Alpha);
            var style = row.Verdict switch
            {
                ComparisonVerdict.Slower => new Style(Color.Red),
                ComparisonVerdict.Faster => new Style(Color.Green),
                _ => Style.Plain,
            };
            table.AddRow(
                new Text(row.Scenario),
                new Text(row.Variant),
                new Text(ComparisonText.Ms(row.OldMedianMs)),
                new Text(ComparisonText.Ms(row.NewMedianMs)),
                new Text(ComparisonText.Ratio(row.Ratio), style),
                new Text(ComparisonText.P(row.PValue)),
                new Text($"{row.OldTrials}, {row.NewTrials}"),
                new Text(verdict, style));
        }

        var parts = new List<IRenderable> { table, new Text(ComparisonText.Method(comparison)) };
        parts.AddRange(comparison.Notes.Select(n => new Text("Note: " + n)));
        return new Rows(parts);
    }
}
