namespace ConcurrencyLab.Measurement;

/// <summary>What a <see cref="TrialMeter"/> read over one measured region.</summary>
public sealed record Measurements
{
    public required double WallMs { get; init; }

    public required double UserCpuMs { get; init; }

    public required double SystemCpuMs { get; init; }

    public required int ThreadsAtStart { get; init; }

    public required int PeakThreads { get; init; }

    public required int FinalThreads { get; init; }

    public required int PeakPoolThreads { get; init; }

    public required long PeakQueueLength { get; init; }

    public required long CompletedWorkItems { get; init; }

    public required long LockContentions { get; init; }

    public required long AllocatedBytes { get; init; }

    public required int Gen0Collections { get; init; }

    public required int Gen1Collections { get; init; }

    public required int Gen2Collections { get; init; }

    public required long PeakWorkingSetBytes { get; init; }

    /// <summary>Time the JIT spent compiling methods in the region, on any thread: a fresh process pays it while tiered compilation settles.</summary>
    public double JitMs { get; init; }

    /// <summary>Methods the JIT compiled in the region (recompilations at a higher tier included).</summary>
    public long JitMethods { get; init; }

    /// <summary>
    /// Time from the trial's process start to its measured region (the runtime and the program starting, the
    /// scenario's set-up, priming): what running each trial in a fresh process costs. Null in a process that
    /// was not started for the trial.
    /// </summary>
    public double? StartUpMs { get; init; }

    public required IReadOnlyList<Sample> Samples { get; init; }
}
