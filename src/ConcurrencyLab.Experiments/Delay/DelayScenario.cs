using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Experiments.Delay;

/// <summary>
/// N items that each wait 10-50 ms, scheduled every way the lab knows. Reproduces the published
/// comparison of a Channel with Parallel.For@4 and Parallel.ForEachAsync @4, @40 and default.
/// </summary>
public sealed class DelayScenario : BatchScenario, IReproducesPost
{
    /// <inheritdoc/>
    public override string Name => "delay";

    /// <inheritdoc/>
    public override string Summary => "N items that each wait a seeded 10-50 ms: pure waiting, no CPU";

    /// <inheritdoc/>
    public override string Reproduces
        => "Channels vs Parallel.ForEachAsync on 100 delayed items (the post \".NET Task Parallel Library vs System.Threading.Channels\", 2023)";

    /// <inheritdoc/>
    PublishedClaims IReproducesPost.Claims => DelayClaims.All;

    /// <inheritdoc/>
    /// <remarks>the published Channel against Parallel.For@4, and WhenAll done right.</remarks>
    internal override IReadOnlyList<string> FirstLook => ["parallel-for@4", "channel", "whenall"];

    internal static readonly Parameter<int> Items = Parameter.WholeNumber("items", 100, "number of items", minimum: 1, maximum: 100_000, quick: 40);

    internal static readonly Parameter<int> MinDelay = Parameter.WholeNumber("min-delay", 10,
        "shortest delay of an item, ms", minimum: 0, maximum: 60_000);

    internal static readonly Parameter<int> MaxDelay = Parameter.WholeNumber("max-delay", 50,
        "longest delay of an item, ms (inclusive)", minimum: 0, maximum: 60_000);

    internal static readonly Parameter<DelayTimer> Timer = Parameter.Choice(
        "timer",
        DelayTimer.Precise,
        "what times asynchronous waits: precise (a dedicated Stopwatch timer, on time like an I/O reply) or task-delay (Task.Delay, as " +
            "published; 4 ms steps on Linux)",
        ("precise", DelayTimer.Precise),
        ("task-delay", DelayTimer.TaskDelay));

    private static readonly Parameter<IReadOnlyList<int>> DelayDegrees =
        DegreesParameter(
            [4, 40], "degrees of parallelism for the Parallel.*, PLINQ, Dataflow, semaphore and channel-worker variants", maximum: 10_000);

    /// <inheritdoc/>
    public override IReadOnlyList<Parameter> Parameters { get; init; } = [Items, MinDelay, MaxDelay, Timer, DelayDegrees];

    /// <inheritdoc/>
    private protected override Parameter<IReadOnlyList<int>> Degrees => DelayDegrees;

    /// <inheritdoc/>
    public override IEnumerable<string> Validate(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (parameters.Get(MinDelay) > parameters.Get(MaxDelay))
        {
            yield return $"--min-delay ({parameters.Get(MinDelay)}) must not exceed --max-delay ({parameters.Get(MaxDelay)}).";
        }
    }

    /// <inheritdoc/>
    public override Variant DefaultBaseline(ParameterValues parameters) => Variants(parameters).Create("parallel-for", DegreesOf(parameters)[0]);

    /// <inheritdoc/>
    public override IdealBound Ideal(ParameterValues parameters, int seed)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var longest = DelayWorkload.DrawDelays(parameters.Get(Items), parameters.Get(MinDelay), parameters.Get(MaxDelay), seed).Max();
        return new IdealBound(longest, $"the longest single delay ({longest} ms): every item could wait at once");
    }

    /// <inheritdoc/>
    public override TimeSpan ExpectedTrialDuration(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return TimeSpan.FromMilliseconds((long)parameters.Get(Items) * parameters.Get(MaxDelay));
    }

    /// <inheritdoc/>
    public override Workload CreateWorkload(ParameterValues parameters, int seed) => CreateDelays(parameters, seed);

    /// <inheritdoc/>
    private protected override IReadOnlyList<WorkForm> WorkloadForms(ParameterValues parameters) => [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    private static DelayWorkload CreateDelays(ParameterValues parameters, int seed)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return DelayWorkload.Generate(parameters.Get(Items), parameters.Get(MinDelay), parameters.Get(MaxDelay), seed, parameters.Get(Timer));
    }
}
