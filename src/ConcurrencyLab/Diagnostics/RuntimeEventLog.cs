using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Diagnostics;

/// <summary>What kind of runtime event a <see cref="RuntimeEventLog"/> kept.</summary>
internal enum RuntimeEventKind
{
    PoolAdjustment,
    WorkerStart,
    WorkerStop,
    ContentionStart,
    ContentionStop,
    WaitStart,
    WaitStop,
    GcStart,
    GcSuspend,
    GcRestart,

    /// <summary>The pool's queue length as its meter published it (<see cref="RuntimeEvent.Value"/>).</summary>
    QueueLength,

    /// <summary>The pool's work items completed since the process started, as its meter published it (<see cref="RuntimeEvent.Number"/>).</summary>
    ItemsCompleted,
}

/// <summary>
/// One runtime event as kept: when (the machine's monotonic clock, in <see cref="System.Diagnostics.Stopwatch"/>
/// ticks, the clock the trial times its region on), on which thread, and the one or two values the account needs.
/// </summary>
/// <param name="Ticks">When the event was written.</param>
/// <param name="Kind">What it is.</param>
/// <param name="Thread">The OS thread that wrote it, for pairing a start with its stop.</param>
/// <param name="Value">A pool adjustment's new target for worker threads; a wait's source
/// (<see cref="MonitorWaitSource"/> for Monitor.Wait, 0 for a handle); the queue's length.</param>
/// <param name="Number">A pool adjustment's throughput; a contention stop's duration in nanoseconds (0 where the runtime gives
/// none); the work items completed so far.</param>
/// <param name="Reason">A pool adjustment's reason.</param>
internal readonly record struct RuntimeEvent(
    long Ticks,
    RuntimeEventKind Kind,
    int Thread,
    int Value = 0,
    double Number = 0,
    PoolAdjustmentReason Reason = default)
{
    /// <summary>A wait's source when it is Monitor.Wait, under Task.Wait, SemaphoreSlim, ManualResetEventSlim and CountdownEvent.</summary>
    public const int MonitorWaitSource = 1;
}

/// <summary>
/// The events of one process as they arrive (from the session's reading thread), and the account of a region
/// made from them: a pure function of the events and the region, so it is tested on made-up events.
/// </summary>
internal sealed class RuntimeEventLog
{
    private readonly List<RuntimeEvent> _events = [];

    /// <summary>Events dropped by the runtime because the session's buffers were full.</summary>
    public long Lost { get; set; }

    /// <summary>Keeps <paramref name="e"/>; safe from the reading thread.</summary>
    public void Add(RuntimeEvent e)
    {
        lock (_events)
        {
            _events.Add(e);
        }
    }

    /// <summary>The events kept so far, in the order they arrived.</summary>
    public IReadOnlyList<RuntimeEvent> Snapshot()
    {
        lock (_events)
        {
            return [.. _events];
        }
    }

    /// <summary>
    /// The account of the region from <paramref name="start"/> to <paramref name="regionEnd"/> (null: to the
    /// last event, for a region that never ended; a null start: from the first), in ticks of <paramref name="ticksPerSecond"/>.
    /// The waits of <paramref name="caller"/>, the thread that began the region, are the join, apart from the work's.
    /// </summary>
    public RuntimeAccount Account(
        RuntimeEvents level,
        long? start,
        long? regionEnd,
        long ticksPerSecond,
        bool complete,
        string? note,
        IReadOnlyCollection<int>? labThreads = null,
        int? caller = null)
    {
        // The lab's own threads (the sampler's timed waits, the watchdog) are not the variant's doing.
        var excluded = labThreads ?? [];
        var events = Snapshot().Where(e => !excluded.Contains(e.Thread)).OrderBy(e => e.Ticks).ToList();
        var regionStart = start ?? (events.Count > 0 ? events[0].Ticks : 0);
        var end = regionEnd ?? (events.Count > 0 ? Math.Max(events[^1].Ticks, regionStart) : regionStart);
        var tally = new RegionTally(regionStart, end, ticksPerSecond,
            caller, events.Where(e => e.Kind == RuntimeEventKind.WorkerStart).Select(e => e.Thread));
        foreach (var e in events)
        {
            tally.Add(e);
        }

        var notes = new List<string>();
        if (note is not null)
        {
            notes.Add(note);
        }

        if (Lost > 0)
        {
            notes.Add($"the runtime dropped {Lost} events: its session's buffers were full");
        }

        return new RuntimeAccount
        {
            Events = level,
            Complete = complete && Lost == 0,
            Note = notes.Count == 0 ? null : string.Join("; ", notes),
            PoolTargetAtStart = tally.TargetAtStart,
            PoolAdjustments = tally.Adjustments,
            WorkerThreadsStarted = tally.Started,
            WorkerThreadsStopped = tally.Stopped,
            GcCollections = tally.Collections,
            GcPauses = tally.Pauses.Total(),
            LockContentions = level >= RuntimeEvents.Full ? tally.Contentions.Total() : null,
            Waits = level >= RuntimeEvents.Full ? tally.Waits.Total() : null,
            Join = level >= RuntimeEvents.Full && caller is not null ? tally.Join.Total() : null,
            WorkWaits = level >= RuntimeEvents.Full && caller is not null ? tally.Work.Total() : null,
            PoolQueue = tally.Queue.Count > 0 || tally.Completed.Count > 0 ? PoolQueue.Of(tally.Queue, tally.Completed) : null,
        };
    }

    // The region's events added up as they come, in time order: the pool's adjustments and threads, collections and
    // their pauses, contended locks, and waits (the caller's, which are the join, apart from the work's).
    private sealed class RegionTally(long regionStart, long end, long ticksPerSecond, int? caller, IEnumerable<int> workers)
    {
        private readonly Dictionary<int, long> _contentionStarts = [];
        private readonly Dictionary<int, long> _waitStarts = [];
        private readonly HashSet<int> _workers = [.. workers];
        private long? _suspended;

        public int? TargetAtStart { get; private set; }

        public List<PoolAdjustment> Adjustments { get; } = [];

        public int Started { get; private set; }

        public int Stopped { get; private set; }

        public int Collections { get; private set; }

        public Durations Contentions { get; } = new();

        public Durations Waits { get; } = new();

        public Durations Join { get; } = new();

        public Durations Work { get; } = new();

        public Durations Pauses { get; } = new();

        public List<(double TimeMs, int Length)> Queue { get; } = [];

        public List<(double TimeMs, double Count)> Completed { get; } = [];

        public void Add(RuntimeEvent e)
        {
        switch (e.Kind)
        {
            case RuntimeEventKind.PoolAdjustment when e.Ticks < regionStart:
                TargetAtStart = e.Value;
                break;
            case RuntimeEventKind.PoolAdjustment when In(e.Ticks):
                Adjustments.Add(new PoolAdjustment(Math.Round(Ms(e.Ticks - regionStart), 3), e.Value, e.Reason, Math.Round(e.Number, 3)));
                break;
            case RuntimeEventKind.WorkerStart when In(e.Ticks):
                Started++;
                break;
            case RuntimeEventKind.WorkerStop when In(e.Ticks):
                Stopped++;
                break;
            case RuntimeEventKind.QueueLength when In(e.Ticks):
                Queue.Add((Math.Round(Ms(e.Ticks - regionStart), 3), e.Value));
                break;
            case RuntimeEventKind.ItemsCompleted when In(e.Ticks):
                Completed.Add((Math.Round(Ms(e.Ticks - regionStart), 3), e.Number));
                break;
            case RuntimeEventKind.GcStart when In(e.Ticks):
                Collections++;
                break;
            case RuntimeEventKind.ContentionStart:
                _contentionStarts[e.Thread] = e.Ticks;
                break;
            case RuntimeEventKind.ContentionStop:
            {
                // Since .NET 8 the stop carries its duration; before, the start on the same thread gives it.
                var began = e.Number > 0
                    ? e.Ticks - (long)(e.Number * ticksPerSecond / 1e9)
                    : _contentionStarts.Remove(e.Thread, out var s) ? s : (long?)null;
                _contentionStarts.Remove(e.Thread);
                if (began is { } b && In(e.Ticks))
                {
                    Contentions.Add(Ms(e.Ticks - Math.Max(b, regionStart)));
                }

                break;
            }

            case RuntimeEventKind.WaitStart:
                // A contended lock waits on the same wait subsystem: that wait is the contention, counted once.
                // A wait on a bare handle counts on a pool thread only: elsewhere it is the runtime's own
                // threads timing themselves (the pool's gate thread waits 500 ms at a time, for ever).
                if (!_contentionStarts.ContainsKey(e.Thread) && (e.Value == RuntimeEvent.MonitorWaitSource || _workers.Contains(e.Thread)))
                {
                    _waitStarts[e.Thread] = e.Ticks;
                }

                break;
            case RuntimeEventKind.WaitStop:
                if (_waitStarts.Remove(e.Thread, out var waited) && In(e.Ticks))
                {
                    var ms = Ms(e.Ticks - Math.Max(waited, regionStart));
                    Waits.Add(ms);
                    (e.Thread == caller ? Join : Work).Add(ms);
                }

                break;
            case RuntimeEventKind.GcSuspend:
                _suspended = e.Ticks;
                break;
            case RuntimeEventKind.GcRestart:
                if (_suspended is { } paused && In(e.Ticks))
                {
                    Pauses.Add(Ms(e.Ticks - Math.Max(paused, regionStart)));
                }

                _suspended = null;
                break;
        }
        }

        private double Ms(long ticks) => ticks * 1000.0 / ticksPerSecond;

        private bool In(long ticks) => ticks >= regionStart && ticks <= end;
    }

    private sealed class Durations
    {
        private int _count;
        private double _total;
        private double _longest;

        public void Add(double ms)
        {
            ms = Math.Max(0, ms);
            _count++;
            _total += ms;
            _longest = Math.Max(_longest, ms);
        }

        public BlockedTime Total() => new(_count, Math.Round(_total, 3), Math.Round(_longest, 3));
    }
}
