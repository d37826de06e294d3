namespace ConcurrencyLab.Results;

/// <summary>
/// Why the best variant stayed far from the ideal (an efficiency below <see cref="Threshold"/>), as data: each limit
/// the run measured, with how many milliseconds of the gap (its median less the ideal) it accounts for, and the one
/// that accounts for the most, or <see cref="GapLimit.Unexplained"/> when none accounts for half.
/// </summary>
internal sealed record GapAccount
{
    /// <summary>Below this efficiency the gap is accounted for.</summary>
    public const double Threshold = 0.8;

    /// <summary>A limit explains the gap when it accounts for at least this share of it.</summary>
    public const double ExplainsShare = 0.5;

    /// <summary>The best variant: the fastest whose every trial was ok.</summary>
    public required string Variant { get; init; }

    /// <summary>Its median wall time, in milliseconds.</summary>
    public required double MedianMs { get; init; }

    /// <summary>The ideal, in milliseconds.</summary>
    public required double IdealMs { get; init; }

    /// <summary>Its efficiency: the ideal over its median.</summary>
    public required double Efficiency { get; init; }

    /// <summary>The limit that accounts for the most of the gap, or <see cref="GapLimit.Unexplained"/>.</summary>
    public required GapLimit Limit { get; init; }

    /// <summary>Every limit measured in this run, the one that accounts for the most first.</summary>
    public IReadOnlyList<GapPart> Parts { get; init; } = [];

    /// <summary>The limits this run could not measure (the runtime's events off, or a scenario that does not time its items' calls).</summary>
    public IReadOnlyList<GapLimit> NotJudged { get; init; } = [];

    /// <summary>
    /// Where the whole machine's cores went while the variant ran, the medians of its trials; null where the OS does not
    /// say (it is read on Linux). Not a limit: it says what the cores did, not why.
    /// </summary>
    public MachineShare? Machine { get; init; }

    /// <summary>The gap: the median less the ideal, in milliseconds.</summary>
    public double GapMs => Math.Max(0, MedianMs - IdealMs);
}

/// <summary>
/// Where the whole machine's cores spent a variant's measured regions, as core time summed over cores, each the median
/// of its trials (so the parts need not add up exactly to <see cref="CoreMs"/>); read from Linux's <c>/proc/stat</c>,
/// exact to a tick of 10 ms in each state.
/// </summary>
internal sealed record MachineShare
{
    /// <summary>The machine's cores (the run's <c>environment.processorCount</c>) times the variant's median wall time:
    /// the core time there was.</summary>
    public required double CoreMs { get; init; }

    /// <summary>The CPU time of the trial's own process.</summary>
    public required double ProcessCpuMs { get; init; }

    /// <summary>Core time no one used, waiting for I/O included.</summary>
    public required double IdleMs { get; init; }

    /// <summary>Core time the hypervisor ran something else while this machine had work for the core.</summary>
    public required double StealMs { get; init; }

    /// <summary>Core time the machine was busy with anything but the trial's process: other processes, the kernel's threads, interrupts.</summary>
    public required double OthersMs { get; init; }
}

/// <summary>One limit's part of a <see cref="GapAccount"/>.</summary>
internal sealed record GapPart
{
    /// <summary>The limit.</summary>
    public required GapLimit Limit { get; init; }

    /// <summary>How many milliseconds of the gap it accounts for, from 0 to the gap.</summary>
    public required double ExplainedMs { get; init; }

    /// <summary>
    /// What was measured, in milliseconds: the caller's time inside the items; the time to the first item; when the
    /// pool last raised its target; the time threads waited for locks, summed; the runtime's GC pauses.
    /// </summary>
    public required double Ms { get; init; }

    /// <summary>How many: the pool's raises, the lock contentions, the collections; null for the rest.</summary>
    public int? Count { get; init; }
}

/// <summary>A measured limit that keeps a variant from its ideal.</summary>
internal enum GapLimit
{
    /// <summary>
    /// Work on the calling thread, one item after another: each item's CPU before its first await runs where it was
    /// started, so a variant that starts every item from one thread is held to that thread's one core. A floor of
    /// the caller's time; it explains what it adds over the ideal.
    /// </summary>
    CallerSideCpu,

    /// <summary>The pool raised its target because its threads blocked on tasks, and was still raising it this far into the run.</summary>
    PoolThreadsBlocked,

    /// <summary>The pool added threads at the starvation monitor's pace (about two a second) while work waited, and was
    /// still adding them this far into the run.</summary>
    SlowInjection,

    /// <summary>Threads waited for a lock another held: the summed wait, over the pool's threads at their peak.</summary>
    LockHeld,

    /// <summary>The strategy's own start before the first item's call (threads made, a pipeline built).</summary>
    StartUp,

    /// <summary>The runtime suspended the process for garbage collections.</summary>
    GcPause,

    /// <summary>No measured limit accounts for half of the gap.</summary>
    Unexplained,
}
