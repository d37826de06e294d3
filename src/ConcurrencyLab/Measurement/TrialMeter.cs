using System.Diagnostics;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// Measures the region of a trial in which the variant runs: wall and CPU time, thread counts, the pool,
/// allocations, GC and lock contention, with a <see cref="Sampler"/> running beside it. A scenario calls
/// <see cref="Start"/> right before handing work to the variant and <see cref="Stop()"/> right after, so
/// fixture set-up and tear-down stay outside.
/// </summary>
public sealed class TrialMeter : IDisposable
{
    private static int _stopCompiled;

    private readonly ProcessCounters _counters = new(machine: true);
    private readonly Sampler _sampler;
    private long _startTimestamp;

    private double? _startUpMs;
    private long _waitBegan;
    private long _waitedTicks;
    private int _awaitedBefore;

    // The region's bounds for a watchdog on another thread: 0 until set.
    private long _regionStart;
    private int? _caller;
    private long _regionEnd;
    private ProcessCpu _cpuAtStart;
    private MachineTime? _machineAtStart;
    private long _allocatedAtStart;
    private long _completedAtStart;
    private long _contentionsAtStart;
    private TimeSpan _jitAtStart;
    private long _jitMethodsAtStart;
    private int _gen0AtStart;
    private int _gen1AtStart;
    private int _gen2AtStart;
    private int _threadsAtStart;

    /// <summary>Creates a meter sampling every <paramref name="sampleInterval"/> (zero turns the sampler off).</summary>
    public TrialMeter(TimeSpan sampleInterval, TimeSpan expectedDuration = default)
    {
        var expected = sampleInterval > TimeSpan.Zero && expectedDuration > TimeSpan.Zero
            ? (int)Math.Min(65_536, (expectedDuration.Ticks / sampleInterval.Ticks) + 16)
            : 1024;
        _sampler = new Sampler(sampleInterval, expected);
        CompileStop();

        // Compiled here, not on the region's edge, where the JIT's baseline is already read.
        _ = _counters.ReadMachine();
    }

    /// <summary>Samples taken so far (readable while the trial runs).</summary>
    internal int SampleCount => _sampler.Count;

    /// <summary>When this process started, for a process made for the trial: the region's start then says how long the
    /// process took to reach it.</summary>
    internal DateTime? ProcessStartedUtc { get; init; }

    /// <summary>
    /// Called first thing in <see cref="Start"/>, before any counter is read, unless <see cref="AwaitTrialBefore"/> called
    /// it earlier: the trial host waits there until the
    /// runner has finished the trial before, so neither that trial's process nor the runner's work on it shares the
    /// region. The time it takes (<see cref="Waited"/>) is neither start-up nor part of the start-up allowance.
    /// </summary>
    internal Action? BeforeStart { get; init; }

    /// <summary>Whether <see cref="Start"/> or <see cref="AwaitTrialBefore"/> is in <see cref="BeforeStart"/> now.</summary>
    internal bool Waiting => Volatile.Read(ref _waitBegan) != 0;

    /// <summary>How long <see cref="Start"/> or <see cref="AwaitTrialBefore"/> spent in <see cref="BeforeStart"/>, once it has returned.</summary>
    internal TimeSpan Waited => TimeSpan.FromTicks(Volatile.Read(ref _waitedTicks));

    /// <summary>Whether <see cref="Start"/> has been called.</summary>
    public bool Started { get; private set; }

    /// <summary>What was measured, once <see cref="Stop()"/> has been called.</summary>
    internal Measurements? Result { get; private set; }

    /// <summary>
    /// Waits in <see cref="BeforeStart"/> now rather than in <see cref="Start"/>, for a trial that starts measuring
    /// other processes (its services) just before its own region: their measurements, too, then begin after the trial
    /// before has finished. Once only: later calls, and <see cref="Start"/>, do not wait again (one made while the
    /// first still waits returns at once; the trial's one thread never does that).
    /// </summary>
    internal void AwaitTrialBefore()
    {
        if (BeforeStart is not { } wait || Interlocked.Exchange(ref _awaitedBefore, 1) != 0)
        {
            return;
        }

        var began = Stopwatch.GetTimestamp();
        Volatile.Write(ref _waitBegan, began);
        try
        {
            wait();
        }
        finally
        {
            Volatile.Write(ref _waitedTicks, Stopwatch.GetElapsedTime(began).Ticks);
            Volatile.Write(ref _waitBegan, 0);
        }
    }

    /// <summary>Begins the measured region.</summary>
    public void Start()
    {
        if (Started)
        {
            throw new InvalidOperationException("The meter has already started.");
        }

        AwaitTrialBefore();
        Started = true;
        _caller = LabThreads.CurrentOsId();

        // The sampler thread starts first so it is already among the threads counted at the start,
        // and its creation is not charged to the variant. It has its own counters (their buffer is not
        // shared across threads); its samples are re-based onto the region's start when it stops.
        var cpu = ProcessCpu.Read();
        _sampler.Start(Stopwatch.GetTimestamp(), cpu.TotalMs);
        _threadsAtStart = _counters.ReadThreadCount();
        _gen0AtStart = GC.CollectionCount(0);
        _gen1AtStart = GC.CollectionCount(1);
        _gen2AtStart = GC.CollectionCount(2);
        _contentionsAtStart = Monitor.LockContentionCount;
        _jitAtStart = System.Runtime.JitInfo.GetCompilationTime();
        _jitMethodsAtStart = System.Runtime.JitInfo.GetCompiledMethodCount();
        _completedAtStart = ThreadPool.CompletedWorkItemCount;
        _machineAtStart = _counters.ReadMachine();
        _allocatedAtStart = GC.GetTotalAllocatedBytes(precise: true);
        _cpuAtStart = ProcessCpu.Read();
        if (ProcessStartedUtc is { } started)
        {
            // The wait is not start-up: the trial was ready, and the runner had not finished the one before.
            _startUpMs = (DateTime.UtcNow - started - Waited).TotalMilliseconds;
        }

        // Last, so the reads above are not part of the wall time.
        _startTimestamp = Stopwatch.GetTimestamp();
        Volatile.Write(ref _regionStart, _startTimestamp);
    }

    /// <summary>
    /// How long the measured region has lasted so far (or lasted, once stopped); null before it starts. Safe to
    /// read from another thread: a trial's timeout counts this, not the start-up before it.
    /// </summary>
    internal TimeSpan? RegionElapsed
    {
        get
        {
            var start = Volatile.Read(ref _regionStart);
            if (start == 0)
            {
                return null;
            }

            var end = Volatile.Read(ref _regionEnd);
            return Stopwatch.GetElapsedTime(start, end == 0 ? Stopwatch.GetTimestamp() : end);
        }
    }

    /// <summary>
    /// The region's bounds in Stopwatch ticks, the clock the runtime stamps its events with, so the runner can cut
    /// the trial's events to it: null before the region starts, an end of null while it runs. Safe from any thread.
    /// </summary>
    internal RegionClock? Region
    {
        get
        {
            var start = Volatile.Read(ref _regionStart);
            var end = Volatile.Read(ref _regionEnd);
            return start == 0 ? null : new RegionClock(start, end == 0 ? null : end, [.. LabThreads.All.Where(t => t != _caller)], _caller);
        }
    }

    /// <summary>Ends the measured region; later calls do nothing.</summary>
    public void Stop() => Stop(endTimestamp: null);

    /// <summary>Ends the measured region, and gives what it measured (the same on later calls).</summary>
    internal Measurements Finish() => Stop(endTimestamp: null);

    /// <summary>
    /// Ends the measured region, with its wall time ending at <paramref name="endTimestamp"/> (a Stopwatch
    /// timestamp already past) when the scenario knows the exact moment its work finished, so the time the
    /// stopping thread took to wake is not charged. Counters are read now. Later calls do nothing.
    /// </summary>
    internal Measurements Stop(long? endTimestamp)
    {
        if (Result is not null)
        {
            return Result;
        }

        if (!Started)
        {
            throw new InvalidOperationException("The meter was never started.");
        }

        // Wall time first, so the reads below are not charged to it.
        var now = Stopwatch.GetTimestamp();
        Volatile.Write(ref _regionEnd, now);
        var wall = Stopwatch.GetElapsedTime(_startTimestamp, endTimestamp is { } end && end > _startTimestamp && end <= now ? end : now);
        var cpu = ProcessCpu.Read();
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - _allocatedAtStart;
        var machine = _counters.ReadMachine() is { } machineNow && _machineAtStart is { } machineThen ? machineNow.Since(machineThen)
            : (MachineTime?)null;
        var completed = ThreadPool.CompletedWorkItemCount - _completedAtStart;
        var contentions = Monitor.LockContentionCount - _contentionsAtStart;
        var finalThreads = _counters.ReadThreadCount();
        var finalPoolThreads = ThreadPool.ThreadCount;
        var samples = _sampler.Stop(_startTimestamp, _cpuAtStart.TotalMs);

        var peakThreads = Math.Max(_threadsAtStart, finalThreads);
        var peakPool = finalPoolThreads;
        long peakQueue = 0;
        foreach (var sample in samples)
        {
            peakThreads = Math.Max(peakThreads, sample.Threads);
            peakPool = Math.Max(peakPool, sample.PoolThreads);
            peakQueue = Math.Max(peakQueue, sample.QueueLength);
        }

        Result = new Measurements
        {
            LabThreads = Measurement.LabThreads.All,
            WallMs = wall.TotalMilliseconds,
            UserCpuMs = (cpu.UserMs - _cpuAtStart.UserMs),
            SystemCpuMs = (cpu.SystemMs - _cpuAtStart.SystemMs),
            ThreadsAtStart = _threadsAtStart,
            PeakThreads = peakThreads,
            FinalThreads = finalThreads,
            PeakPoolThreads = peakPool,
            PeakQueueLength = peakQueue,
            CompletedWorkItems = completed,
            LockContentions = contentions,
            AllocatedBytes = allocated,
            Gen0Collections = GC.CollectionCount(0) - _gen0AtStart,
            Gen1Collections = GC.CollectionCount(1) - _gen1AtStart,
            Gen2Collections = GC.CollectionCount(2) - _gen2AtStart,
            PeakWorkingSetBytes = ProcessCounters.ReadPeakWorkingSetBytes(),
            JitMs = (System.Runtime.JitInfo.GetCompilationTime() - _jitAtStart).TotalMilliseconds,
            JitMethods = System.Runtime.JitInfo.GetCompiledMethodCount() - _jitMethodsAtStart,
            StartUpMs = _startUpMs,
            ProcessorCountSeen = Environment.ProcessorCount,
            PoolMinimumSeen = PoolMinimum(),
            ServerGcSeen = System.Runtime.GCSettings.IsServerGC,
            Machine = machine,
            Samples = samples,
        };
        return Result;
    }

    // Stop's code is compiled here, before any region: compiled on its first call, inside the region and before its
    // clock is read, it cost every trial about 0.9 ms of wall time that was the lab's, not the variant's (scan at
    // quick scale: 0.88-1.25 ms from the batch's end to the clock's read, 0.04 ms once compiled).
    private static void CompileStop()
    {
        if (Interlocked.Exchange(ref _stopCompiled, 1) == 1)
        {
            return;
        }

        const BindingFlags Instance = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
        foreach (var parameters in (Type[][])[[], [typeof(long?)]])
        {
            if (typeof(TrialMeter).GetMethod(nameof(Stop), Instance, parameters) is { } stop)
            {
                RuntimeHelpers.PrepareMethod(stop.MethodHandle);
            }
        }
    }

    private static int PoolMinimum()
    {
        ThreadPool.GetMinThreads(out var workers, out _);
        return workers;
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        _sampler.Dispose();
        _counters.Dispose();
    }

    private readonly record struct ProcessCpu(double UserMs, double SystemMs)
    {
        public double TotalMs => UserMs + SystemMs;

        public static ProcessCpu Read()
        {
            var usage = Environment.CpuUsage;
            return new ProcessCpu(usage.UserTime.TotalMilliseconds, usage.PrivilegedTime.TotalMilliseconds);
        }
    }
}
