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
        new("items", ParameterKind.WholeNumber, "100", "number of items") { QuickValue = "40", Minimum = 1, Maximum = 100_000 },
        new("min-delay", ParameterKind.WholeNumber, "10", "shortest delay of an item, ms") { Minimum = 0, Maximum = 60_000 },
        new("max-delay", ParameterKind.WholeNumber, "50", "longest delay of an item, ms (inclusive)") { Minimum = 0, Maximum = 60_000 },
        new("timer", ParameterKind.Text, "precise", "what times asynchronous waits: precise (a dedicated Stopwatch timer, on time like an I/O reply) or task-delay (Task.Delay, as published; 4 ms steps on Linux)"),
        new(DegreesParameter, ParameterKind.WholeNumberList, "4,40", "degrees of parallelism for the Parallel.*, PLINQ, Dataflow, semaphore and channel-worker variants") { Minimum = 1, Maximum = 10_000 },
    ];

    public override IEnumerable<string> Validate(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (!TryParseTimer(parameters.GetText("timer"), out _))
        {
            yield return $"--timer must be precise or task-delay, not '{parameters.GetText("timer")}'.";
        }

        if (parameters.GetInt32("min-delay") > parameters.GetInt32("max-delay"))
        {
            yield return $"--min-delay ({parameters.GetInt32("min-delay")}) must not exceed --max-delay ({parameters.GetInt32("max-delay")}).";
        }
    }

    /// <summary>Reads <c>--timer</c>.</summary>
    internal static bool TryParseTimer(string text, out DelayTimer timer)
    {
        timer = text switch
        {
            "precise" => DelayTimer.Precise,
            "task-delay" => DelayTimer.TaskDelay,
            _ => (DelayTimer)(-1),
        };
        return Enum.IsDefined(timer);
    }

    public override string DefaultBaseline(ParameterValues parameters) => $"parallel-for@{Degrees(parameters)[0]}";

    public override IdealBound Ideal(ParameterValues parameters, int seed)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var longest = DelayWorkload.DrawDelays(parameters.GetInt32("items"), parameters.GetInt32("min-delay"), parameters.GetInt32("max-delay"), seed).Max();
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
        var timer = TryParseTimer(parameters.GetText("timer"), out var parsed) ? parsed : DelayTimer.Precise;
        return DelayWorkload.Generate(parameters.GetInt32("items"), parameters.GetInt32("min-delay"), parameters.GetInt32("max-delay"), seed, timer);
    }
}
