using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// An experiment: its parameters, its seeded workload and fixture, the variants it compares and the ideal
/// no variant can beat. The runner plans with a scenario in its own process and calls
/// <see cref="RunTrialAsync"/> in each trial's process, so everything a trial needs must be rebuilt from
/// the parameters and the seed.
/// </summary>
public abstract class Scenario
{
    /// <summary>The seed a run builds its workloads from unless it is given another.</summary>
    public const int DefaultSeed = 42;

    /// <summary>The stable, lowercase name used on the command line and in results.</summary>
    public abstract string Name { get; }

    /// <summary>One line saying what the experiment measures.</summary>
    public virtual string Summary { get; init; } = string.Empty;

    /// <summary>The published experiment this scenario reproduces, if any.</summary>
    public virtual string? Reproduces => null;

    /// <summary>The scenario's own parameters, each an option of <c>run</c> (<c>--items 200</c>); none by default.</summary>
    public virtual IReadOnlyList<Parameter> Parameters { get; init; } = [];

    /// <summary>
    /// Whether the scenario runs only when named (<c>conclab run mix</c>), never as one of "every scenario" in a
    /// bare run: a tool for a question of one's own rather than a finding to reproduce.
    /// </summary>
    public bool OnlyWhenNamed { get; init; }

    /// <summary>Checks that go across parameters (such as a minimum above a maximum); one message per problem.</summary>
    public virtual IEnumerable<string> Validate(ParameterValues parameters) => [];

    /// <summary>
    /// <see cref="Validate(ParameterValues)"/> for a run with <paramref name="seed"/>, for checks that depend
    /// on it (such as whether files already on disk were made from the same seed). The planner calls this one.
    /// </summary>
    public virtual IEnumerable<string> Validate(ParameterValues parameters, int seed) => Validate(parameters);

    /// <summary>
    /// The variants the scenario can run with these parameters: its families, and how their names are written
    /// and read (<see cref="VariantSpace"/>). Variants a user names are read here, and nowhere else.
    /// </summary>
    public abstract VariantSpace Variants(ParameterValues parameters);

    /// <summary>Every variant run when none are named.</summary>
    public abstract IReadOnlyList<Variant> DefaultVariants(ParameterValues parameters);

    /// <summary>
    /// Every variant the scenario can run with these parameters, as <c>--variants all</c> asks: for a batch
    /// scenario, every strategy in every form the workload offers, at each degree. The defaults unless overridden.
    /// </summary>
    public virtual IReadOnlyList<Variant> AllVariants(ParameterValues parameters) => DefaultVariants(parameters);

    /// <summary>The variant others are compared with when the user names none.</summary>
    public abstract Variant DefaultBaseline(ParameterValues parameters);

    /// <summary>The lower bound on wall time for this workload.</summary>
    public abstract IdealBound Ideal(ParameterValues parameters, int seed);

    /// <summary>How long one trial should take at most, as a hint for sizing buffers; zero when unknown.</summary>
    public virtual TimeSpan ExpectedTrialDuration(ParameterValues parameters) => TimeSpan.Zero;

    /// <summary>
    /// The metrics the scenario records in its trials besides the lab's own (<see cref="StandardMetrics"/>), each
    /// described once: messages per second, hosts misclassified (which flags a variant when not 0). Every value a
    /// trial sets in <see cref="TrialOutcome.Metrics"/> must be one of these.
    /// </summary>
    public virtual IReadOnlyList<Metric> Metrics { get; init; } = [];

    /// <summary>Notes for the report about how parameters were interpreted (for example, scale changes under --quick).</summary>
    public virtual IEnumerable<string> Notes(ParameterValues parameters, bool quick) => [];

    /// <summary>
    /// What the measured results say beyond the table, in lines for the report's notes; called once the
    /// scenario's trials are summarised. None by default: the verdicts on a reproduced post's claims are the
    /// results' own (<see cref="ScenarioResult.Claims"/>).
    /// </summary>
    internal virtual IEnumerable<string> Conclusions(ScenarioResult result) => [];

    /// <summary>
    /// What the scenario expects a metric of every variant's trials to be for their times to measure the work the run
    /// describes (<see cref="ScenarioResult.Expectations"/>), given the run's parameters (by name, as text): a variant
    /// whose median strays is left out of the answer, and no other stops early against it. None by default.
    /// </summary>
    internal virtual IReadOnlyList<ExpectedMetric> Expectations(IReadOnlyDictionary<string, string> parameters) => [];

    /// <summary>
    /// <see cref="Expectations"/> as the runner and the summary use them: only those that can be weighed (a metric the
    /// scenario records, a finite value above 0, a tolerance between 0 and 1). A failure there costs the expectations,
    /// never the run.
    /// </summary>
    internal IReadOnlyList<ExpectedMetric> WeighableExpectations(IReadOnlyDictionary<string, string> parameters)
    {
        try
        {
            return [.. Expectations(parameters).Where(e => e.IsWeighable(StandardMetrics.All.Concat(Metrics)))];
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            return [];
        }
    }

    /// <summary>
    /// Whether a variant far out of contention may stop after two trials rather than three (adaptive trial counts,
    /// docs/method.md): false by default, since a post's claims judge each variant's interval on three; a workload of
    /// your own (<see cref="WorkloadScenario"/>) says true.
    /// </summary>
    internal virtual bool MayStopAfterTwoTrials => false;

    /// <summary>
    /// The variants a bare <c>conclab run</c> runs: those that carry the published finding and the answer done
    /// right, for a first look in a minute or two; empty for the defaults.
    /// </summary>
    internal virtual IReadOnlyList<string> FirstLook => [];

    /// <summary>
    /// The services the scenario's trials start in processes of their own (the fanout experiment's HTTP
    /// services); none by default. The program's service processes look them up here.
    /// </summary>
    internal virtual IReadOnlyList<ServiceDefinition> Services => [];

    /// <summary>
    /// The scenario's services a user can start by themselves, <c>conclab serve NAME</c>, to put them on hosts of
    /// their own or under a load generator; none by default.
    /// </summary>
    internal virtual IReadOnlyList<StandaloneService> Standalone => [];

    /// <summary>
    /// Makes what all of the run's trials share (see <see cref="RunFixture"/>); null, the default, when they
    /// share nothing. Called in the runner's process before the scenario's first trial. A failure here is
    /// told in the report's notes and the scenario's trials do not run; the run goes on to other scenarios.
    /// </summary>
    public virtual Task<RunFixture?> PrepareRunAsync(ParameterValues parameters, int seed, CancellationToken cancellationToken = default) =>
        Task.FromResult<RunFixture?>(null);

    /// <summary>
    /// Runs one trial of <see cref="TrialContext.Variant"/>: sets up the fixture, starts the meter, runs the
    /// variant, stops the meter, checks the results and tears the fixture down.
    /// </summary>
    public abstract Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default);
}
