using ConcurrencyLab.Experiments.Delay;
using ConcurrencyLab.Experiments.Fanout;
using ConcurrencyLab.Experiments.Hash;
using ConcurrencyLab.Experiments.Poll;
using ConcurrencyLab.Experiments.Scan;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Experiments;

/// <summary>The scenarios that come with the lab.</summary>
public static class ScenarioCatalog
{
    // Each built on first use: a trial's process builds only the scenario it runs.
    private static readonly (string Name, Func<Scenario> Make)[] BuiltInEntries =
    [
        ("delay", () => new DelayScenario()),
        ("scan", () => new ScanScenario()),
        ("poll", () => new PollScenario()),
        ("fanout", () => new FanoutScenario()),
        ("hash", () => new HashScenario()),
    ];

    /// <summary>Every built-in scenario, in the order the default suite runs them.</summary>
    public static IReadOnlyList<Scenario> BuiltIn { get; } = new NamedScenarios(BuiltInEntries);

    /// <summary>
    /// <c>mix</c>: a workload described on the command line (items of CPU work and a wait, a lock, a downstream
    /// limit), every strategy in every form; it runs only when named.
    /// </summary>
    public static Scenario Mix => Tool[^1];

    /// <summary>What the conclab tool offers: the built-in experiments, then <see cref="Mix"/>.</summary>
    public static IReadOnlyList<Scenario> Tool { get; } = new NamedScenarios(
    [
        .. BuiltInEntries.Select((e, i) => (e.Name, (Func<Scenario>)(() => BuiltIn[i]))),
        ("mix", Experiments.Mix.MixScenario.Create),
    ]);
}
