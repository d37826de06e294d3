using ConcurrencyLab.Results;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A scenario whose variants are strategies crossed with the forms of one workload: N independent items,
/// each run once. Subclasses build the workload from the parameters and seed; this class turns every
/// strategy into variants, validates pairings before a run, and runs and checks a trial.
/// </summary>
public abstract class BatchScenario : Scenario
{
    private const int PrimeItems = 4;

    private static readonly string[] NamedOnly = ["parallel-foreach", "task-loop", "mix-and-match"];

    /// <summary>Builds the workload; the same parameters and seed must give the same items.</summary>
    public abstract Workload CreateWorkload(ParameterValues parameters, int seed);

    /// <summary>
    /// Sets up a trial before it is measured: starts the fixture (servers, files) if the scenario has one and
    /// builds the workload against it. The fixture is disposed after the trial, also when it fails.
    /// </summary>
    protected virtual Task<PreparedTrial> PrepareAsync(ParameterValues parameters, int seed, CancellationToken cancellationToken) =>
        Task.FromResult(new PreparedTrial(CreateWorkload(parameters, seed), null));

    /// <summary>
    /// Scenario-specific checks on what the items found (for example hosts misclassified), recorded in the
    /// trial's <c>checks</c>; and an error when a check means the trial failed.
    /// </summary>
    protected virtual (IReadOnlyDictionary<string, double>? Checks, string? Error) CheckResults(Workload workload, object? fixture) => (null, null);

    /// <summary>Strategies that get an <c>@default</c> variant besides the listed degrees.</summary>
    protected virtual IReadOnlyCollection<string> StrategiesWithDefaultDegree => ["parallel-for", "foreach-async"];

    /// <summary>
    /// Describes the forms the workload offers without building it (building may be costly, or need a fixture).
    /// </summary>
    protected abstract IReadOnlyList<WorkForm> WorkloadForms(ParameterValues parameters);

    /// <summary>The scenario's <c>--dop</c>: the degrees of parallelism its strategies with a degree run at.</summary>
    protected abstract Parameter<IReadOnlyList<int>> Degrees { get; }

    /// <summary>A <c>--dop</c> parameter: a list of degrees from 1 to <paramref name="maximum"/>.</summary>
    protected static Parameter<IReadOnlyList<int>> DegreesParameter(IReadOnlyList<int> defaults, string description, int maximum, IReadOnlyList<int>? quick = null) =>
        Parameter.WholeNumbers("dop", defaults, description, minimum: 1, maximum: maximum, quick: quick);

    /// <summary>The degrees from <c>--dop</c>.</summary>
    protected IReadOnlyList<int> DegreesOf(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return parameters.Get(Degrees);
    }

    /// <inheritdoc/>
    public override IReadOnlyList<VariantInfo> DefaultVariants(ParameterValues parameters)
    {
        var forms = WorkloadForms(parameters);
        var variants = new List<VariantInfo>();
        foreach (var strategy in StrategyCatalog.All)
        {
            // Run only when named: Parallel.ForEach is Parallel.For over an enumerable, and the task loop and
            // mix-and-match runners reproduce one published scanner.
            if (NamedOnly.Contains(strategy.Id))
            {
                continue;
            }

            var form = strategy.Forms.Where(forms.Contains).Cast<WorkForm?>().FirstOrDefault();
            if (form is null)
            {
                continue;
            }

            if (!strategy.HasDegree)
            {
                Add(new BatchVariant(strategy, form.Value, Degree.Default));
                continue;
            }

            // A degree the API refuses (PLINQ above 512) is left out rather than run and failed.
            foreach (var degree in DegreesOf(parameters).Where(d => d <= strategy.MaxDegree))
            {
                Add(new BatchVariant(strategy, form.Value, Degree.Of(degree)));
            }

            if (StrategiesWithDefaultDegree.Contains(strategy.Id))
            {
                Add(new BatchVariant(strategy, form.Value, Degree.Default));
            }
        }

        return variants;

        void Add(BatchVariant variant) => variants.Add(Describe(variant));
    }

    /// <summary>The batch variant a scenario-specific name stands for (such as a published experiment's own name).</summary>
    protected virtual string ToBatchName(string name) => name;

    /// <summary>The name results show for a batch variant; the reverse of <see cref="ToBatchName"/>.</summary>
    protected virtual string DisplayName(BatchVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return variant.Name;
    }

    /// <summary>Describes a batch variant under its display name.</summary>
    protected VariantInfo Describe(BatchVariant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return new VariantInfo(DisplayName(variant), variant.Description);
    }

    /// <inheritdoc/>
    public override bool TryResolveVariant(string name, ParameterValues parameters, out VariantInfo variant, out string problem)
    {
        variant = null!;
        ArgumentNullException.ThrowIfNull(name);
        if (!BatchVariant.TryParse(ToBatchName(name.Trim().ToLowerInvariant()), out var parsed, out problem))
        {
            return false;
        }

        if (!WorkloadForms(parameters).Contains(parsed.Form))
        {
            problem = $"variant '{name}': the {Name} workload has no {parsed.Form.ToSuffix()} form; it offers {string.Join(", ", WorkloadForms(parameters).Select(f => f.ToSuffix()))}.";
            return false;
        }

        variant = Describe(parsed);
        problem = string.Empty;
        return true;
    }

    /// <inheritdoc/>
    public override async Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (!BatchVariant.TryParse(ToBatchName(context.Variant), out var variant, out var error))
        {
            throw new ArgumentException(error, nameof(context));
        }

        var prepared = await PrepareAsync(context.Parameters, context.Seed, cancellationToken).ConfigureAwait(false);
        try
        {
            return await RunPreparedAsync(context, variant, prepared.Workload, prepared.Fixture, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            if (prepared.Fixture is not null)
            {
                await prepared.Fixture.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private async Task<TrialOutcome> RunPreparedAsync(TrialContext context, BatchVariant variant, Workload workload, IAsyncDisposable? fixture, CancellationToken cancellationToken)
    {
        if (context.Prime)
        {
            // A few items are enough to compile every path; too few to make the pool inject threads.
            var dry = new WorkBatch(workload.CreatePrimer(Math.Min(PrimeItems, workload.Count)), variant.Form);
            await variant.Strategy.ExecuteAsync(dry, variant.Degree, cancellationToken).ConfigureAwait(false);
        }

        var batch = new WorkBatch(workload, variant.Form);
        string? failure = null;

        context.Meter.Start();
        batch.MarkStart();
        try
        {
            await variant.Strategy.ExecuteAsync(batch, variant.Degree, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            failure = TrialFailure.Describe(ex);
        }
        finally
        {
            context.Meter.Stop();
        }

        var (checks, checkError) = CheckResults(workload, fixture);
        return new TrialOutcome
        {
            ItemsPlanned = workload.Count,
            ItemsCompleted = batch.Completed,
            ItemsDuplicated = batch.Duplicated,
            LatenciesMs = batch.CompletionLatenciesMs(),
            WorkloadDigest = workload.Digest,
            Checks = checks,
            Error = failure ?? checkError,
        };
    }
}
