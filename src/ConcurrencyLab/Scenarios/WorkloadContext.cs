using System.Collections.Concurrent;
using System.Globalization;
using System.Text.Json;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// What a <see cref="WorkloadScenario"/>'s factory builds a workload from: the run's parameters, the trial's
/// variant (and so its sweep values), the seed, and what the run's set-up made. The factory is called in each
/// trial's process, and in the runner's process to read the workload's forms and ideal; the same context must
/// give the same items.
/// </summary>
public sealed class WorkloadContext
{
    private static readonly ConcurrentDictionary<(string Path, Type Type), object?> SetUps = new();

    internal WorkloadContext(ParameterValues parameters, int seed, Variant? variant)
    {
        Parameters = parameters;
        Seed = seed;
        Variant = variant;
    }

    /// <summary>The run's parameters: the scenario's own, as the command line or their defaults give them.</summary>
    public ParameterValues Parameters { get; }

    /// <summary>The run's seed: the same seed must give the same items.</summary>
    public int Seed { get; }

    /// <summary>
    /// The variant of the trial the workload is built for; null in the runner's process (at the run's set-up,
    /// and when the lab reads the workload's forms or ideal), where sweeps read their first value.
    /// </summary>
    public Variant? Variant { get; }

    /// <summary>Whether the run's set-up has made something (<see cref="RunSetUp{T}"/> can read it).</summary>
    public bool HasRunSetUp => Parameters.Values.ContainsKey(WorkloadScenario.RunSetUpKey);

    /// <summary>The value of one of the scenario's parameters.</summary>
    public T Get<T>(Parameter<T> parameter) => Parameters.Get(parameter);

    /// <summary>The trial's value of <paramref name="sweep"/>: its variant's, or the run's first value where there is no variant.</summary>
    public int Get(Sweep sweep)
    {
        ArgumentNullException.ThrowIfNull(sweep);
        return Variant?.WholeNumber(sweep.Name) ?? Parameters.Get(sweep.Values)[0];
    }

    /// <summary>
    /// What the scenario's <see cref="WorkloadScenario.SetUpRunAsync"/> returned in the runner's process, as
    /// <typeparamref name="T"/>: it travels to each trial's process as JSON (public properties and fields),
    /// written once to a file and read once per process.
    /// </summary>
    /// <exception cref="InvalidOperationException">The scenario has no run set-up, or it has not run yet (the lab
    /// reads a workload's forms before it: give the scenario its <see cref="WorkloadScenario.Forms"/>).</exception>
    public T RunSetUp<T>()
    {
        if (!Parameters.Values.TryGetValue(WorkloadScenario.RunSetUpKey, out var path))
        {
            throw new InvalidOperationException(
                "There is no run set-up here: the scenario has no SetUpRunAsync, or the workload is built before it ran, to read its forms; " +
                    "set WorkloadScenario.Forms so the lab need not build it then.");
        }

        return (T)SetUps.GetOrAdd((path, typeof(T)), static key =>
        {
            var json = File.ReadAllText(key.Path);
            return JsonSerializer.Deserialize(json, key.Type, WorkloadScenario.SetUpJson);
        })!;
    }

    /// <summary>The context in the runner's process, before any trial.</summary>
    internal static WorkloadContext ForRun(ParameterValues parameters, int seed) => new(parameters, seed, variant: null);

    /// <inheritdoc/>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Variant?.Name ?? "(no variant)"}, seed {Seed}");
}
