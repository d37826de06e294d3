using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios.Delay;

/// <summary>
/// N items that each wait 10-50 ms, scheduled every way the lab knows. Reproduces the published
/// comparison of a Channel with Parallel.For@4 and Parallel.ForEachAsync @4, @40 and default.
/// </summary>
public sealed class DelayScenario : BatchScenario
{
    public override string Name => "delay";

    public override string Summary => "N items that each wait a seeded 10-50 ms: pure waiting, no CPU";

    public override string Reproduces => "Channels vs Parallel.ForEachAsync on 100 delayed items (seeds/001)";

    public override IReadOnlyList<ParameterDescriptor> Parameters { get; } =
    [
        new("items", ParameterKind.WholeNumber, "100", "number of items") { Minimum = 1, Maximum = 100_000 },
        new("min-delay", ParameterKind.WholeNumber, "10", "shortest delay of an item, ms") { Minimum = 0, Maximum = 60_000 },
        new("max-delay", ParameterKind.WholeNumber, "50", "longest delay of an item, ms (inclusive)") { Minimum = 0, Maximum = 60_000 },
        new(DegreesParameter, ParameterKind.WholeNumberList, "4,40", "degrees of parallelism for the Parallel.*, PLINQ, Dataflow, semaphore and channel-worker variants") { Minimum = 1, Maximum = 10_000 },
    ];

    public override IEnumerable<string> Validate(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (parameters.GetInt32("min-delay") > parameters.GetInt32("max-delay"))
        {
            yield return $"--min-delay ({parameters.GetInt32("min-delay")}) must not exceed --max-delay ({parameters.GetInt32("max-delay")}).";
        }
    }

    public override string DefaultBaseline(ParameterValues parameters) => "parallel-for@4";

    public override IdealBound Ideal(ParameterValues parameters, int seed)
    {
        var longest = CreateDelays(parameters, seed).DelaysMs.Max();
        return new IdealBound(longest, $"the longest single delay ({longest} ms): every item could wait at once");
    }

    public override TimeSpan ExpectedTrialDuration(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return TimeSpan.FromMilliseconds((long)parameters.GetInt32("items") * parameters.GetInt32("max-delay"));
    }

    public override Workload CreateWorkload(ParameterValues parameters, int seed) => CreateDelays(parameters, seed);

    protected override IReadOnlyList<WorkForm> WorkloadForms(ParameterValues parameters) => [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    private static DelayWorkload CreateDelays(ParameterValues parameters, int seed)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return DelayWorkload.Generate(parameters.GetInt32("items"), parameters.GetInt32("min-delay"), parameters.GetInt32("max-delay"), seed);
    }
}
