using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Strategies;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.Cli.Rendering;

/// <summary>What <c>conclab list</c> shows for one scenario.</summary>
internal static class ScenarioListing
{
    public static IRenderable Render(Scenario scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var defaults = ParameterValues.Create(scenario.Parameters, null, quick: false, out _);
        var rows = new List<IRenderable>
        {
            new Markup($"[bold]{Markup.Escape(scenario.Name)}[/]: {Markup.Escape(scenario.Summary)}"),
        };
        if (scenario.Reproduces is { } source)
        {
            rows.Add(new Text("  reproduces: " + source));
        }

        var parameters = new Table().Border(TableBorder.Simple).AddColumn("Parameter").AddColumn("Default").AddColumn("--quick").AddColumn("Meaning");
        foreach (var p in scenario.Parameters)
        {
            parameters.AddRow(new Text("--" + p.Name), new Text(p.DefaultValue), new Text(p.QuickValue ?? p.DefaultValue), new Text(p.Description));
        }

        rows.Add(parameters);

        var variants = new Table().Border(TableBorder.Simple).AddColumn("Default variant").AddColumn("What it does");
        foreach (var v in scenario.DefaultVariants(defaults))
        {
            variants.AddRow(new Text(v.Name), new Text(v.Description));
        }

        rows.Add(variants);
        // Only batch scenarios pair strategies with forms; the others (poll) have a fixed set of variants.
        if (scenario is BatchScenario)
        {
            rows.Add(new Text(
                "  Any variant can be named with --variants as strategy[@degree][-form]: strategies "
                + string.Join(", ", StrategyCatalog.All.Select(s => s.Id))
                + "; forms sync, tap, apm; the form is left out when it is the strategy's own."));
        }
        rows.Add(new Text($"  Baseline for ratios: {scenario.DefaultBaseline(defaults)}; ideal: {scenario.Ideal(defaults, 42).Reason} (seed 42)."));
        return new Rows(rows);
    }
}
