using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Results;

/// <summary>
/// What a variant's runtime account comes to, as data: the figures of its median trial (the ok trial with a complete
/// account whose wall time is the median's, the lower middle of an even count), for its own process and for the
/// service it drove. Computed once (<c>ConcurrencyLab.Analysis.Accounts</c>) and stored in <c>results.json</c>.
/// </summary>
internal sealed record AccountSummary
{
    /// <summary>Which measured trial it is, by its place in <see cref="VariantResult.Trials"/>.</summary>
    public required int Trial { get; init; }

    /// <summary>That trial's wall time, in milliseconds.</summary>
    public required double WallMs { get; init; }

    /// <summary>The trial's own process.</summary>
    public required ProcessAccount Process { get; init; }

    /// <summary>The service the trial drove (fanout's product service), where its account is complete; null otherwise.</summary>
    public ProcessAccount? Service { get; init; }

    /// <summary>The service's name, where there is one.</summary>
    public string? ServiceName { get; init; }
}

/// <summary>One process's account, added up: the pool's target and why it moved, time blocked, the GC.</summary>
internal sealed record ProcessAccount
{
    /// <summary>The pool's target for worker threads as the region began; null when it had made no decision before.</summary>
    public int? PoolTargetStart { get; init; }

    /// <summary>The highest target in the region (the start included); null with no start and no adjustment.</summary>
    public int? PoolTargetPeak { get; init; }

    /// <summary>The target as the region ended.</summary>
    public int? PoolTargetEnd { get; init; }

    /// <summary>Whether the target rose above both its start and its end, so a report names the peak too.</summary>
    internal bool PeakStandsOut
        => PoolTargetStart is { } start && PoolTargetPeak is { } peak && PoolTargetEnd is { } end && peak > start && peak > end;

    /// <summary>Raises of the target because queued work waited with no thread free.</summary>
    public int StarvationRaises { get; init; }

    /// <summary>Raises of the target because pool threads blocked on tasks.</summary>
    public int BlockingRaises { get; init; }

    /// <summary>Hill climbing's adjustments, whichever way they went.</summary>
    public int HillClimbingMoves { get; init; }

    /// <summary>Lock contentions that ended in the region; null when not collected.</summary>
    public BlockedTime? LockContentions { get; init; }

    /// <summary>Waits that ended in the region, on every thread (<see cref="Join"/> and <see cref="WorkWaits"/>); null when not collected.</summary>
    public BlockedTime? Waits { get; init; }

    /// <summary>Of <see cref="Waits"/>, those of the thread that began the region: the variant's wait for its batch;
    /// null where it was not told apart.</summary>
    public BlockedTime? Join { get; init; }

    /// <summary>Of <see cref="Waits"/>, those of every other thread: the work's own; null where <see cref="Join"/> is.</summary>
    public BlockedTime? WorkWaits { get; init; }

    /// <summary>Thread time by state and the call sites that blocked, from stack samples; null unless collected (<c>--events stacks</c>).</summary>
    public ThreadTime? Threads { get; init; }

    /// <summary>The work's time blocked: lock contentions and the waits of threads other than the caller (all waits
    /// where they were not told apart); null when not collected.</summary>
    internal double? WorkBlockedMs
        => LockContentions is null && Waits is null ? null : (LockContentions?.TotalMs ?? 0) + ((WorkWaits ?? Waits)?.TotalMs ?? 0);

    /// <summary>The GC's pauses; null when not collected.</summary>
    public BlockedTime? GcPauses { get; init; }

    /// <summary>Collections that began in the region.</summary>
    public int GcCollections { get; init; }

    /// <summary>The pool's queue at its longest among the runtime meter's readings; null when they were not read.</summary>
    public int? QueuePeak { get; init; }

    /// <summary>Work items the pool completed per second over the meter's readings; null when they were not read.</summary>
    public double? CompletedPerSecond { get; init; }
}
