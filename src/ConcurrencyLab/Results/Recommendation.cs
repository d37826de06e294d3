using System.Text.Json.Serialization;

namespace ConcurrencyLab.Results;

/// <summary>
/// The answer after a scenario's table, as data: the fastest variant; the one to use, which is the cheapest (fewest
/// peak threads, then least CPU) that the statistics cannot tell apart from the fastest (their 95% intervals of the
/// median overlap); and each variant to avoid with a reason that carries its figures. Computed once from the results
/// (<c>ConcurrencyLab.Analysis.Recommender</c>), stored in <c>results.json</c>, and said in words only by the reports.
/// </summary>
internal sealed record Recommendation
{
    /// <summary>Where variants run different work (<see cref="ScenarioResult.WorkParameters"/>), which group this
    /// answers: <c>requests=1000</c>; null when they all run the same.</summary>
    public string? Group { get; init; }

    /// <summary>The variant with the lowest median wall time among those whose every trial was ok with right results
    /// (among all, when none was).</summary>
    public required string Fastest { get; init; }

    /// <summary>The fastest's median wall time, in milliseconds.</summary>
    public required double FastestMs { get; init; }

    /// <summary>The variant to use; null when every variant failed a trial or gave wrong results.</summary>
    public string? Use { get; init; }

    /// <summary>Why that one; <see cref="UseBecause.NoneSound"/> when <see cref="Use"/> is null.</summary>
    public required UseBecause Because { get; init; }

    /// <summary>How many sound variants the statistics could not tell apart from the fastest (the fastest included).</summary>
    public int AsFast { get; init; }

    /// <summary>The one to use's interval of the median wall time, in milliseconds (low, high); null when there is none to use.</summary>
    public Interval? UseInterval { get; init; }

    /// <summary>The fastest's interval of the median wall time, in milliseconds (low, high).</summary>
    public Interval? FastestInterval { get; init; }

    /// <summary>The one to use's median peak threads; null where not measured.</summary>
    public double? UseThreads { get; init; }

    /// <summary>The fastest's median peak threads; null where not measured.</summary>
    public double? FastestThreads { get; init; }

    /// <summary>The one to use's median CPU time, in milliseconds; null where not measured.</summary>
    public double? UseCpuMs { get; init; }

    /// <summary>The fastest's median CPU time, in milliseconds; null where not measured.</summary>
    public double? FastestCpuMs { get; init; }

    /// <summary>The variants to avoid, the most worrying reason first (<see cref="AvoidReason.Rank"/>), then by name.</summary>
    public IReadOnlyList<AvoidReason> Avoid { get; init; } = [];

    /// <summary>Why the fastest sound variant stayed far from the ideal; null when its efficiency is at least
    /// <see cref="GapAccount.Threshold"/> or unknown.</summary>
    public GapAccount? Gap { get; init; }

    /// <summary>
    /// A limit inside the items that the run's own figures show: no more than about <see cref="InsideLimit.AtOnce"/>
    /// items made progress at once whatever the strategy and degree; null where the figures show none, or cannot tell
    /// (the scenario does not time its items, or the run has too few variants to see the rate stay flat).
    /// </summary>
    public InsideLimit? Limit { get; init; }

    /// <summary>
    /// What looked like a limit inside the items where other work kept the machine's cores busy
    /// (<see cref="InsideLimit.MachineBusy"/>): not judged, since the CPU cannot be ruled out; null otherwise.
    /// </summary>
    public InsideLimit? LimitNotJudged { get; init; }

    /// <summary>
    /// The variants left out of this answer, neither to use nor to avoid, because a figure of their trials strayed from
    /// what the scenario expects of the work (<see cref="ScenarioResult.Expectations"/>): their times measure other work
    /// than the run describes. Empty when none strayed, and in older files.
    /// </summary>
    public IReadOnlyList<UnlikeWork> NotJudged { get; init; } = [];
}

/// <summary>A variant whose trials' median of a metric strayed from what the scenario expected of the work.</summary>
internal sealed record UnlikeWork
{
    /// <summary>The variant.</summary>
    public required string Variant { get; init; }

    /// <summary>The metric's id (<c>itemCpuMs</c>).</summary>
    public required string Metric { get; init; }

    /// <summary>The value the scenario expected.</summary>
    public required double Expected { get; init; }

    /// <summary>The median of the variant's ok trials.</summary>
    public required double Measured { get; init; }

    /// <summary>How far from the expected value, as a fraction of it, the median may be and still be judged (0.1: 10%).</summary>
    public required double Tolerance { get; init; }
}

/// <summary>Why a recommendation names the variant it does.</summary>
internal enum UseBecause
{
    /// <summary>It is the fastest, and no variant as fast uses fewer threads.</summary>
    Fastest,

    /// <summary>It is as fast as the fastest within the statistics, on fewer threads (or, as many, less CPU).</summary>
    AsFastAndCheaper,

    /// <summary>Every variant failed a trial or gave wrong results: there is none to use.</summary>
    NoneSound,
}

/// <summary>A 95% interval, in milliseconds.</summary>
/// <param name="Low">Its lower end.</param>
/// <param name="High">Its upper end.</param>
internal sealed record Interval(double Low, double High);

/// <summary>
/// Why a variant is one to avoid: one kind per rule, each with the figures it fired on. The first rule that fires,
/// in the order of <see cref="Rank"/> (wrong answers, then waste, then slowness), is the variant's reason.
/// </summary>
[JsonPolymorphic(TypeDiscriminatorPropertyName = "kind", UnknownDerivedTypeHandling = JsonUnknownDerivedTypeHandling.FailSerialization)]
[JsonDerivedType(typeof(TrialsFailed), "trialsFailed")]
[JsonDerivedType(typeof(NoOkTrial), "noOkTrial")]
[JsonDerivedType(typeof(WrongResults), "wrongResults")]
[JsonDerivedType(typeof(BlocksPoolThreads), "blocksPoolThreads")]
[JsonDerivedType(typeof(OneCoreBusy), "oneCoreBusy")]
[JsonDerivedType(typeof(ManyMoreThreads), "manyMoreThreads")]
[JsonDerivedType(typeof(BlockedWithCoresIdle), "blockedWithCoresIdle")]
[JsonDerivedType(typeof(HeldToItsDegree), "heldToItsDegree")]
[JsonDerivedType(typeof(CouldNotStart), "couldNotStart")]
[JsonDerivedType(typeof(CpuBound), "cpuBound")]
[JsonDerivedType(typeof(MuchSlower), "muchSlower")]
internal abstract record AvoidReason
{
    /// <summary>The variant to avoid.</summary>
    public required string Variant { get; init; }

    /// <summary>How much the reason should worry a reader: 0 (it failed) to 5 (it is only slower).</summary>
    [JsonIgnore]
    public abstract int Rank { get; }
}

/// <summary>Some of its trials failed or timed out.</summary>
internal sealed record TrialsFailed : AvoidReason
{
    /// <summary>The trials that were not ok.</summary>
    public required int Failed { get; init; }

    /// <summary>The trials measured.</summary>
    public required int Trials { get; init; }

    /// <summary>Whether every one that was not ok timed out.</summary>
    public bool TimedOut { get; init; }

    /// <summary>The first failed trial's error, or its status where it gave none.</summary>
    public required string FirstError { get; init; }

    /// <inheritdoc/>
    public override int Rank => 0;
}

/// <summary>None of its trials was ok, so nothing of it was summarised.</summary>
internal sealed record NoOkTrial : AvoidReason
{
    /// <inheritdoc/>
    public override int Rank => 0;
}

/// <summary>A metric that should be 0 (hosts misclassified, messages lost) was not.</summary>
internal sealed record WrongResults : AvoidReason
{
    /// <summary>Each such metric, by id, with its median.</summary>
    public required IReadOnlyDictionary<string, double> Metrics { get; init; }

    /// <inheritdoc/>
    public override int Rank => 1;
}

/// <summary>The thread pool added threads because work waited: in the trial's process, or in the service it drove.</summary>
internal sealed record BlocksPoolThreads : AvoidReason
{
    /// <summary>The service the injections were in (fanout's <c>product</c>); null for the trial's own process.</summary>
    public string? Service { get; init; }

    /// <summary>The median count of threads added because queued work waited with no thread free.</summary>
    public required double Starvation { get; init; }

    /// <summary>The median count of threads added because pool threads blocked on tasks.</summary>
    public required double Blocking { get; init; }

    /// <summary>Its median wall time, in milliseconds.</summary>
    public required double MedianMs { get; init; }

    /// <summary>
    /// Where the threads of that process spent the most time not running, in the median trial's stack samples; null
    /// unless they were taken (<c>--events stacks</c>).
    /// </summary>
    public Measurement.BlockingSite? At { get; init; }

    /// <summary>That site's share of the time those threads were not running, from 0 to 1; null with <see cref="At"/>.</summary>
    public double? AtShare { get; init; }

    /// <summary>Its items in flight, where the scenario times its items; null elsewhere and in older files.</summary>
    public InFlightFigures? InFlight { get; init; }

    /// <inheritdoc/>
    public override int Rank => 2;
}

/// <summary>About one core busy where the fastest kept more busy: a figure, with its cause where the run measured one.</summary>
internal sealed record OneCoreBusy : AvoidReason
{
    /// <summary>
    /// The handing-over thread's median time inside the items, in milliseconds, where it was half the region or more:
    /// that thread ran the items' work, one item after another; null otherwise, and in older files.
    /// </summary>
    public double? CallerMs { get; init; }

    /// <summary>Its median cores busy.</summary>
    public required double Cores { get; init; }

    /// <summary>The fastest's median cores busy.</summary>
    public required double FastestCores { get; init; }

    /// <summary>The cores the machine had.</summary>
    public required int ProcessorCount { get; init; }

    /// <inheritdoc/>
    public override int Rank => 3;
}

/// <summary>Many more threads than the one to use (twice as many, and at least eight more), as fast or slower.</summary>
internal sealed record ManyMoreThreads : AvoidReason
{
    /// <summary>Its median peak threads.</summary>
    public required double Threads { get; init; }

    /// <summary>The one to use's median peak threads.</summary>
    public required double UseThreads { get; init; }

    /// <summary>Whether the statistics could not tell it from the fastest.</summary>
    public required bool AsFast { get; init; }

    /// <summary>Its median wall time over the fastest's.</summary>
    public required double Ratio { get; init; }

    /// <inheritdoc/>
    public override int Rank => 4;
}

/// <summary>
/// Much slower, calling blocking code, with the cores idle, and never given the threads its degree asked for: its
/// threads sat blocked in the waits.
/// </summary>
internal sealed record BlockedWithCoresIdle : AvoidReason
{
    /// <summary>Its median cores busy.</summary>
    public required double Cores { get; init; }

    /// <summary>The cores the machine had.</summary>
    public required int ProcessorCount { get; init; }

    /// <summary>Its median wall time, in milliseconds.</summary>
    public required double MedianMs { get; init; }

    /// <summary>Its median wall time over the fastest's.</summary>
    public required double Ratio { get; init; }

    /// <summary>The degree it asked for; null where it sets none.</summary>
    public int? Degree { get; init; }

    /// <summary>The pool's median peak threads; null where not measured.</summary>
    public double? PoolThreads { get; init; }

    /// <inheritdoc/>
    public override int Rank => 4;
}

/// <summary>
/// Much slower, and it ran as many items at once as it allows (its degree, or one at a time for a loop that waits for
/// each item) for at least half the region, where the fastest ran far more on average: measured by its items in flight.
/// </summary>
internal sealed record HeldToItsDegree : AvoidReason
{
    /// <summary>The most items it allows at once: its degree, 1 for a loop that waits for each item.</summary>
    public required int Degree { get; init; }

    /// <summary>Its median wall time over the fastest's.</summary>
    public required double Ratio { get; init; }

    /// <summary>Its items in flight; null in files written before they were measured, whose reason said only the degree.</summary>
    public InFlightFigures? InFlight { get; init; }

    /// <summary>The fastest's mean items in flight; null with <see cref="InFlight"/>.</summary>
    public double? FastestInFlight { get; init; }

    /// <inheritdoc/>
    public override int Rank => 4;
}

/// <summary>
/// Why a variant ran far fewer items at once than it allows, as far as the run's figures say.
/// </summary>
internal enum StartCause
{
    /// <summary>The thread that handed the batch over ran the items' synchronous work itself, one after another, for most of the region.</summary>
    CallingThread,

    /// <summary>Never more than one item at a time, though the strategy allows more: its calls ran each item to its end
    /// before starting the next.</summary>
    OneAtATime,

    /// <summary>
    /// The items in flight were as many as the pool's threads (one more at most: the calling thread may run one) while
    /// the cores stood mostly idle: the items blocked their threads, and the pool added more only slowly.
    /// </summary>
    PoolThreadsBlocked,

    /// <summary>Nothing this run measured says why.</summary>
    Unexplained,
}

/// <summary>
/// Much slower, and it ran fewer items at once than it allows on average, at that many for less than half the region:
/// its work could not start. The cause is the first the figures show, or <see cref="StartCause.Unexplained"/> (only
/// at half or less of what it allows).
/// </summary>
internal sealed record CouldNotStart : AvoidReason
{
    /// <summary>Its items in flight.</summary>
    public required InFlightFigures InFlight { get; init; }

    /// <summary>What kept the items from starting, as the figures show it.</summary>
    public required StartCause Cause { get; init; }

    /// <summary>Its median cores busy; null where not measured.</summary>
    public double? Cores { get; init; }

    /// <summary>The cores the machine had.</summary>
    public required int ProcessorCount { get; init; }

    /// <summary>The pool's threads at their most (median); null where not measured.</summary>
    public double? PoolThreads { get; init; }

    /// <summary>Work items waiting in the pool's queue at their most (median); null where not measured.</summary>
    public double? QueuePeak { get; init; }

    /// <summary>The median count of threads the pool added because queued work waited (the runtime's starvation
    /// reason); 0 where none or not read.</summary>
    public double Starvation { get; init; }

    /// <summary>The median count of threads the pool added because its threads blocked on tasks; 0 where none or not read.</summary>
    public double Blocking { get; init; }

    /// <summary>The handing-over thread's median time inside the items, in milliseconds; null where not timed.</summary>
    public double? CallerMs { get; init; }

    /// <summary>Its median wall time, in milliseconds.</summary>
    public required double MedianMs { get; init; }

    /// <summary>Its median wall time over the fastest's.</summary>
    public required double Ratio { get; init; }

    /// <inheritdoc/>
    public override int Rank => 3;
}

/// <summary>Much slower with the cores busy, because it spent much more CPU than the fastest on the same work.</summary>
internal sealed record CpuBound : AvoidReason
{
    /// <summary>Its median cores busy.</summary>
    public required double Cores { get; init; }

    /// <summary>The cores the machine had.</summary>
    public required int ProcessorCount { get; init; }

    /// <summary>Its median CPU time, in milliseconds.</summary>
    public required double CpuMs { get; init; }

    /// <summary>The fastest's median CPU time, in milliseconds.</summary>
    public required double FastestCpuMs { get; init; }

    /// <summary>Its median wall time over the fastest's.</summary>
    public required double Ratio { get; init; }

    /// <inheritdoc/>
    public override int Rank => 4;
}

/// <summary>Items in flight as a variant's trials measured them (medians): what a reason about them cites.</summary>
internal sealed record InFlightFigures
{
    /// <summary>Items under way at once, on average over the region.</summary>
    public required double Mean { get; init; }

    /// <summary>The most at any moment.</summary>
    public required double Peak { get; init; }

    /// <summary>The most the strategy allows at once; null where not known.</summary>
    public double? Allowed { get; init; }

    /// <summary>The share of the region, 0 to 1, with that many in flight; null with <see cref="Allowed"/>.</summary>
    public double? AtAllowedShare { get; init; }
}

/// <summary>
/// A limit inside the items, from the run's own figures: the variants that had many more items under way than the
/// limit completed them no faster than the best, each item taking longer the more were under way. By Little's law,
/// the best rate times an item's least time is how many made progress at once: <see cref="AtOnce"/>.
/// </summary>
internal sealed record InsideLimit
{
    /// <summary>How many items made progress at once: the best rate (items a millisecond) times an item's least time.</summary>
    public required double AtOnce { get; init; }

    /// <summary><see cref="AtOnce"/> rounded up: the slots the bound assumes.</summary>
    public required int Slots { get; init; }

    /// <summary>The items' least times in any trial, on average, in milliseconds.</summary>
    public required double ItemLeastMs { get; init; }

    /// <summary>The best rate of completed items, a second.</summary>
    public required double BestPerSecond { get; init; }

    /// <summary>The variant that reached it.</summary>
    public required string Best { get; init; }

    /// <summary>The items in the batch.</summary>
    public required int Items { get; init; }

    /// <summary>The lower bound the limit sets: the items' least times added up over <see cref="Slots"/>, or the
    /// longest item, whichever is longer.</summary>
    public required double BoundMs { get; init; }

    /// <summary>The variants that had far more items under way and were no faster: the evidence.</summary>
    public required IReadOnlyList<LimitWitness> Witnesses { get; init; }

    /// <summary>
    /// Median lock contentions of the witness with the most; 0 where none was counted. At least half the items, a lock
    /// is among the limits (fewer may be a lock inside what the items call, such as a semaphore's own).
    /// </summary>
    public double LockContentions { get; init; }

    /// <summary>Whether threads contended for a lock at least once for every two items: a lock is among the limits.</summary>
    [JsonIgnore]
    public bool LockAmongThem => LockContentions >= 0.5 * Items;

    /// <summary>The median cores the witnesses kept busy, at their most: low, so the CPU was not what held them.</summary>
    public required double Cores { get; init; }

    /// <summary>The cores the machine had.</summary>
    public required int ProcessorCount { get; init; }

    /// <summary>The least share of the machine's core time, 0 to 1, that stood idle in a witness's region; null where
    /// the machine's time was not read.</summary>
    public double? MachineIdleShare { get; init; }

    /// <summary>
    /// Whether other work kept the machine's cores busy in a witness's region (less than 0.15 of its core time idle):
    /// then the figures cannot tell a limit inside the items from the CPU, and the answer holds this one as
    /// <see cref="Recommendation.LimitNotJudged"/>, never as <see cref="Recommendation.Limit"/>.
    /// </summary>
    public bool MachineBusy { get; init; }
}

/// <summary>A variant that shows a limit inside the items: many more items under way than the limit, and no faster.</summary>
/// <param name="Variant">The variant.</param>
/// <param name="InFlight">Its mean items in flight.</param>
/// <param name="PerSecond">Its rate of completed items, a second.</param>
/// <param name="Stretch">Its items' mean time over their least: how much longer each took with that many under way.</param>
internal sealed record LimitWitness(string Variant, double InFlight, double PerSecond, double Stretch);

/// <summary>Only this: at least twice the fastest's time.</summary>
internal sealed record MuchSlower : AvoidReason
{
    /// <summary>Its median wall time over the fastest's.</summary>
    public required double Ratio { get; init; }

    /// <summary>Its median wall time, in milliseconds.</summary>
    public required double MedianMs { get; init; }

    /// <inheritdoc/>
    public override int Rank => 5;
}
