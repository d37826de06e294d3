using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// The structure of variants that a results file recorded by name only (schema version 1), read back with the
/// scenario's own <see cref="VariantSpace"/>, the one reader of names, so reports of an older run can group its
/// sweeps as they did; and what an older file did not record that the structure gives (a growth's baseline line).
/// </summary>
internal static class RecordedVariants
{
    /// <summary>
    /// <paramref name="run"/>, with every variant that lacks a family given the family, form and parameter values
    /// its name stands for in the scenario of that name among <paramref name="scenarios"/>, under the run's
    /// recorded parameters. A variant no known scenario can read is left as it is.
    /// </summary>
    public static RunResult WithStructure(RunResult run, IReadOnlyList<Scenario> scenarios)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(scenarios);
        return run with { Scenarios = [.. run.Scenarios.Select(s => WithStructure(s, scenarios))] };
    }

    /// <summary>
    /// <paramref name="run"/>, with each growth written before its baseline's line was recorded given that line: the
    /// baseline's key without the size, named by the scenario of that name among <paramref name="scenarios"/>.
    /// </summary>
    public static RunResult WithGrowthLines(RunResult run, IReadOnlyList<Scenario> scenarios)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(scenarios);
        return run with { Scenarios = [.. run.Scenarios.Select(s => WithGrowthLine(s, scenarios))] };
    }

    private static ScenarioResult WithStructure(ScenarioResult result, IReadOnlyList<Scenario> scenarios)
    {
        if (result.Variants.All(v => v.Family is not null)
            || scenarios.FirstOrDefault(s => s.Name == result.Name) is not { } scenario
            || SpaceOf(scenario, result) is not { } space)
        {
            // Nothing to read back, or parameters this build cannot read: the names stay names.
            return result;
        }

        return result with
        {
            Variants =
            [
                .. result.Variants.Select(
                    v => v.Family is null && space.TryParse(v.Name, allowUnavailable: true, out var variant, out _) && variant.Name == v.Name
                    ? v with { Family = variant.Family, Form = variant.Form, Parameters = variant.Parameters }
                    : v),
            ],
        };
    }

    private static ScenarioResult WithGrowthLine(ScenarioResult result, IReadOnlyList<Scenario> scenarios) =>
        result.Growth is { BaselineLine: null } growth
        && scenarios.FirstOrDefault(s => s.Name == result.Name) is { } scenario
        && SpaceOf(scenario, result) is { } space
        && result.Variants.FirstOrDefault(v => v.Name == result.Baseline) is { } first
        && space.KeyOf(first) is { } baseline
            ? result with { Growth = growth with { BaselineLine = space.NameOf(baseline.Without(growth.Parameter)) } }
            : result;

    /// <summary>
    /// The space <paramref name="result"/>'s variants were named in: the scenario's variants under the run's recorded
    /// parameters (over the defaults for any the file lacks), with the runtime settings its variants recorded
    /// (<c>cores</c> at 2 and 8) as sweeps; null where this build cannot read the parameters.
    /// </summary>
    public static VariantSpace? SpaceOf(Scenario scenario, ScenarioResult result)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(result);
        try
        {
            var defaults = ParameterValues.Create(scenario.Parameters, null, quick: false, out _);
            var space = scenario.Variants(
                ParameterValues.FromValidated(defaults.Values.SetItems(result.Parameters.Where(p => defaults.Values.ContainsKey(p.Key)))));
            var swept = RuntimeSettings.All
                .Select(
                    s => (s.Parameter, Values: (IReadOnlyList<int>)[.. result.Variants.Select(v => v.WholeNumber(s.Parameter.Name)).OfType<int>()
                        .Distinct().Order()]))
                .Where(s => s.Values.Count > 0)
                .ToList();
            return space.WithSweeps(swept);
        }
        catch (ArgumentException)
        {
            return null;
        }
    }
}
