using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Results;

/// <summary>What a scenario reports about the items of one trial; the meter supplies the rest.</summary>
public sealed record TrialOutcome
{
    public required int ItemsPlanned { get; init; }

    public required int ItemsCompleted { get; init; }

    public int ItemsDuplicated { get; init; }

    /// <summary>Per-item latencies in milliseconds.</summary>
    public IReadOnlyCollection<double> LatenciesMs { get; init; } = [];

    public string? WorkloadDigest { get; init; }

    /// <summary>The scenario's own metrics for this trial (such as hosts misclassified or messages per second), set through their descriptors.</summary>
    public MetricValues? Metrics { get; init; }

    /// <summary>What a service the trial ran in a process of its own measured of itself over the same region, if any.</summary>
    public ServiceMeasurements? Service { get; init; }

    /// <summary>Set when the variant threw or a scenario check failed; the trial is then marked failed.</summary>
    public string? Error { get; init; }
}
