using System.Collections;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// Scenarios known by name before they are built, each built on first use: a trial's process needs the one it runs,
/// and building every built-in scenario cost it 45 ms of its start-up (assemblies loaded and code compiled for
/// scenarios it never runs: fanout's web server among them). Read as a list, it builds them all, in order.
/// </summary>
internal sealed class NamedScenarios : IReadOnlyList<Scenario>
{
    private readonly (string Name, Lazy<Scenario> Scenario)[] _entries;

    /// <summary>The scenarios <paramref name="entries"/> make, each under the name it will have.</summary>
    public NamedScenarios(params (string Name, Func<Scenario> Make)[] entries)
    {
        ArgumentNullException.ThrowIfNull(entries);
        _entries = [.. entries.Select(e => (e.Name, new Lazy<Scenario>(() => Built(e.Name, e.Make()))))];
    }

    /// <inheritdoc/>
    public int Count => _entries.Length;

    /// <inheritdoc/>
    public Scenario this[int index] => _entries[index].Scenario.Value;

    /// <summary>The scenario named <paramref name="name"/>, built if it was not; null when none is.</summary>
    public Scenario? Find(string? name) => _entries.FirstOrDefault(e => e.Name == name).Scenario?.Value;

    /// <summary>The scenario named <paramref name="name"/> among <paramref name="scenarios"/>, building no other where it can.</summary>
    public static Scenario? Find(IEnumerable<Scenario> scenarios, string? name) =>
        scenarios is NamedScenarios named ? named.Find(name) : scenarios.FirstOrDefault(s => s.Name == name);

    /// <inheritdoc/>
    public IEnumerator<Scenario> GetEnumerator() => _entries.Select(e => e.Scenario.Value).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    private static Scenario Built(string name, Scenario scenario) => scenario.Name == name
        ? scenario
        : throw new InvalidOperationException($"the scenario listed as '{name}' is named '{scenario.Name}'.");
}
