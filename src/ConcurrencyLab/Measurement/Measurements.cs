namespace ConcurrencyLab.Measurement;

/// <summary>What a <see cref="TrialMeter"/> read over one measured region.</summary>
internal sealed record Measurements
{
    /// <summary>Wall time of the measured region, in milliseconds.</summary>
    public required double WallMs { get; init; }

    /// <summary>CPU time the process spent in user mode over the region, on every thread, in milliseconds.</summary>
    public required double UserCpuMs { get; init; }

    /// <summary>CPU time the process spent in the kernel over the region, in milliseconds.</summary>
    public required double SystemCpuMs { get; init; }

    /// <summary>The process's OS threads when the region began, the lab's own among them.</summary>
    public required int ThreadsAtStart { get; init; }

    /// <summary>The process's OS threads at their highest in the region (-1 where the OS offers no cheap count).</summary>
    public required int PeakThreads { get; init; }

    /// <summary>The process's OS threads when the region ended.</summary>
    public required int FinalThreads { get; init; }

    /// <summary><c>ThreadPool.ThreadCount</c> at its highest in the region.</summary>
    public required int PeakPoolThreads { get; init; }

    /// <summary><c>ThreadPool.PendingWorkItemCount</c> at its highest among the samples.</summary>
    public required long PeakQueueLength { get; init; }

    /// <summary><c>ThreadPool.CompletedWorkItemCount</c> over the region.</summary>
    public required long CompletedWorkItems { get; init; }

    /// <summary><c>Monitor.LockContentionCount</c> over the region.</summary>
    public required long LockContentions { get; init; }

    /// <summary>Bytes allocated on the managed heap over the region, on every thread.</summary>
    public required long AllocatedBytes { get; init; }

    /// <summary>Generation 0 garbage collections in the region.</summary>
    public required int Gen0Collections { get; init; }

    /// <summary>Generation 1 garbage collections in the region.</summary>
    public required int Gen1Collections { get; init; }

    /// <summary>Generation 2 garbage collections in the region.</summary>
    public required int Gen2Collections { get; init; }

    /// <summary>The process's peak working set since it started, in bytes.</summary>
    public required long PeakWorkingSetBytes { get; init; }

    /// <summary>Time the JIT spent compiling methods in the region, on any thread: a fresh process pays it while tiered
    /// compilation settles.</summary>
    public double JitMs { get; init; }

    /// <summary>Methods the JIT compiled in the region (recompilations at a higher tier included).</summary>
    public long JitMethods { get; init; }

    /// <summary>
    /// Time from the trial's process start to its measured region (the runtime and the program starting, the
    /// scenario's set-up, priming): what running each trial in a fresh process costs. Null in a process that
    /// was not started for the trial.
    /// </summary>
    public double? StartUpMs { get; init; }

    /// <summary>The processor count the runtime saw in the trial (<c>Environment.ProcessorCount</c>;
    /// <c>DOTNET_PROCESSOR_COUNT</c> changes it).</summary>
    public int? ProcessorCountSeen { get; init; }

    /// <summary>The pool's minimum worker threads as the region ended (<c>ThreadPool.GetMinThreads</c>, read after the
    /// wall time, like the other counters).</summary>
    public int? PoolMinimumSeen { get; init; }

    /// <summary>Whether the trial's runtime ran the server GC.</summary>
    public bool? ServerGcSeen { get; init; }

    /// <summary>Where the whole machine's cores spent the region (busy, idle, stolen), where the OS says; null elsewhere.</summary>
    internal MachineTime? Machine { get; init; }

    /// <summary>What the sampler read every interval over the region: threads, pool threads, queue, CPU.</summary>
    public required IReadOnlyList<Sample> Samples { get; init; }

    /// <summary>The OS ids of the lab's own threads in the measured process, whose runtime events are not the work's.</summary>
    [System.Text.Json.Serialization.JsonInclude]
    internal IReadOnlyList<int>? LabThreads { get; init; }
}
