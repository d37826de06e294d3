using ConcurrencyLab.Scenarios.Delay;
using ConcurrencyLab.Scenarios.Fanout;
using ConcurrencyLab.Scenarios.Hash;
using ConcurrencyLab.Scenarios.Poll;
using ConcurrencyLab.Scenarios.Scan;

namespace ConcurrencyLab.Scenarios;

/// <summary>The scenarios that come with the lab.</summary>
public static class ScenarioCatalog
{
    /// <summary>Every built-in scenario, in the order the default suite runs them.</summary>
    public static IReadOnlyList<Scenario> BuiltIn { get; } = [new DelayScenario(), new ScanScenario(), new PollScenario(), new FanoutScenario(), new HashScenario()];
}
