using System.Text.Json.Serialization;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Results;

/// <summary>One measured run of one variant: the unit every statistic is computed from.</summary>
internal sealed record TrialResult
{
    /// <summary>Which measured repeat this was (0-based).</summary>
    public int Repeat { get; init; }

    /// <summary>How the trial ended; read it before any number.</summary>
    public TrialStatus Status { get; init; } = TrialStatus.Ok;

    /// <summary>Why the trial failed or timed out, in one line.</summary>
    public string? Error { get; init; }

    /// <summary>Whether the trial ran in a fresh child process.</summary>
    public bool Isolated { get; init; }

    /// <summary>How many items the batch held.</summary>
    public int ItemsPlanned { get; init; }

    /// <summary>How many items finished.</summary>
    public int ItemsCompleted { get; init; }

    /// <summary>Extra runs of items that had already run; must be 0.</summary>
    public int ItemsDuplicated { get; init; }

    /// <summary>Fingerprint of the workload; equal across the trials of a scenario when the work was identical.</summary>
    public string? WorkloadDigest { get; init; }

    /// <summary>
    /// Every metric the trial recorded, by id: the lab's own (<see cref="StandardMetrics"/>) and the scenario's
    /// (<see cref="ScenarioResult.Metrics"/>). Empty for a trial that produced no measurements.
    /// </summary>
    public IReadOnlyDictionary<string, double> Metrics { get; init; } = new Dictionary<string, double>();

    /// <summary>What the sampler read every interval over the region.</summary>
    public IReadOnlyList<Sample> Samples { get; init; } = [];

    /// <summary>What a service in a process of its own measured of itself over the same region (fanout's product service).</summary>
    public ServiceMeasurements? Service { get; init; }

    /// <summary>
    /// How many items were in flight at once over the region, and when (<see cref="ItemsInFlight.Timeline"/>); null
    /// where the scenario does not time its items, and in files from before it was kept.
    /// </summary>
    public ItemsInFlight? InFlight { get; init; }

    /// <summary>
    /// The runtime's own account of the region (the pool's decisions and why, time blocked, GC pauses), read by
    /// the runner from the trial's events; null when events were off, or the trial ran in the runner's process.
    /// </summary>
    public RuntimeAccount? Runtime { get; init; }

    /// <summary>
    /// The region's bounds on the machine's monotonic clock, from the trial's process to the runner, which cuts
    /// the runtime's events with them and then drops them: never in a results file.
    /// </summary>
    [JsonInclude]
    [JsonPropertyName("regionClock")]
    internal RegionClock? Region { get; init; }

    /// <summary>
    /// Each item's time in the trial, by index, where the scenario timed its items: travels from the trial's
    /// process to the runner, which folds it into the scenario's <see cref="Measurement.ItemFloor"/> and drops it
    /// (<see cref="WithoutItemTimes"/>): never in a results file.
    /// </summary>
    [JsonInclude]
    [JsonPropertyName("itemTimesMs")]
    internal IReadOnlyList<double>? ItemTimesMs { get; init; }

    /// <summary>The trial without its items' times, once the runner has folded them.</summary>
    internal TrialResult WithoutItemTimes() => ItemTimesMs is null ? this : this with { ItemTimesMs = null };

    /// <summary>
    /// The trial as a results file holds it: without what travels only between the trial's process and the
    /// runner (the region's clock, the lab's own thread ids; the items' times go at the runner).
    /// </summary>
    internal TrialResult WithoutPlumbing() =>
        this with { Region = null, Service = Service is null ? null : Service with { LabThreads = null } };

    /// <summary>The trial's value of <paramref name="metric"/>, or null when it recorded none.</summary>
    public double? Value(Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        return Metrics.TryGetValue(metric.Id, out var value) ? value : null;
    }

    /// <summary>Wall time of the measured region; 0 for a trial that produced no measurements.</summary>
    [JsonIgnore]
    public double WallMs => Value(StandardMetrics.WallTime) ?? 0;

    /// <summary>A trial that produced no measurements: it crashed, could not start, or timed out.</summary>
    public static TrialResult Unmeasured(TrialStatus status, string error, bool isolated) =>
        new() { Status = status, Error = error, Isolated = isolated };
}
