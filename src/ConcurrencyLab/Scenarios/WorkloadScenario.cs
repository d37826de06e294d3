using System.Text.Json;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Results;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// Your own workload as a scenario: its items run through every strategy the lab knows (threads, the pool,
/// tasks, <c>Parallel</c>, PLINQ, Channels, Dataflow...), in every form the workload offers. Give it to
/// <c>LabProgram.RunAsync</c> and your program takes conclab's command line. The factory is called in every
/// trial's own process (and in the runner's, to read the workload's forms and ideal) and must build the same
/// items from the same <see cref="WorkloadContext"/>.
/// </summary>
/// <example>
/// <code>
/// var items = Parameter.WholeNumber("items", 200, "items in a batch", minimum: 1, quick: 40);
/// var waitMs = new Sweep("wait-ms", [30], "how long each item waits, ms");
/// var scenario = new WorkloadScenario("resize", context => new ResizeWorkload(context.Get(items), context.Get(waitMs), context.Seed))
/// {
///     Summary = "resize 200 images, each after a 30 ms fetch",
///     Parameters = [items],
///     Sweeps = [waitMs],
///     DefaultDegrees = [4, 16],
/// };
/// </code>
/// </example>
public sealed class WorkloadScenario : BatchScenario
{
    /// <summary>The trial parameter that holds the path of the run set-up's JSON file.</summary>
    internal const string RunSetUpKey = "conclab-run-set-up";

    /// <summary>How a run set-up travels to the trials: public properties and fields, as they are named.</summary>
    internal static readonly JsonSerializerOptions SetUpJson = new(JsonSerializerDefaults.General) { IncludeFields = true };

    private readonly Func<WorkloadContext, Workload> _factory;
    private Parameter<IReadOnlyList<int>>? _degrees;
    private IReadOnlyList<Parameter>? _parameters;
    private IReadOnlyList<WorkForm>? _forms;

    /// <summary>A scenario called <paramref name="name"/> whose workload <paramref name="factory"/> builds from a trial's context.</summary>
    /// <param name="name">Its name on the command line and in the results: lowercase letters, digits and dashes.</param>
    /// <param name="factory">Builds the workload; the same context must give the same items.</param>
    public WorkloadScenario(string name, Func<WorkloadContext, Workload> factory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(factory);
        if (!name.All(c => char.IsAsciiLetterLower(c) || char.IsAsciiDigit(c) || c == '-') || name[0] == '-')
        {
            throw new ArgumentException($"A scenario's name is lowercase letters, digits and dashes, such as 'resize-images', not '{name}'.",
                nameof(name));
        }

        Name = name;
        _factory = factory;
        Summary = "a workload of your own";
    }

    /// <inheritdoc/>
    public override string Name { get; }

    /// <summary>
    /// Your scenario's parameters (<see cref="Parameter.WholeNumber"/> and the others), each an option of the
    /// command line (<c>--items 500</c>) read in the factory with <see cref="WorkloadContext.Get{T}(Parameter{T})"/>;
    /// with them come <c>--dop</c> (the degrees, from <see cref="DefaultDegrees"/>) and the sweeps' lists.
    /// </summary>
    public override IReadOnlyList<Parameter> Parameters => _parameters ??= AllParameters();

    /// <summary>
    /// The degrees of parallelism the strategies that take one run at, unless <c>--dop</c> says otherwise; 4 by
    /// default. With <see cref="SearchDegrees"/> (the default), a run that gives no <c>--dop</c> searches each
    /// strategy's degree instead, and these are where its plan starts.
    /// </summary>
    public IReadOnlyList<int> DefaultDegrees { get; init; } = [4];

    /// <summary>
    /// Whether a run that gives no <c>--dop</c> searches each strategy's degree (<c>--dop auto</c>, the default:
    /// the best degree is what most users come to find); false to run <see cref="DefaultDegrees"/> as they are.
    /// A run that names a variant at a degree (<c>parallel-for@8</c>) runs the degrees named.
    /// </summary>
    public bool SearchDegrees { get; init; } = true;

    /// <summary>Numbers that multiply the variants (see <see cref="Sweep"/>); none by default.</summary>
    public IReadOnlyList<Sweep> Sweeps { get; init; } = [];

    /// <summary>
    /// The forms the workload offers, when it must not be built just to ask (its factory reads the run's set-up,
    /// which has not run when the lab plans); read from a workload built with the run's parameters when null.
    /// </summary>
    public IReadOnlyList<WorkForm>? Forms { get; init; }

    /// <summary>
    /// Makes, once per run and in the runner's process only, what every trial needs and none should make for
    /// itself: a calibrated number, a data file, a server's address. What it returns reaches each trial's
    /// process as JSON, read with <see cref="WorkloadContext.RunSetUp{T}"/>; keep it small and name files by
    /// path. If it is <see cref="IAsyncDisposable"/> or <see cref="IDisposable"/>, it is disposed in the runner's
    /// process after the scenario's last trial (delete the data file there). Null, the default: no set-up.
    /// </summary>
    public Func<WorkloadContext, CancellationToken, Task<object?>>? SetUpRunAsync { get; init; }

    /// <summary>
    /// Whether a run that names no variants runs them all (every strategy in every form the workload has, at
    /// each degree), as <c>--variants all</c> does, rather than each strategy once in its default form.
    /// </summary>
    public bool EveryVariantByDefault { get; init; }

    /// <inheritdoc/>
    public override IReadOnlyList<Variant> DefaultVariants(ParameterValues parameters) =>
        EveryVariantByDefault ? AllVariants(parameters) : base.DefaultVariants(parameters);

    /// <summary>The lower bound on a batch's wall time, computed from a workload the runner builds; unknown (0) when null.</summary>
    public Func<Workload, IdealBound>? IdealOf { get; init; }

    /// <summary>What the lab's own workloads read in their results beyond the table (<see cref="Scenario.Conclusions"/>); none when null.</summary>
    internal Func<ScenarioResult, IEnumerable<string>>? Conclude { get; init; }

    /// <inheritdoc/>
    internal override IEnumerable<string> Conclusions(ScenarioResult result) => Conclude?.Invoke(result) ?? [];

    /// <summary>What the lab's own workloads expect of their trials' metrics for the times to measure the work
    /// described (<see cref="Scenario.Expectations"/>); none when null.</summary>
    internal Func<IReadOnlyDictionary<string, string>, IReadOnlyList<ExpectedMetric>>? Expect { get; init; }

    /// <inheritdoc/>
    internal override IReadOnlyList<ExpectedMetric> Expectations(IReadOnlyDictionary<string, string> parameters) => Expect?.Invoke(parameters) ?? [];

    /// <summary>A workload of your own reproduces no post, so no claim needs three trials of a variant far out of contention.</summary>
    internal override bool MayStopAfterTwoTrials => true;

    /// <inheritdoc/>
    private protected override Parameter<IReadOnlyList<int>> Degrees =>
        _degrees ??= SearchDegrees
            ? SearchedDegreesParameter(DefaultDegrees is { Count: > 0 } ? DefaultDegrees : [4],
                "degrees of parallelism for the strategies that take one", maximum: 10_000)
            : DegreesParameter(DefaultDegrees is { Count: > 0 } ? DefaultDegrees : [4],
                "degrees of parallelism for the strategies that take one", maximum: 10_000);

    /// <summary>One item after another, in the first form the workload offers that a loop can call.</summary>
    public override Variant DefaultBaseline(ParameterValues parameters)
    {
        var sequential = StrategyCatalog.Find("sequential")!;
        var firstValues = SweepsOf(parameters)
            .ToDictionary(s => s.Parameter.Name, s => s.Values[0].ToString(System.Globalization.CultureInfo.InvariantCulture));
        return Variants(parameters)
            .Create(sequential.Id, WorkloadForms(parameters).Where(sequential.Supports).Cast<WorkForm?>().FirstOrDefault(), others: firstValues);
    }

    /// <inheritdoc/>
    public override IdealBound Ideal(ParameterValues parameters, int seed) =>
        IdealOf is null ? new IdealBound(0, "unknown: no ideal was given for this workload")
        : SetUpRunAsync is not null ? new IdealBound(0, "given once the run's set-up has run")
        : IdealOf(CreateWorkload(parameters, seed));

    /// <inheritdoc/>
    public override Workload CreateWorkload(ParameterValues parameters, int seed) => _factory(WorkloadContext.ForRun(parameters, seed));

    /// <inheritdoc/>
    public override async Task<RunFixture?> PrepareRunAsync(ParameterValues parameters, int seed, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (SetUpRunAsync is null)
        {
            return null;
        }

        var made = await SetUpRunAsync(WorkloadContext.ForRun(parameters, seed), cancellationToken).ConfigureAwait(false);
        // In the run journal's own folder, which goes with the journal whatever becomes of the run (beside it in the
        // temporary folder only when there is none), and readable by this user alone.
        var name = $"conclab-setup-{Environment.ProcessId}-{Guid.NewGuid():N}.json";
        var path = RunJournal.Current?.Place(name) ?? Path.Combine(Path.GetTempPath(), name);
        IDisposable? claim = null;
        try
        {
            await PrivateFiles.WriteAllTextAsync(path, JsonSerializer.Serialize(made, made?.GetType() ?? typeof(object), SetUpJson),
                cancellationToken).ConfigureAwait(false);
            var trialParameters = new Dictionary<string, string> { [RunSetUpKey] = path };
            var ideal = IdealOf is null ? null : IdealOf(CreateWorkload(parameters.With(trialParameters), seed));
            return new RunFixture(trialParameters, [], () => ReleaseAsync(path, claim, made)) { Ideal = ideal };
        }
        catch
        {
            await ReleaseAsync(path, claim, made).ConfigureAwait(false);
            throw;
        }
    }

    /// <inheritdoc/>
    private protected override Task<PreparedTrial> PrepareAsync(TrialContext context, CancellationToken cancellationToken) =>
        Task.FromResult(new PreparedTrial(_factory(new WorkloadContext(context.Parameters, context.Seed, context.Variant)), null));

    /// <inheritdoc/>
    private protected override IReadOnlyList<WorkForm> WorkloadForms(ParameterValues parameters) =>
        _forms ??= Forms ?? CreateWorkload(parameters, DefaultSeed).Forms;

    /// <inheritdoc/>
    private protected override IReadOnlyList<(VariantParameter Parameter, IReadOnlyList<int> Values)> SweepsOf(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return [.. Sweeps.Select(s => parameters.Get(s.Values) is var values ? (s.ForVariants(values), values) : default)];
    }

    // --dop, then the scenario's own, then the sweeps' lists; a name given twice is the scenario author's
    // mistake, said at once rather than as a parameter silently shadowed.
    private List<Parameter> AllParameters()
    {
        List<Parameter> all = [Degrees, .. base.Parameters, .. Sweeps.Select(s => s.Values)];
        var twice = all.GroupBy(p => p.Name, StringComparer.Ordinal).FirstOrDefault(g => g.Count() > 1);
        return twice is null
            ? all
            : throw new InvalidOperationException($"The {Name} scenario has two parameters named '{twice.Key}' (its own, its sweeps' and " +
                $"--dop share one set of names).");
    }

    private static async ValueTask ReleaseAsync(string path, IDisposable? claim, object? made)
    {
        File.Delete(path);
        claim?.Dispose();
        switch (made)
        {
            case IAsyncDisposable asyncDisposable:
                await asyncDisposable.DisposeAsync().ConfigureAwait(false);
                break;
            case IDisposable disposable:
                disposable.Dispose();
                break;
        }
    }
}
