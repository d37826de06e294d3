using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios.Custom;

/// <summary>
/// A user's own workload run through every strategy. The factory is called with the seed in each trial's
/// process and must return the same items for the same seed.
/// </summary>
public sealed class WorkloadScenario : BatchScenario
{
    private readonly Func<int, Workload> _factory;
    private readonly Func<Workload, IdealBound>? _ideal;
    private readonly string _summary;
    private IReadOnlyList<WorkForm>? _forms;

    /// <summary>Creates a scenario named <paramref name="name"/> around <paramref name="factory"/>.</summary>
    /// <param name="name">Lowercase name for the command line and results.</param>
    /// <param name="factory">Builds the workload from a seed.</param>
    /// <param name="degrees">Default degrees of parallelism for the strategies that take one.</param>
    /// <param name="ideal">The lower bound on wall time for a workload, when one is known.</param>
    /// <param name="summary">One line describing the workload.</param>
    public WorkloadScenario(
        string name,
        Func<int, Workload> factory,
        IReadOnlyList<int>? degrees = null,
        Func<Workload, IdealBound>? ideal = null,
        string? summary = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(factory);
        Name = name.ToLowerInvariant();
        _factory = factory;
        _ideal = ideal;
        _summary = summary ?? "a user-supplied workload";
        Degrees = DegreesParameter(degrees is { Count: > 0 } ? degrees : [4], "degrees of parallelism for the strategies that take one", maximum: 10_000);
        Parameters = [Degrees];
    }

    public override string Name { get; }

    public override string Summary => _summary;

    public override IReadOnlyList<Parameter> Parameters { get; }

    protected override Parameter<IReadOnlyList<int>> Degrees { get; }

    /// <summary>One item after another, in the first form the workload offers that a loop can call.</summary>
    public override Variant DefaultBaseline(ParameterValues parameters)
    {
        var sequential = StrategyCatalog.Find("sequential")!;
        return Variants(parameters).Create(sequential.Id, WorkloadForms(parameters).Where(sequential.Supports).Cast<WorkForm?>().FirstOrDefault());
    }

    public override IdealBound Ideal(ParameterValues parameters, int seed) =>
        _ideal?.Invoke(_factory(seed)) ?? new IdealBound(0, "unknown: no ideal was given for this workload");

    public override Workload CreateWorkload(ParameterValues parameters, int seed) => _factory(seed);

    protected override IReadOnlyList<WorkForm> WorkloadForms(ParameterValues parameters) =>
        _forms ??= _factory(0).Forms;
}
