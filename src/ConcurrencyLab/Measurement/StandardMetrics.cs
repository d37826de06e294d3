namespace ConcurrencyLab.Measurement;

/// <summary>
/// The metrics the lab records for every trial, each declared once, with how the meter's readings give it.
/// Tables show them in this order; a new one is a declaration here.
/// </summary>
internal static class StandardMetrics
{
    /// <summary>Wall time of the measured region. Tables show it as the median, its interval, efficiency and ratio.</summary>
    public static Metric WallTime { get; } = Metric.Milliseconds("wallMs", "Wall time") with
    {
        Description = "wall time of the measured region, from the moment the work is handed over to the last item's end",
        Measure = t => t.Process.WallMs,
    };

    /// <summary>The process's OS threads at their highest: every thread, not only the pool's.</summary>
    public static Metric PeakThreads { get; } = Metric.Count("peakThreads", "Threads") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "the process's OS threads at their highest in the region (-1 where the OS offers no cheap count)",
        Measure = t => t.Process.PeakThreads,
    };

    /// <summary>The thread pool's threads at their highest.</summary>
    public static Metric PeakPoolThreads { get; } = Metric.Count("peakPoolThreads", "Pool threads") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "ThreadPool.ThreadCount at its highest in the region",
        Measure = t => t.Process.PeakPoolThreads,
    };

    /// <summary>Work items waiting in the pool's queues, at their most.</summary>
    public static Metric PeakQueueLength { get; } = Metric.Count("peakQueueLength", "Peak queue") with
    {
        Visibility = MetricVisibility.Reports,
        Description = "ThreadPool.PendingWorkItemCount at its highest among the samples (for conclab why, among the runtime meter's " +
            "readings of the queue, about once a second)",
        Measure = t => t.Process.PeakQueueLength,
        Account = a => a.PoolQueue?.Peak,
    };

    /// <summary>CPU time of the process, user and system.</summary>
    public static Metric Cpu { get; } = Metric.Milliseconds("cpuMs", "CPU") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "CPU time of the trial's process over the region, user and system, on every thread",
        Measure = t => t.Process.UserCpuMs + t.Process.SystemCpuMs,
    };

    /// <summary>How many cores were busy on average: CPU time over wall time, out of the cores the machine has.</summary>
    public static Metric CoresUsed { get; } = new Metric("coresUsed", "Cores used") with
    {
        Format = MetricFormat.Ratio,
        Visibility = MetricVisibility.Reports,
        Description = "CPU time over wall time: how many of the machine's cores (environment.processorCount) were busy on average; near " +
            "that count, the variant was bound by the CPU",
        Measure = t => CoresOf(Cpu.Measure!(t), WallTime.Measure!(t)),
    };

    /// <summary>The 99th percentile of the items' latencies.</summary>
    public static Metric P99 { get; } = Metric.Milliseconds("p99Ms", "p99 item") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "99th percentile of the items' latencies (nearest rank), each from the moment the batch was handed over to the item's end",
        Measure = t => t.Latency?.P99Ms,
    };

    /// <summary>Bytes allocated on the managed heap, on every thread.</summary>
    public static Metric Allocated { get; } = Metric.Count("allocatedBytes", "Allocated") with
    {
        Unit = "KiB",
        Format = MetricFormat.Kibibytes,
        Visibility = MetricVisibility.Reports,
        Description = "bytes allocated on the managed heap in the region, on every thread (shown in KiB)",
        Measure = t => t.Process.AllocatedBytes,
    };

    /// <summary>CPU time in user mode.</summary>
    public static Metric UserCpu { get; } = Metric.Milliseconds("userCpuMs", "User CPU") with { Description = "CPU time in user mode",
        Measure = t => t.Process.UserCpuMs };

    /// <summary>CPU time in the kernel.</summary>
    public static Metric SystemCpu { get; } = Metric.Milliseconds("systemCpuMs", "System CPU") with { Description = "CPU time in the kernel",
        Measure = t => t.Process.SystemCpuMs };

    /// <summary>OS threads when the region began.</summary>
    public static Metric ThreadsAtStart { get; } = Metric.Count("threadsAtStart", "Threads at start") with
    {
        Direction = MetricDirection.Neither,
        Description = "the process's OS threads when the region began, the lab's own (sampler, watchdog) among them",
        Measure = t => t.Process.ThreadsAtStart,
    };

    /// <summary>OS threads when the region ended.</summary>
    public static Metric FinalThreads { get; } = Metric.Count("finalThreads", "Threads at end") with
    {
        Description = "the process's OS threads when the region ended",
        Measure = t => t.Process.FinalThreads,
    };

    /// <summary>Work items the pool completed.</summary>
    public static Metric CompletedWorkItems { get; } = Metric.Count("completedWorkItems", "Pool work items") with
    {
        Direction = MetricDirection.Neither,
        Description = "ThreadPool.CompletedWorkItemCount over the region",
        Measure = t => t.Process.CompletedWorkItems,
    };

    /// <summary>Times a thread waited for a lock another held.</summary>
    public static Metric LockContentions { get; } = Metric.Count("lockContentions", "Lock contentions") with
    {
        Description = "Monitor.LockContentionCount over the region",
        Measure = t => t.Process.LockContentions,
    };

    /// <summary>Generation 0 collections.</summary>
    public static Metric Gen0Collections { get; } = Metric.Count("gen0Collections", "Gen 0 GCs") with
    {
        Description = "generation 0 garbage collections in the region",
        Measure = t => t.Process.Gen0Collections,
    };

    /// <summary>Generation 1 collections.</summary>
    public static Metric Gen1Collections { get; } = Metric.Count("gen1Collections", "Gen 1 GCs") with
    {
        Description = "generation 1 garbage collections in the region",
        Measure = t => t.Process.Gen1Collections,
    };

    /// <summary>Generation 2 collections.</summary>
    public static Metric Gen2Collections { get; } = Metric.Count("gen2Collections", "Gen 2 GCs") with
    {
        Description = "generation 2 garbage collections in the region",
        Measure = t => t.Process.Gen2Collections,
    };

    /// <summary>The process's working set at its highest since it started.</summary>
    public static Metric PeakWorkingSet { get; } = Metric.Count("peakWorkingSetBytes", "Peak working set") with
    {
        Description = "the process's peak working set in bytes, since the process started",
        Measure = t => t.Process.PeakWorkingSetBytes,
    };

    /// <summary>Time the JIT spent compiling in the region.</summary>
    public static Metric Jit { get; } = Metric.Milliseconds("jitMs", "JIT") with
    {
        Description = "time the JIT spent compiling in the region, on any thread; large values mean the trial measured a process still warming up",
        Measure = t => t.Process.JitMs,
    };

    /// <summary>Methods the JIT compiled in the region.</summary>
    public static Metric JitMethods { get; } = Metric.Count("jitMethods", "JIT methods") with
    {
        Description = "methods the JIT compiled in the region, recompilations included",
        Measure = t => t.Process.JitMethods,
    };

    /// <summary>How long the trial's fresh process took to reach its measured region.</summary>
    public static Metric StartUp { get; } = Metric.Milliseconds("startUpMs", "Start-up") with
    {
        Description = "time from the trial's process start to its measured region: the runtime and the program starting, the scenario's " +
            "set-up and priming, less any wait for the runner to finish the trial before (trials in a process of their own only)",
        Measure = t => t.Process.StartUpMs,
    };

    /// <summary>The median item's latency.</summary>
    public static Metric P50 { get; } = Metric.Milliseconds("p50Ms", "p50 item") with
    {
        Description = "median of the items' latencies (nearest rank)",
        Measure = t => t.Latency?.P50Ms,
    };

    /// <summary>The 95th percentile of the items' latencies.</summary>
    public static Metric P95 { get; } = Metric.Milliseconds("p95Ms", "p95 item") with
    {
        Description = "95th percentile of the items' latencies (nearest rank)",
        Measure = t => t.Latency?.P95Ms,
    };

    /// <summary>The slowest item's latency.</summary>
    public static Metric MaxLatency { get; } = Metric.Milliseconds("maxMs", "Slowest item") with { Description = "the slowest item's latency",
        Measure = t => t.Latency?.MaxMs };

    /// <summary>Cores busy on average: CPU time over wall time; null where either is unknown or the region had no length.</summary>
    internal static double? CoresOf(double? cpuMs, double? wallMs) => cpuMs is { } cpu && wallMs is > 0 and var wall ? cpu / wall : null;

    /// <summary>The longest any item took alone, in the sequential variant.</summary>
    public static Metric LongestItem { get; } = Metric.Milliseconds("longestItemMs", "Longest item") with
    {
        Description = "in the sequential variant of a workload scenario, the longest gap between one item's end and the next's: what the " +
            "costliest item costs alone, a lower bound on every variant's time",
        Measure = t => t.LongestItemMs,
    };

    /// <summary>The time the handing-over thread spent inside the items it started asynchronously, one after another.</summary>
    public static Metric CallerTime { get; } = Metric.Milliseconds("callerMs", "Caller's share") with
    {
        Description = "in a workload scenario, the time the thread that handed the batch over spent inside the items it started " +
            "asynchronously before each call returned (an item's work before its first await, or a synchronous item run inline): one item " +
            "after another, on one core, so a floor on the wall time no other thread can share",
        Measure = t => t.CallerMs,
    };

    /// <summary>From the handover to the first item's call.</summary>
    public static Metric FirstItem { get; } = Metric.Milliseconds("firstItemMs", "First item") with
    {
        Description = "in a workload scenario, the time from the batch's handover to the first item's call: what the strategy spends before " +
            "any work starts (threads made, a pipeline built)",
        Measure = t => t.FirstItemMs,
    };

    /// <summary>Items under way at once, on average over the region.</summary>
    public static Metric InFlightMean { get; } = new Metric("inFlightMean", "In flight") with
    {
        Format = MetricFormat.Number,
        Visibility = MetricVisibility.Reports,
        Direction = MetricDirection.Neither,
        Description = "in a workload scenario, the items under way at once on average over the region, each from the strategy's call to its " +
            "end whether it ran, waited or slept (the items' times added up, over the region's length): how much the variant really overlapped",
        Measure = t => t.InFlight?.Mean,
    };

    /// <summary>The most items under way at any moment.</summary>
    public static Metric InFlightPeak { get; } = Metric.Count("inFlightPeak", "Peak in flight") with
    {
        Direction = MetricDirection.Neither,
        Description = "in a workload scenario, the most items under way at any moment of the region",
        Measure = t => t.InFlight?.Peak,
    };

    /// <summary>The most items the strategy lets run at once.</summary>
    public static Metric AllowedAtOnce { get; } = Metric.Count("allowedAtOnce", "Allowed at once") with
    {
        Direction = MetricDirection.Neither,
        Description = "in a workload scenario, the most items the strategy lets run at once: its degree (the API's default read as the API " +
            "reads it), 1 for a loop that waits for each item, every item for one that starts them all",
        Measure = t => t.InFlight?.Allowed,
    };

    /// <summary>The share of the region with as many items in flight as the strategy allows.</summary>
    public static Metric AtAllowedShare { get; } = new Metric("atAllowedShare", "At its limit") with
    {
        Format = MetricFormat.Ratio,
        Direction = MetricDirection.Neither,
        Description = "in a workload scenario, the share of the region (0 to 1) with as many items in flight as the strategy allows at once",
        Measure = t => t.InFlight?.AtAllowedShare,
    };

    /// <summary>The processor count the trial's runtime saw.</summary>
    public static Metric ProcessorCountSeen { get; } = Metric.Count("processorCount", "Cores seen") with
    {
        Direction = MetricDirection.Neither,
        Description = "Environment.ProcessorCount in the trial's process: the machine's cores, or DOTNET_PROCESSOR_COUNT where the run set " +
            "it (--cores)",
        Measure = t => t.Process.ProcessorCountSeen,
    };

    /// <summary>The pool's minimum worker threads in the trial.</summary>
    public static Metric PoolMinimumSeen { get; } = Metric.Count("poolMinimum", "Pool minimum") with
    {
        Direction = MetricDirection.Neither,
        Description = "ThreadPool.GetMinThreads' worker threads in the trial's process as the region ended (--pool-min-threads sets it)",
        Measure = t => t.Process.PoolMinimumSeen,
    };

    /// <summary>Whether the trial ran the server GC.</summary>
    public static Metric ServerGcSeen { get; } = Metric.Count("serverGc", "Server GC") with
    {
        Direction = MetricDirection.Neither,
        Description = "1 when the trial's runtime ran the server GC (--gc server), 0 for the workstation GC",
        Measure = t => t.Process.ServerGcSeen is { } server ? (server ? 1 : 0) : null,
    };

    /// <summary>Threads the pool added because work waited with no thread free, by the runtime's own account.</summary>
    public static Metric StarvationInjections { get; } = Metric.Count("starvationInjections", "Starved adds") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "times the thread pool raised its thread target because work waited in its queue and no thread was free (the " +
            "runtime's starvation reason), in the region",
        Account = a => a.Injections(Measurement.PoolAdjustmentReason.Starvation),
    };

    /// <summary>Threads the pool added because one of its threads blocked on a task, by the runtime's own account.</summary>
    public static Metric BlockingInjections { get; } = Metric.Count("blockingInjections", "Blocking adds") with
    {
        Visibility = MetricVisibility.Reports,
        Description = "times the thread pool raised its thread target because a pool thread blocked on a task (the runtime's " +
            "cooperative-blocking reason), in the region",
        Account = a => a.Injections(Measurement.PoolAdjustmentReason.CooperativeBlocking),
    };

    /// <summary>The share of the pool's threads' time spent not running, from the stack samples.</summary>
    public static Metric PoolBlockedShare { get; } = new Metric("poolBlockedShare", "Pool blocked") with
    {
        Format = MetricFormat.Ratio,
        Visibility = MetricVisibility.Reports,
        Description = "with --events stacks, the share (0 to 1) of the pool's worker threads' sampled time they spent waiting, sleeping or " +
            "in I/O calls rather than running, between work items left out",
        Account = a => a.Threads?.PoolBlockedShare is { } share ? Math.Round(share, 4) : null,
    };

    /// <summary>The pool's hill-climbing moves, by the runtime's own account.</summary>
    public static Metric HillClimbingMoves { get; } = Metric.Count("hillClimbingMoves", "Hill climbing") with
    {
        Direction = MetricDirection.Neither,
        Description = "changes hill climbing made to the thread pool's target, either way, in the region",
        Account = a => a.HillClimbingMoves,
    };

    /// <summary>Time threads spent blocked on locks and waits, summed over threads, by the runtime's own account.</summary>
    public static Metric Blocked { get; } = Metric.Milliseconds("blockedMs", "Blocked") with
    {
        Visibility = MetricVisibility.Reports,
        Description = "time threads spent waiting for a contended lock or on a handle, task or semaphore (Monitor.Wait included) in the " +
            "region, added up over threads (so it can exceed the wall time), the join included; with --events full",
        Account = a => a.LockContentions is null && a.Waits is null ? null : (a.LockContentions?.TotalMs ?? 0) + (a.Waits?.TotalMs ?? 0),
    };

    /// <summary>Of <see cref="Blocked"/>, the time the thread that began the region waited: the variant's wait for its own batch.</summary>
    public static Metric Join { get; } = Metric.Milliseconds("joinMs", "Join") with
    {
        Visibility = MetricVisibility.Reports,
        Description = "of the blocked time, the waits of the thread that began the region and handed the work to the variant: its wait for " +
            "the batch (and, for Parallel.For, the waits of the items it ran itself); with --events full, on Linux",
        Account = a => a.Join?.TotalMs,
    };

    /// <summary>Time the GC held the runtime suspended, by the runtime's own account.</summary>
    public static Metric GcPause { get; } = Metric.Milliseconds("gcPauseMs", "GC pause") with
    {
        Visibility = MetricVisibility.Reports,
        Description = "time the runtime was suspended for garbage collections in the region",
        Account = a => a.GcPauses?.TotalMs,
    };

    /// <summary>Core time the whole machine's cores stood idle over the region.</summary>
    public static Metric MachineIdle { get; } = Metric.Milliseconds("machineIdleMs", "Cores idle") with
    {
        Visibility = MetricVisibility.Reports,
        Direction = MetricDirection.Neither,
        Description = "core time the whole machine's cores stood idle over the region, waiting for I/O included, summed over cores (Linux's " +
            "/proc/stat, exact to a tick of 10 ms in each state)",
        Measure = t => t.Process.Machine?.IdleMs,
    };

    /// <summary>Of the idle core time, the time with I/O outstanding.</summary>
    public static Metric MachineIoWait { get; } = Metric.Milliseconds("machineIoWaitMs", "I/O wait") with
    {
        Direction = MetricDirection.Neither,
        Description = "of the machine's idle core time over the region, the time a core idled with I/O outstanding (iowait in /proc/stat)",
        Measure = t => t.Process.Machine?.IoWaitMs,
    };

    /// <summary>Core time the hypervisor gave to something else.</summary>
    public static Metric MachineSteal { get; } = Metric.Milliseconds("stealMs", "Stolen") with
    {
        Visibility = MetricVisibility.Reports,
        Direction = MetricDirection.Neither,
        Description = "core time over the region that the hypervisor ran something else while this virtual machine had work for the core " +
            "(steal in /proc/stat), summed over cores",
        Measure = t => t.Process.Machine?.StealMs,
    };

    /// <summary>Core time the machine was busy with anything but the trial's process.</summary>
    public static Metric OthersCpu { get; } = Metric.Milliseconds("othersCpuMs", "Others' CPU") with
    {
        Visibility = MetricVisibility.Reports,
        Direction = MetricDirection.Neither,
        Description = "core time the whole machine was busy over the region, less the trial process's own CPU: other processes (a " +
            "scenario's services among them), the kernel's threads and interrupts; /proc/stat counts in ticks of 10 ms, so within a tick or " +
            "two of 0 it may read a little below",
        Measure = t => t.Process.Machine is { } machine ? machine.BusyMs - (t.Process.UserCpuMs + t.Process.SystemCpuMs) : null,
    };

    /// <summary>The metrics read from the machine's /proc/stat: absent off Linux, so a table shows them only where some variant has them.</summary>
    internal static IReadOnlyList<Metric> Machine { get; } = [MachineIdle, MachineIoWait, MachineSteal, OthersCpu];

    /// <summary>The metrics a table shows only where some variant recorded them: the machine's, and the items in flight
    /// (kept by scenarios that time their items).</summary>
    internal static IReadOnlyList<Metric> WhereRecorded { get; } = [.. Machine, InFlightMean];

    /// <summary>Every standard metric, in the order tables show them; a new one goes last, so that the CSV's columns keep their places.</summary>
    public static IReadOnlyList<Metric> All { get; } =
    [
        WallTime, PeakThreads, PeakPoolThreads, PeakQueueLength, Cpu, CoresUsed, P99, Allocated,
        UserCpu, SystemCpu, ThreadsAtStart, FinalThreads, CompletedWorkItems, LockContentions,
        Gen0Collections, Gen1Collections, Gen2Collections, PeakWorkingSet, Jit, JitMethods, StartUp, P50, P95, MaxLatency,
        LongestItem, CallerTime, FirstItem, ProcessorCountSeen, PoolMinimumSeen, ServerGcSeen, StarvationInjections, BlockingInjections,
            HillClimbingMoves, Blocked, Join, GcPause,
        MachineIdle, MachineIoWait, MachineSteal, OthersCpu,
        InFlightMean, InFlightPeak, AllowedAtOnce, AtAllowedShare, PoolBlockedShare,
    ];

    /// <summary>Every standard metric the readings give (a metric they leave undefined, such as latency with no items, is left out).</summary>
    internal static MetricValues Read(
        Measurements process,
        LatencyPercentiles? latency,
        double? longestItemMs = null,
        double? callerMs = null,
        double? firstItemMs = null,
        ItemsInFlight? inFlight = null)
    {
        ArgumentNullException.ThrowIfNull(process);
        var trial = new MeasuredTrial(process, latency, longestItemMs, callerMs, firstItemMs, inFlight);
        return ReadEach(metric => metric.Measure?.Invoke(trial));
    }

    /// <summary>Every standard metric the runtime's account of a trial gives.</summary>
    internal static MetricValues Read(Measurement.RuntimeAccount account)
    {
        ArgumentNullException.ThrowIfNull(account);
        return ReadEach(metric => metric.Account?.Invoke(account));
    }

    // Every standard metric the source gives a finite value for.
    private static MetricValues ReadEach(Func<Metric, double?> read)
    {
        var values = new MetricValues();
        foreach (var metric in All)
        {
            if (read(metric) is { } value && double.IsFinite(value))
            {
                values[metric] = value;
            }
        }

        return values;
    }
}
