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
        rows.AddRange(VariantRows(scenario, defaults));
        return new Rows(rows);
    }

    /// <summary>
    /// What <c>conclab run SCENARIO --help</c> adds to the options: the scenario's default variants, how any other is
    /// named, and its baseline and ideal.
    /// </summary>
    public static IRenderable Variants(Scenario scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return new Rows(VariantRows(scenario, ParameterValues.Create(scenario.Parameters, null, quick: false, out _)));
    }

    private static List<IRenderable> VariantRows(Scenario scenario, ParameterValues defaults)
    {
        var rows = new List<IRenderable>();
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

        rows.Add(
            new Text($"  Baseline for ratios: {scenario.DefaultBaseline(defaults).Name}; ideal: " +
                $"{scenario.Ideal(defaults, Scenario.DefaultSeed).Reason} (seed {Scenario.DefaultSeed})."));
        return rows;
    }

    /// <summary>
    /// The names <c>--variants</c> completes to in <paramref name="scenario"/>: after the last comma of
    /// <paramref name="typed"/>, each default variant and each family (a strategy, an endpoint) starting with what
    /// follows it, the names before it kept; at the <paramref name="quick"/> scale where the line says <c>--quick</c>.
    /// </summary>
    public static IEnumerable<string> Completions(Scenario scenario, string typed, bool quick)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(typed);
        var defaults = ParameterValues.Create(scenario.Parameters, null, quick, out _);
        var cut = typed.LastIndexOf(',') + 1;
        var (before, last) = (typed[..cut], typed[cut..]);
        return scenario.DefaultVariants(defaults).Select(v => v.Name)
            .Concat(scenario.Variants(defaults).Families.Where(f => f.Unavailable is null).Select(f => f.Id))
            .Distinct(StringComparer.Ordinal)
            .Where(name => name.StartsWith(last, StringComparison.Ordinal))
            .Select(name => before + name);
    }

    private static string Plural(string noun) => noun.EndsWith('y') ? noun[..^1] + "ies" : noun + "s";
}
