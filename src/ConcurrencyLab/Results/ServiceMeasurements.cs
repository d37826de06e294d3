using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Results;

/// <summary>
/// What a service process measured of itself while a trial's client drove it (the fanout experiment's
/// product service): the lab's own metrics of its process, and its threads and pool over time.
/// </summary>
internal sealed record ServiceMeasurements
{
    /// <summary>Which service: such as <c>product</c>.</summary>
    public required string Name { get; init; }

    /// <summary>The service process's <see cref="StandardMetrics"/> over the region, by id (it has no items, so no latencies).</summary>
    public IReadOnlyDictionary<string, double> Metrics { get; init; } = new Dictionary<string, double>();

    /// <summary>What the service's own sampler read over the region.</summary>
    public IReadOnlyList<Sample> Samples { get; init; } = [];

    /// <summary>The runtime's own account of the service over the trial's region, read by the runner from the service's
    /// events; null when events were off.</summary>
    public RuntimeAccount? Runtime { get; init; }

    /// <summary>The service's own threads (its sampler), from the trial's process to the runner, which leaves their
    /// events out and drops this.</summary>
    [System.Text.Json.Serialization.JsonInclude]
    [System.Text.Json.Serialization.JsonPropertyName("labThreads")]
    internal IReadOnlyList<int>? LabThreads { get; init; }

    /// <summary>The service's value of <paramref name="metric"/>, or null when it recorded none.</summary>
    public double? Value(Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        return Metrics.TryGetValue(metric.Id, out var value) ? value : null;
    }

    /// <summary>Turns a service's own measurements into the part a trial keeps.</summary>
    internal static ServiceMeasurements From(string name, Measurements measurements)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        return new ServiceMeasurements
        {
            Name = name,
            Metrics = StandardMetrics.Read(measurements, latency: null),
            Samples = measurements.Samples,
            LabThreads = measurements.LabThreads,
        };
    }
}
