using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Tests.Scenarios;

/// <summary>A scenario's parameters at full scale with some given, checked to be valid.</summary>
internal static class ScenarioParameters
{
    public static ParameterValues Of(Scenario scenario, params (string Name, string Value)[] given)
    {
        var values = ParameterValues.Create(scenario.Parameters, given.ToDictionary(g => g.Name, g => g.Value), quick: false, out var errors);
        Assert.Empty(errors);
        return values;
    }
}
