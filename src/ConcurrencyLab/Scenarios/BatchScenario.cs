using ConcurrencyLab.Measurement;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A scenario whose variants are strategies crossed with the forms of one workload: N independent items,
/// each run once. Subclasses build the workload from the parameters and seed; this class turns every
/// strategy into variants, validates pairings before a run, and runs and checks a trial. A batch of your own is a
/// <see cref="WorkloadScenario"/>; the lab's own scenarios derive from this class, whose extension points (the
/// degrees, the forms, a trial's preparation and check) are the lab's and change with it.
/// </summary>
public abstract class BatchScenario : Scenario
{
    private protected BatchScenario()
    {
    }

    private const int PrimeItems = 4;

    /// <summary>Builds the workload; the same parameters and seed must give the same items.</summary>
    public abstract Workload CreateWorkload(ParameterValues parameters, int seed);

    /// <summary>
    /// Sets up a trial before it is measured: starts the fixture (servers, files) if the scenario has one and
    /// builds the workload against it. The fixture is disposed after the trial, also when it fails.
    /// </summary>
    private protected virtual Task<PreparedTrial> PrepareAsync(ParameterValues parameters, int seed, CancellationToken cancellationToken) =>
        Task.FromResult(new PreparedTrial(CreateWorkload(parameters, seed), null));

    /// <summary>Sets up a trial of <see cref="TrialContext.Variant"/>: by default, as
    /// <see cref="PrepareAsync(ParameterValues, int, CancellationToken)"/> does from the parameters and seed.</summary>
    private protected virtual Task<PreparedTrial> PrepareAsync(TrialContext context, CancellationToken cancellationToken) =>
        PrepareAsync(context.Parameters, context.Seed, cancellationToken);

    /// <summary>
    /// Numbers that multiply the variants (a user's <see cref="Scenarios.Sweep"/>): each variant runs once at each
    /// value, named <c>whenall:wait-ms=10</c>. None by default.
    /// </summary>
    private protected virtual IReadOnlyList<(VariantParameter Parameter, IReadOnlyList<int> Values)> SweepsOf(ParameterValues parameters) => [];

    /// <summary>
    /// Scenario-specific checks on what the items found (for example hosts misclassified), recorded as the
    /// scenario's own <see cref="Scenario.Metrics"/>; and an error when a check means the trial failed.
    /// </summary>
    private protected virtual (MetricValues? Metrics, string? Error) CheckResults(Workload workload, object? fixture) => (null, null);

    /// <summary>
    /// Describes the forms the workload offers without building it (building may be costly, or need a fixture).
    /// </summary>
    private protected abstract IReadOnlyList<WorkForm> WorkloadForms(ParameterValues parameters);

    /// <summary>The scenario's <c>--dop</c>: the degrees of parallelism its strategies with a degree run at.</summary>
    private protected abstract Parameter<IReadOnlyList<int>> Degrees { get; }

    /// <summary>A <c>--dop</c> parameter: a list of degrees from 1 to <paramref name="maximum"/>.</summary>
    private protected static Parameter<IReadOnlyList<int>> DegreesParameter(IReadOnlyList<int> defaults, string description,
        int maximum, IReadOnlyList<int>? quick = null) =>
        Parameter.WholeNumbers("dop", defaults, description, minimum: 1, maximum: maximum, quick: quick);

    /// <summary>The word <c>--dop</c> takes for a search of each strategy's degree.</summary>
    internal const string SearchWord = "auto";

    /// <summary>
    /// <c>--dop</c> whose default is <see cref="SearchWord"/>: a run that gives no degrees searches them, starting
    /// its plan from <paramref name="defaults"/>, which <c>auto</c> reads as.
    /// </summary>
    private protected static Parameter<IReadOnlyList<int>> SearchedDegreesParameter(IReadOnlyList<int> defaults, string description, int maximum)
    {
        var numbers = DegreesParameter(defaults, description, maximum);
        return new Parameter<IReadOnlyList<int>>(
            numbers.Name,
            $"{description}, or {SearchWord} to search each one's degree (tried from the core count up; the default)",
            SearchWord,
            quickValue: null,
            text => string.Equals(text.Trim(), SearchWord, StringComparison.OrdinalIgnoreCase) ? (defaults, null) : numbers.Parse(text));
    }

    /// <summary>Whether a run that gives no <c>--dop</c> searches the degrees (its default is <see cref="SearchWord"/>).</summary>
    internal bool SearchesDegreesByDefault => Degrees.DefaultValue == SearchWord;

    /// <summary>The degrees a plan starts from when <c>--dop</c> is <see cref="SearchWord"/>.</summary>
    internal IReadOnlyList<int> StartingDegrees => Degrees.Parse(SearchWord) is ({ } degrees, null) ? degrees : [];

    /// <summary>Whether the variant name <paramref name="text"/> a user typed chooses a degree (<c>parallel-for@8</c>,
    /// not <c>parallel-for@default</c>).</summary>
    internal bool NamesADegree(string text) =>
        new VariantSpace(Name, "strategy", [.. StrategyCatalog.All.Select(BatchVariant.Family)]) { Aliases = PublishedNames }.LeadValue(
            text)?.Number is not null;

    /// <summary>The degrees from <c>--dop</c>.</summary>
    private protected IReadOnlyList<int> DegreesOf(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return parameters.Get(Degrees);
    }

    /// <summary>
    /// Names a published experiment gave its variants, each mapped to the lab's name for the same variant; the
    /// variant is then shown under the published name. None by default.
    /// </summary>
    private protected virtual IReadOnlyDictionary<string, string> PublishedNames => new Dictionary<string, string>();

    /// <summary>Every strategy, each in the forms it can call items in and at a degree if it takes one.</summary>
    public override VariantSpace Variants(ParameterValues parameters)
    {
        var forms = WorkloadForms(parameters);
        return new VariantSpace(Name, "strategy", [.. StrategyCatalog.All.Select(BatchVariant.Family)])
        {
            Aliases = PublishedNames,
            Sweeps = SweepsOf(parameters),
            Refuse = variant => variant.Form is { } form && !forms.Contains(form)
                ? $"the {Name} workload has no {form.ToSuffix()} form; it offers {string.Join(", ", forms.Select(f => f.ToSuffix()))}."
                : null,
        };
    }

    /// <inheritdoc/>
    public override IReadOnlyList<Variant> DefaultVariants(ParameterValues parameters) => Enumerate(parameters, all: false);

    /// <summary>Every strategy in every form the workload offers, at each degree and at the API's default degree.</summary>
    public override IReadOnlyList<Variant> AllVariants(ParameterValues parameters) => Enumerate(parameters, all: true);

    // The defaults: each strategy that runs by default, in its first form the workload offers, at the run's
    // degrees (and its default degree where that is telling). All: every strategy, every form, both.
    private List<Variant> Enumerate(ParameterValues parameters, bool all)
    {
        var forms = WorkloadForms(parameters);
        var space = Variants(parameters);
        var sweeps = Combinations(SweepsOf(parameters));
        var variants = new List<Variant>();
        foreach (var strategy in StrategyCatalog.All)
        {
            if (!strategy.RunByDefault && !all)
            {
                continue;
            }

            var strategyForms = strategy.Forms.Where(forms.Contains).ToList();
            foreach (var form in all ? strategyForms : strategyForms.Take(1))
            {
                var values = new List<string?>();
                if (!strategy.HasDegree)
                {
                    values.Add(null);
                }
                else
                {
                    // A degree the API refuses (PLINQ above 512) is left out rather than run and failed.
                    values.AddRange(DegreesOf(parameters).Where(d => d <= strategy.MaxDegree).Select(d => Degree.Of(d).ToString()));
                    if (strategy.RunAtDefaultDegree || all)
                    {
                        values.Add(Degree.Default.ToString());
                    }
                }

                foreach (var value in values)
                {
                    foreach (var sweep in sweeps)
                    {
                        variants.Add(space.Create(strategy.Id, form, value, sweep));
                    }
                }
            }
        }

        return variants;
    }

    // Every combination of the sweeps' values: [{}] when there are none.
    private static List<Dictionary<string, string>> Combinations(IReadOnlyList<(VariantParameter Parameter, IReadOnlyList<int> Values)> sweeps)
    {
        var combinations = new List<Dictionary<string, string>> { new(StringComparer.Ordinal) };
        foreach (var (parameter, values) in sweeps)
        {
            combinations = [.. combinations.SelectMany(
                c => values.Select(
                    v => new Dictionary<string, string>(
                        c, StringComparer.Ordinal) { [parameter.Name] = v.ToString(System.Globalization.CultureInfo.InvariantCulture) }))];
        }

        return combinations;
    }

    /// <inheritdoc/>
    public override async Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        var variant = BatchVariant.Of(context.Variant);
        var prepared = await PrepareAsync(context, cancellationToken).ConfigureAwait(false);
        try
        {
            await prepared.Workload.SetUpAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                return await RunPreparedAsync(context, variant, prepared.Workload, prepared.Fixture, cancellationToken).ConfigureAwait(false);
            }
            finally
            {
                await prepared.Workload.TearDownAsync().ConfigureAwait(false);
            }
        }
        finally
        {
            if (prepared.Fixture is not null)
            {
                await prepared.Fixture.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private async Task<TrialOutcome> RunPreparedAsync(
        TrialContext context,
        BatchVariant variant,
        Workload workload,
        IAsyncDisposable? fixture,
        CancellationToken cancellationToken)
    {
        if (context.Prime)
        {
            // A few items are enough to compile every path; too few to make the pool inject threads.
            // The dry batch is handed over as the measured one is, so the marks the region calls are compiled here.
            var dry = new WorkBatch(workload.CreatePrimer(Math.Min(PrimeItems, workload.Count)), variant.Form);
            dry.MarkStart();
            var dryRun = variant.Strategy.ExecuteAsync(dry, variant.Degree, cancellationToken);
            dry.MarkHandedBack();
            await dryRun.ConfigureAwait(false);
        }

        var batch = new WorkBatch(workload, variant.Form);
        string? failure = null;

        context.Meter.Start();
        batch.MarkStart();
        try
        {
            // The strategy's first synchronous stretch is the handing-over thread's own: what it runs of the items
            // there is the caller's share. Once the call returns, that thread may pick up anything.
            var execution = variant.Strategy.ExecuteAsync(batch, variant.Degree, cancellationToken);
            batch.MarkHandedBack();
            await execution.ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            failure = TrialFailure.Describe(ex);
        }
        finally
        {
            context.Meter.Stop();
        }

        var inFlight = batch.InFlight(variant.Strategy.MostAtOnce(variant.Degree, workload.Count));

        var (metrics, checkError) = CheckResults(workload, fixture);
        string? workloadError;
        var own = new MetricValues();
        try
        {
            workloadError = workload.Check();
            workload.CollectMetrics(own);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The region was measured; what went wrong reading it is the trial's error, not a crash.
            workloadError = "the workload's own check or metrics failed: " + TrialFailure.Describe(ex);
        }

        if (own.Count > 0)
        {
            metrics ??= new MetricValues();
            metrics.AddRange(own);
        }

        return new TrialOutcome
        {
            ItemsPlanned = workload.Count,
            ItemsCompleted = batch.Completed,
            ItemsDuplicated = batch.Duplicated,
            LatenciesMs = batch.CompletionLatenciesMs(),
            // One item after another, each item's time is the gap between two ends: what it costs alone.
            LongestItemMs = variant.Strategy is SequentialStrategy ? batch.LongestItemInSeriesMs() : null,
            ItemTimesMs = batch.ItemTimesMs(),
            CallerMs = batch.CallerMs(),
            FirstItemMs = batch.FirstItemMs(),
            InFlight = inFlight,
            WorkloadDigest = workload.Digest,
            Metrics = metrics,
            Error = failure ?? checkError ?? workloadError,
        };
    }
}
