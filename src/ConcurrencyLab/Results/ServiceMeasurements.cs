using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Results;

/// <summary>
/// What a service process measured of itself while a trial's client drove it (the fanout experiment's
/// product service): its threads and pool over time, CPU and memory.
/// </summary>
public sealed record ServiceMeasurements
{
    /// <summary>Which service: such as <c>product</c>.</summary>
    public required string Name { get; init; }

    public int PeakThreads { get; init; }

    public int PeakPoolThreads { get; init; }

    public long PeakQueueLength { get; init; }

    public double CpuMs { get; init; }

    public long PeakWorkingSetBytes { get; init; }

    /// <summary>Time the service's JIT spent compiling in the region.</summary>
    public double JitMs { get; init; }

    public IReadOnlyList<Sample> Samples { get; init; } = [];

    /// <summary>Turns a service's own measurements into the part a trial keeps.</summary>
    public static ServiceMeasurements From(string name, Measurements measurements)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        return new ServiceMeasurements
        {
            Name = name,
            PeakThreads = measurements.PeakThreads,
            PeakPoolThreads = measurements.PeakPoolThreads,
            PeakQueueLength = measurements.PeakQueueLength,
            CpuMs = measurements.UserCpuMs + measurements.SystemCpuMs,
            PeakWorkingSetBytes = measurements.PeakWorkingSetBytes,
            JitMs = measurements.JitMs,
            Samples = measurements.Samples,
        };
    }
}
