using ConcurrencyLab.Results;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// The structure of variants that a results file recorded by name only (schema version 1), read back with the
/// scenario's own <see cref="VariantSpace"/>, the one reader of names, so reports of an older run can group its
/// sweeps as they did.
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

    private static ScenarioResult WithStructure(ScenarioResult result, IReadOnlyList<Scenario> scenarios)
    {
        if (result.Variants.All(v => v.Family is not null) || scenarios.FirstOrDefault(s => s.Name == result.Name) is not { } scenario)
        {
            return result;
        }

        VariantSpace space;
        try
        {
            // The run's own parameters, over the defaults for any the file lacks.
            var defaults = ParameterValues.Create(scenario.Parameters, null, quick: false, out _);
            space = scenario.Variants(ParameterValues.FromValidated(defaults.Values.SetItems(result.Parameters.Where(p => defaults.Values.ContainsKey(p.Key)))));
        }
        catch (ArgumentException)
        {
            // Parameters this build cannot read: the names stay names.
            return result;
        }

        return result with
        {
            Variants =
            [
                .. result.Variants.Select(v => v.Family is null && space.TryParse(v.Name, allowUnavailable: true, out var variant, out _) && variant.Name == v.Name
                    ? v with { Family = variant.Family, Form = variant.Form, Parameters = variant.Parameters }
                    : v),
            ],
        };
    }
}
