using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>The table that ends a run of several scenarios: one row each, the answer and the published claims' fate.</summary>
internal static class RunSummaryRenderer
{
    public static IRenderable Render(RunResult run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var table = new Table().Border(TableBorder.Rounded).Title("[bold]summary[/]");
        table.AddColumn(new TableColumn("Scenario").NoWrap());
        table.AddColumn(new TableColumn("Fastest"));
        table.AddColumn(new TableColumn("Use"));
        table.AddColumn(new TableColumn("Efficiency").RightAligned());
        table.AddColumn(new TableColumn("Published claims here"));
        foreach (var row in RunSummary.Of(run))
        {
            table.AddRow(new Text(row.Scenario), new Text(row.Fastest), new Text(row.Use, new Style(Color.Green)), new Text(row.Efficiency),
                new Text(row.Claims));
        }

        return new Rows(
            table, new Text(
                "Each claim's verdict, figure and reason are under its scenario's table; conclab reproduce re-runs every claim in the runs " +
                    "made for it.", new Style(Color.Grey)), Text.Empty);
    }
}
