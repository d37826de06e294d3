using System.Text.Json.Serialization;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// The runtime's own account of a trial's measured region, read from its events by the runner, outside the
/// trial's process: what the thread pool decided and why, how long threads were blocked, and the GC's pauses.
/// Events are cut to the region like every other figure; times are from the region's start.
/// </summary>
internal sealed record RuntimeAccount
{
    /// <summary>Which events were asked for.</summary>
    public RuntimeEvents Events { get; init; }

    /// <summary>
    /// False when the account may lack events of the region: the trial timed out or was killed, or its process
    /// ended before the session's last events reached the runner. <see cref="Note"/> says which.
    /// </summary>
    public bool Complete { get; init; } = true;

    /// <summary>Why the account is incomplete, or what else a reader should know of it.</summary>
    public string? Note { get; init; }

    /// <summary>The pool's target for worker threads as the region began: its last decision before it; null when it had made none.</summary>
    public int? PoolTargetAtStart { get; init; }

    /// <summary>Every change the pool made to its target for worker threads in the region, in order.</summary>
    public IReadOnlyList<PoolAdjustment> PoolAdjustments { get; init; } = [];

    /// <summary>Worker threads the pool started in the region.</summary>
    public int WorkerThreadsStarted { get; init; }

    /// <summary>Worker threads that ended in the region (timed out while idle).</summary>
    public int WorkerThreadsStopped { get; init; }

    /// <summary>Lock contentions that ended in the region, with how long threads waited; null when not collected
    /// (<see cref="RuntimeEvents.Full"/> only).</summary>
    public BlockedTime? LockContentions { get; init; }

    /// <summary>
    /// Waits on handles, tasks, semaphores and Monitor.Wait that ended in the region (.NET 9 and later), on every
    /// thread: <see cref="Join"/> and <see cref="WorkWaits"/> together; null when not collected.
    /// </summary>
    public BlockedTime? Waits { get; init; }

    /// <summary>
    /// Of <see cref="Waits"/>, those on the thread that began the region and handed the work to the variant: the
    /// variant waiting for its own batch (WaitAll, a CountdownEvent, a task's Result), and for a strategy that also
    /// runs items on that thread (Parallel.For), those items' waits. Null when not collected, or when the thread
    /// could not be told (another OS, or a file written before it was recorded).
    /// </summary>
    public BlockedTime? Join { get; init; }

    /// <summary>Of <see cref="Waits"/>, those on every other thread: the work's own; null where <see cref="Join"/> is.</summary>
    public BlockedTime? WorkWaits { get; init; }

    /// <summary>Thread time by state and the call sites that blocked, from stack samples; null unless <see cref="RuntimeEvents.Stacks"/>.</summary>
    public ThreadTime? Threads { get; init; }

    /// <summary>The GC's pauses (runtime suspensions for a collection) that ended in the region.</summary>
    public BlockedTime? GcPauses { get; init; }

    /// <summary>Collections that began in the region.</summary>
    public int GcCollections { get; init; }

    /// <summary>
    /// The pool's queue and its completed work items as the runtime's own meter (<c>System.Runtime</c>, .NET 9 and later)
    /// published them, about once a second; null when they were not read (only <c>conclab why</c> reads them).
    /// </summary>
    public PoolQueue? PoolQueue { get; init; }

    /// <summary>Adjustments in the region made for <paramref name="reason"/>, whichever way they went.</summary>
    public int Count(PoolAdjustmentReason reason) => PoolAdjustments.Count(a => a.Reason == reason);

    /// <summary>
    /// Adjustments in the region for <paramref name="reason"/> that raised the target: threads added. (The pool
    /// lowers its target for cooperative blocking too, when the blocking ends.)
    /// </summary>
    public int Injections(PoolAdjustmentReason reason) => Raises().Count(a => a.Reason == reason);

    /// <summary>The adjustments that raised the pool's target, in order.</summary>
    internal IEnumerable<PoolAdjustment> Raises() => Moves().Where(m => m.Raised).Select(m => m.Adjustment);

    /// <summary>
    /// The adjustments made for starvation or a thread blocking on a task, in order, each with whether it raised the
    /// target (a thread added) or lowered it (for blocking, the pool takes back threads once the blocking ends).
    /// </summary>
    internal IEnumerable<(PoolAdjustment Adjustment, bool Raised)> InjectionMoves() =>
        Moves().Where(m => m.Moved && m.Adjustment.Reason is PoolAdjustmentReason.Starvation or PoolAdjustmentReason.CooperativeBlocking)
            .Select(m => (m.Adjustment, m.Raised));

    // Each adjustment against the target before it: whether it changed it, and whether it raised it. The first, with
    // no target known before it, counts as a raise.
    private IEnumerable<(PoolAdjustment Adjustment, bool Moved, bool Raised)> Moves()
    {
        var target = PoolTargetAtStart;
        foreach (var adjustment in PoolAdjustments)
        {
            yield return (adjustment, target is null || adjustment.Threads != target, target is null || adjustment.Threads > target);
            target = adjustment.Threads;
        }
    }

    /// <summary>Adjustments in the region made by hill climbing (its moves, change points and stabilising), whichever way they went.</summary>
    [JsonIgnore]
    public int HillClimbingMoves => PoolAdjustments.Count(a => a.Reason.IsHillClimbing());
}

/// <summary>
/// The pool's queue over a window, as the runtime's meter published it: each reading of its length (work items waiting for a
/// thread), and the work items completed per second between the first and last reading of the completed count.
/// </summary>
/// <param name="Lengths">Each reading: when (ms from the window's start) and how many items waited.</param>
/// <param name="CompletedPerSecond">Work items the pool completed per second between the first and the last reading; null with
/// fewer than two readings a second or more apart.</param>
internal sealed record PoolQueue(IReadOnlyList<QueueReading> Lengths, double? CompletedPerSecond)
{
    /// <summary>The longest the queue was at a reading; null with no reading.</summary>
    [JsonIgnore]
    public int? Peak => Lengths.Count > 0 ? Lengths.Max(l => l.Length) : null;

    /// <summary>The queue from its readings: lengths as read, and the completed count's readings turned into a rate.</summary>
    public static PoolQueue Of(IReadOnlyList<(double TimeMs, int Length)> lengths, IReadOnlyList<(double TimeMs, double Count)> completed)
    {
        ArgumentNullException.ThrowIfNull(lengths);
        ArgumentNullException.ThrowIfNull(completed);
        double? rate = null;
        if (completed.Count >= 2 && completed[^1].TimeMs - completed[0].TimeMs >= 1000 && completed[^1].Count >= completed[0].Count)
        {
            rate = Math.Round((completed[^1].Count - completed[0].Count) * 1000 / (completed[^1].TimeMs - completed[0].TimeMs), 1);
        }

        return new PoolQueue([.. lengths.Select(l => new QueueReading(l.TimeMs, l.Length))], rate);
    }
}

/// <summary>One reading of the pool's queue length.</summary>
/// <param name="TimeMs">When, in milliseconds from the window's start.</param>
/// <param name="Length">Work items waiting for a pool thread.</param>
internal sealed record QueueReading(double TimeMs, int Length);

/// <summary>One decision of the thread pool: its new target for worker threads, and why.</summary>
/// <param name="TimeMs">When, in milliseconds from the region's start.</param>
/// <param name="Threads">The new target for worker threads.</param>
/// <param name="Reason">Why the pool changed it.</param>
/// <param name="Throughput">Work items completed per second as hill climbing measured them at the time.</param>
internal sealed record PoolAdjustment(double TimeMs, int Threads, PoolAdjustmentReason Reason, double Throughput);

/// <summary>Why the thread pool changed its target for worker threads (the runtime's own reasons).</summary>
internal enum PoolAdjustmentReason
{
    /// <summary>Hill climbing's warm-up.</summary>
    Warmup,

    /// <summary>Hill climbing starting over.</summary>
    Initializing,

    /// <summary>Hill climbing trying a random step.</summary>
    RandomMove,

    /// <summary>Hill climbing moving towards more throughput.</summary>
    ClimbingMove,

    /// <summary>Hill climbing finding that throughput changed.</summary>
    ChangePoint,

    /// <summary>Hill climbing settling.</summary>
    Stabilizing,

    /// <summary>The starvation monitor: work waited in the queue while no thread was free, so a thread was added (about
    /// one every half second).</summary>
    Starvation,

    /// <summary>A thread was idle long enough to leave.</summary>
    ThreadTimedOut,

    /// <summary>A pool thread blocked on a task (sync over async), so the pool added one to make up for it.</summary>
    CooperativeBlocking,
}

/// <summary>Time threads spent blocked, of one kind, summed over every thread.</summary>
/// <param name="Count">How many times.</param>
/// <param name="TotalMs">Their durations added up, over all threads (so it can exceed the region's wall time).</param>
/// <param name="LongestMs">The longest one.</param>
internal sealed record BlockedTime(int Count, double TotalMs, double LongestMs);

/// <summary>Helpers over <see cref="PoolAdjustmentReason"/>.</summary>
internal static class PoolAdjustmentReasons
{
    /// <summary>Whether the reason is one of hill climbing's.</summary>
    public static bool IsHillClimbing(this PoolAdjustmentReason reason) =>
        reason is PoolAdjustmentReason.Warmup or PoolAdjustmentReason.Initializing or PoolAdjustmentReason.RandomMove
            or PoolAdjustmentReason.ClimbingMove or PoolAdjustmentReason.ChangePoint or PoolAdjustmentReason.Stabilizing;

    /// <summary>The reason as a report writes it: <c>starvation</c>, <c>cooperative blocking</c>, <c>hill climbing</c>.</summary>
    public static string ToText(this PoolAdjustmentReason reason) => reason switch
    {
        PoolAdjustmentReason.Starvation => "starvation",
        PoolAdjustmentReason.CooperativeBlocking => "cooperative blocking",
        PoolAdjustmentReason.ThreadTimedOut => "thread timed out",
        _ => "hill climbing",
    };
}
