using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.CommandLine.Rendering;

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

        // The grammar of names where there is one (a value after '@', a form); poll's receivers are names alone.
        var space = scenario.Variants(defaults);
        if (space.Grammar.Length > 0)
        {
            var forms = space.Families.Any(f => f.Forms.Count > 1)
                ? $"; forms {string.Join(", ", WorkForms.All.Select(f => f.ToSuffix()))}, left out when it is the {space.Noun}'s own"
                : string.Empty;
            rows.Add(new Text(
                $"  Any variant can be named with --variants as {space.Grammar}: {Plural(space.Noun)} "
                + string.Join(", ", space.Families.Where(f => f.Unavailable is null).Select(f => f.Id))
                + forms + "."));
        }

        rows.Add(new Text($"  Baseline for ratios: {scenario.DefaultBaseline(defaults).Name}; ideal: {scenario.Ideal(defaults, Scenario.DefaultSeed).Reason} (seed {Scenario.DefaultSeed})."));
        return new Rows(rows);
    }

    private static string Plural(string noun) => noun.EndsWith('y') ? noun[..^1] + "ies" : noun + "s";
}
