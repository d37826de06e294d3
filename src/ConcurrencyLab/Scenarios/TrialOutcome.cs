using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// What a scenario reports about the items of one trial; the meter supplies the rest. The runner's domain, not the
/// results file's: the trial's host maps it, with the meter's measurements, to the <see cref="Results.TrialResult"/>
/// results.json records.
/// </summary>
public sealed record TrialOutcome
{
    /// <summary>How many items the batch held.</summary>
    public required int ItemsPlanned { get; init; }

    /// <summary>How many items finished.</summary>
    public required int ItemsCompleted { get; init; }

    /// <summary>How many items ran more than once (a strategy's bug; the trial then fails).</summary>
    public int ItemsDuplicated { get; init; }

    /// <summary>Per-item latencies in milliseconds.</summary>
    public IReadOnlyCollection<double> LatenciesMs { get; init; } = [];

    /// <summary>The longest any item took alone, in milliseconds, where items ran one after another (the sequential
    /// variant); null elsewhere.</summary>
    public double? LongestItemMs { get; init; }

    /// <summary>
    /// Each item's time in this trial, from the strategy calling it to its end, by index; null where the scenario
    /// does not time its items. The runner folds them into the scenario's <see cref="Measurement.ItemFloor"/> and keeps
    /// them out of results files.
    /// </summary>
    internal IReadOnlyList<double>? ItemTimesMs { get; init; }

    /// <summary>The handing-over thread's time inside the items it started asynchronously (see
    /// <see cref="StandardMetrics.CallerTime"/>); null where not timed.</summary>
    internal double? CallerMs { get; init; }

    /// <summary>From the handover to the first item's call (see <see cref="StandardMetrics.FirstItem"/>); null where not timed.</summary>
    internal double? FirstItemMs { get; init; }

    /// <summary>How many items were in flight at once over the region (see <see cref="Measurement.ItemsInFlight"/>);
    /// null where the scenario does not time its items.</summary>
    internal ItemsInFlight? InFlight { get; init; }

    /// <summary>The workload's fingerprint (<see cref="Workloads.Workload.Digest"/>), so a report can show every variant ran the same work.</summary>
    public string? WorkloadDigest { get; init; }

    /// <summary>The scenario's own metrics for this trial (such as hosts misclassified or messages per second), set
    /// through their descriptors.</summary>
    public MetricValues? Metrics { get; init; }

    /// <summary>What a service the trial ran in a process of its own measured of itself over the same region, if any.</summary>
    internal ServiceMeasurements? Service { get; init; }

    /// <summary>Set when the variant threw or a scenario check failed; the trial is then marked failed.</summary>
    public string? Error { get; init; }
}
