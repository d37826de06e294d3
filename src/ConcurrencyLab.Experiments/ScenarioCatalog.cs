using ConcurrencyLab.Experiments.Delay;
using ConcurrencyLab.Experiments.Fanout;
using ConcurrencyLab.Experiments.Hash;
using ConcurrencyLab.Experiments.Poll;
using ConcurrencyLab.Experiments.Scan;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Experiments;

/// <summary>The scenarios that come with the lab.</summary>
public static class ScenarioCatalog
{
    /// <summary>Every built-in scenario, in the order the default suite runs them.</summary>
    public static IReadOnlyList<Scenario> BuiltIn { get; } = [new DelayScenario(), new ScanScenario(), new PollScenario(), new FanoutScenario(), new HashScenario()];

    /// <summary>
    /// <c>mix</c>: a workload described on the command line (items of CPU work and a wait, a lock, a downstream
    /// limit), every strategy in every form; it runs only when named.
    /// </summary>
    public static Scenario Mix { get; } = Experiments.Mix.MixScenario.Create();

    /// <summary>What the conclab tool offers: the built-in experiments, then <see cref="Mix"/>.</summary>
    public static IReadOnlyList<Scenario> Tool { get; } = [.. BuiltIn, Mix];
}
