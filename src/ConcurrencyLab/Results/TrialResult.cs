using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Results;

/// <summary>One measured run of one variant: the unit every statistic is computed from.</summary>
public sealed record TrialResult
{
    /// <summary>Which measured repeat this was (0-based).</summary>
    public int Repeat { get; init; }

    public TrialStatus Status { get; init; } = TrialStatus.Ok;

    /// <summary>Why the trial failed or timed out, in one line.</summary>
    public string? Error { get; init; }

    /// <summary>Whether the trial ran in a fresh child process.</summary>
    public bool Isolated { get; init; }

    public double WallMs { get; init; }

    /// <summary>User plus system CPU time of the trial's process over the measured region.</summary>
    public double CpuMs { get; init; }

    public double UserCpuMs { get; init; }

    public double SystemCpuMs { get; init; }

    public int ThreadsAtStart { get; init; }

    public int PeakThreads { get; init; }

    public int FinalThreads { get; init; }

    public int PeakPoolThreads { get; init; }

    public long PeakQueueLength { get; init; }

    public long CompletedWorkItems { get; init; }

    public long LockContentions { get; init; }

    public long AllocatedBytes { get; init; }

    public GcCounts Gc { get; init; } = new(0, 0, 0);

    public long PeakWorkingSetBytes { get; init; }

    /// <summary>Time the JIT spent compiling in the measured region; large values mean the trial measured a process still warming up.</summary>
    public double JitMs { get; init; }

    public long JitMethods { get; init; }

    public int ItemsPlanned { get; init; }

    public int ItemsCompleted { get; init; }

    /// <summary>Extra runs of items that had already run; must be 0.</summary>
    public int ItemsDuplicated { get; init; }

    /// <summary>Per-item latency, from the moment the batch was handed over to the item's completion.</summary>
    public LatencyPercentiles Latency { get; init; } = new(0, 0, 0, 0);

    /// <summary>Fingerprint of the workload; equal across the trials of a scenario when the work was identical.</summary>
    public string? WorkloadDigest { get; init; }

    /// <summary>Scenario-specific counts (for example <c>misclassified</c>), all expected to be checked by the scenario.</summary>
    public IReadOnlyDictionary<string, double>? Checks { get; init; }

    public IReadOnlyList<Sample> Samples { get; init; } = [];

    /// <summary>What a service in a process of its own measured of itself over the same region (fanout's product service).</summary>
    public ServiceMeasurements? Service { get; init; }

    /// <summary>Combines what a meter read with what the scenario reports about its items.</summary>
    public static TrialResult From(Measurements m, TrialOutcome outcome, bool isolated)
    {
        ArgumentNullException.ThrowIfNull(m);
        ArgumentNullException.ThrowIfNull(outcome);
        var error = outcome.Error;
        if (error is null && outcome.ItemsCompleted != outcome.ItemsPlanned)
        {
            error = $"{outcome.ItemsCompleted} of {outcome.ItemsPlanned} items completed.";
        }

        if (error is null && outcome.ItemsDuplicated > 0)
        {
            error = $"{outcome.ItemsDuplicated} items ran more than once.";
        }

        return new TrialResult
        {
            Status = error is null ? TrialStatus.Ok : TrialStatus.Failed,
            Error = error,
            Isolated = isolated,
            WallMs = m.WallMs,
            CpuMs = m.UserCpuMs + m.SystemCpuMs,
            UserCpuMs = m.UserCpuMs,
            SystemCpuMs = m.SystemCpuMs,
            ThreadsAtStart = m.ThreadsAtStart,
            PeakThreads = m.PeakThreads,
            FinalThreads = m.FinalThreads,
            PeakPoolThreads = m.PeakPoolThreads,
            PeakQueueLength = m.PeakQueueLength,
            CompletedWorkItems = m.CompletedWorkItems,
            LockContentions = m.LockContentions,
            AllocatedBytes = m.AllocatedBytes,
            Gc = new GcCounts(m.Gen0Collections, m.Gen1Collections, m.Gen2Collections),
            PeakWorkingSetBytes = m.PeakWorkingSetBytes,
            JitMs = m.JitMs,
            JitMethods = m.JitMethods,
            ItemsPlanned = outcome.ItemsPlanned,
            ItemsCompleted = outcome.ItemsCompleted,
            ItemsDuplicated = outcome.ItemsDuplicated,
            Latency = LatencyDistribution.Summarise(outcome.LatenciesMs),
            WorkloadDigest = outcome.WorkloadDigest,
            Checks = outcome.Checks,
            Samples = m.Samples,
            Service = outcome.Service,
        };
    }

    /// <summary>A trial that produced no measurements: it crashed, could not start, or timed out.</summary>
    public static TrialResult Unmeasured(TrialStatus status, string error, bool isolated) =>
        new() { Status = status, Error = error, Isolated = isolated };
}

/// <summary>Garbage collections per generation during the measured region.</summary>
public sealed record GcCounts(int Gen0, int Gen1, int Gen2);
