namespace ConcurrencyLab.Measurement;

/// <summary>
/// Thread time by state in a trial's region, from the runtime's sample profiler (<see cref="RuntimeEvents.Stacks"/>):
/// each sample of a thread's stack stands for the time until that thread's next one. The work's threads (the pool's
/// busy threads and any the variant started) apart from the caller, the thread that began the region; idle pool
/// threads, the runtime's own threads and the lab's are left out.
/// </summary>
internal sealed record ThreadTime
{
    /// <summary>Samples taken in the region on the threads counted.</summary>
    public int Samples { get; init; }

    /// <summary>
    /// Samples left out because their stacks had frames the trace never named: the program ended while it was watched,
    /// before its runtime named its precompiled code, so their threads' states cannot be told. 0 in older files.
    /// </summary>
    public int UnnamedSamples { get; init; }

    /// <summary>The median time between two samples of a thread, in milliseconds: the profiler's rate as it ran.</summary>
    public double IntervalMs { get; init; }

    /// <summary>The work's threads, by state.</summary>
    public required ThreadStates Work { get; init; }

    /// <summary>The caller, by state; null when the caller could not be told.</summary>
    public ThreadStates? Caller { get; init; }

    /// <summary>Of <see cref="Work"/>, the pool's worker threads' time by state; null where no pool thread was sampled,
    /// and in older files.</summary>
    public ThreadStates? Pool { get; init; }

    /// <summary>The share of the pool's threads' time they spent not running (waiting, sleeping, in I/O): 0 to 1; null
    /// where no pool thread was sampled.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public double? PoolBlockedShare => Pool is { } p && p.RunningMs + p.WaitingMs + p.SleepingMs + p.IoMs is > 0 and var total
        ? (p.WaitingMs + p.SleepingMs + p.IoMs) / total : null;

    /// <summary>Where the work's threads were not running, by call site, the most time first (at most <see cref="MaxSites"/>).</summary>
    public IReadOnlyList<BlockingSite> Sites { get; init; } = [];

    /// <summary>
    /// The site with the most time, with its share of the work's time not running; null where there is no site, or
    /// its time is no part of that time (a file that says otherwise, sent or edited, gets no share, never "Infinity%").
    /// </summary>
    internal (BlockingSite Site, double Share)? Top =>
        Sites.Count > 0 && Work.BlockedMs > 0 && Sites[0].Ms / Work.BlockedMs is >= 0 and <= 1 and var share ? (Sites[0], share) : null;

    /// <summary>The most call sites kept.</summary>
    public const int MaxSites = 8;

    /// <summary>
    /// The work's threads over the region, by state: <see cref="Bins"/> equal spans of <see cref="BinMs"/> from the
    /// region's start, each the mean number of the work's threads in each state over its span. Empty in files
    /// from before it was kept.
    /// </summary>
    public IReadOnlyList<ThreadCounts> Timeline { get; init; } = [];

    /// <summary>The length of each of <see cref="Timeline"/>'s spans, in milliseconds.</summary>
    public double BinMs { get; init; }

    /// <summary>How many spans <see cref="Timeline"/> has.</summary>
    public const int Bins = 60;

    /// <summary>What reading the samples cost the lab, after the process ended; null in older files.</summary>
    public StacksReadCost? Read { get; init; }
}

/// <summary>
/// What reading one process's stack samples cost the lab, by stage: the recorded trace's size, converting it to
/// TraceEvent's indexed form (its parse of the stream included), walking every sample's stack to name its state and
/// site, and looking the sites' lines up in the PDBs. The lab's own time, never the trial's.
/// </summary>
/// <param name="TraceBytes">The recorded trace's size (all its files, for a program watched in several).</param>
/// <param name="ConvertMs">Converting the trace to TraceEvent's indexed form.</param>
/// <param name="WalkMs">Reading every sample's stack.</param>
/// <param name="LinesMs">Looking up the sites' lines.</param>
internal sealed record StacksReadCost(long TraceBytes, double ConvertMs, double WalkMs, double LinesMs)
{
    /// <summary>Two reads added up.</summary>
    public static StacksReadCost operator +(StacksReadCost a, StacksReadCost b)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        return new(a.TraceBytes + b.TraceBytes, a.ConvertMs + b.ConvertMs, a.WalkMs + b.WalkMs, a.LinesMs + b.LinesMs);
    }
}

/// <summary>Time in each state, in milliseconds, added up over threads.</summary>
/// <param name="RunningMs">Running managed or native code, or ready to (the profiler cannot tell a thread on a core
/// from one waiting for a core).</param>
/// <param name="WaitingMs">Blocked in a managed wait: a lock, <c>Monitor.Wait</c> (tasks, <c>ManualResetEventSlim</c>,
/// <c>SemaphoreSlim</c>), a wait handle, a join.</param>
/// <param name="SleepingMs">In <c>Thread.Sleep</c>.</param>
/// <param name="IoMs">In a synchronous I/O call (a file or socket read or write, a connect, a poll): the kernel's work included.</param>
internal sealed record ThreadStates(double RunningMs, double WaitingMs, double SleepingMs, double IoMs)
{
    /// <summary>Time not running: waiting, sleeping and in I/O.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public double BlockedMs => WaitingMs + SleepingMs + IoMs;
}

/// <summary>How many threads were in each state, on average over a span of time (see <see cref="ThreadStates"/> for the states).</summary>
/// <param name="Running">Threads running, or ready to.</param>
/// <param name="Waiting">Threads blocked in a managed wait.</param>
/// <param name="Sleeping">Threads in <c>Thread.Sleep</c>.</param>
/// <param name="Io">Threads in a synchronous I/O call.</param>
internal sealed record ThreadCounts(double Running, double Waiting, double Sleeping, double Io)
{
    /// <summary>All the work's threads counted in the span.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public double Total => Running + Waiting + Sleeping + Io;
}

/// <summary>A call site where the work's threads were not running.</summary>
/// <param name="State">waiting, sleeping or io.</param>
/// <param name="Site">The first frame of code outside the framework above the blocking call (<c>Worker.Fetch</c>);
/// empty when every frame was the framework's.</param>
/// <param name="Api">The framework's method that code called (<c>System.Threading.Tasks.Task`1.get_Result</c>).</param>
/// <param name="Ms">Time there, added up over threads.</param>
/// <param name="Samples">Samples there.</param>
internal sealed record BlockingSite(string State, string Site, string Api, double Ms, int Samples)
{
    /// <summary>The site's source file (its name only, <c>Worker.cs</c>), where the program's PDB was beside it; else null.</summary>
    public string? File { get; init; }

    /// <summary>The site's line in <see cref="File"/>: the line of the call that blocked; null with no PDB.</summary>
    public int? Line { get; init; }

    /// <summary>For a wait to enter a lock: where the lock's owner was while the waiters waited, the most of their
    /// time; null elsewhere, or where the runtime did not name the owner.</summary>
    public LockOwner? Owner { get; init; }

    /// <summary>
    /// True where the call was made from a method generated at run time (ASP.NET's request delegate) into which the JIT
    /// inlined the code that made it: that code's method and line are not on the stack. False in older files.
    /// </summary>
    public bool Generated { get; init; }
}

/// <summary>Where a contended lock's owner was, from its own stack samples while others waited for it.</summary>
/// <param name="Site">The owner's first frame of code outside the framework.</param>
/// <param name="File">That frame's source file, where its PDB was at hand.</param>
/// <param name="Line">That frame's line.</param>
/// <param name="Ms">The waiters' time spent while the owner was there.</param>
internal sealed record LockOwner(string Site, string? File, int? Line, double Ms);
