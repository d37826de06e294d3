using System.Text.Json.Serialization;

namespace ConcurrencyLab.Results;

/// <summary>
/// The answer after a scenario's table, as data: the fastest variant; the one to use, which is the cheapest (fewest
/// peak threads, then least CPU) that the statistics cannot tell apart from the fastest (their 95% intervals of the
/// median overlap); and each variant to avoid with a reason that carries its figures. Computed once from the results
/// (<c>ConcurrencyLab.Analysis.Recommender</c>), stored in <c>results.json</c>, and said in words only by the reports.
/// </summary>
public sealed record Recommendation
{
    /// <summary>Where variants run different work (<see cref="ScenarioResult.WorkParameters"/>), which group this answers: <c>requests=1000</c>; null when they all run the same.</summary>
    public string? Group { get; init; }

    /// <summary>The variant with the lowest median wall time among those whose every trial was ok with right results (among all, when none was).</summary>
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

    /// <summary>Why the fastest sound variant stayed far from the ideal; null when its efficiency is at least <see cref="GapAccount.Threshold"/> or unknown.</summary>
    public GapAccount? Gap { get; init; }

    /// <summary>
    /// The variants left out of this answer, neither to use nor to avoid, because a figure of their trials strayed from
    /// what the scenario expects of the work (<see cref="ScenarioResult.Expectations"/>): their times measure other work
    /// than the run describes. Empty when none strayed, and in older files.
    /// </summary>
    public IReadOnlyList<UnlikeWork> NotJudged { get; init; } = [];
}

/// <summary>A variant whose trials' median of a metric strayed from what the scenario expected of the work.</summary>
public sealed record UnlikeWork
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
public enum UseBecause
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
public sealed record Interval(double Low, double High);

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
[JsonDerivedType(typeof(MuchSlower), "muchSlower")]
public abstract record AvoidReason
{
    /// <summary>The variant to avoid.</summary>
    public required string Variant { get; init; }

    /// <summary>How much the reason should worry a reader: 0 (it failed) to 5 (it is only slower).</summary>
    [JsonIgnore]
    public abstract int Rank { get; }
}

/// <summary>Some of its trials failed or timed out.</summary>
public sealed record TrialsFailed : AvoidReason
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
public sealed record NoOkTrial : AvoidReason
{
    /// <inheritdoc/>
    public override int Rank => 0;
}

/// <summary>A metric that should be 0 (hosts misclassified, messages lost) was not.</summary>
public sealed record WrongResults : AvoidReason
{
    /// <summary>Each such metric, by id, with its median.</summary>
    public required IReadOnlyDictionary<string, double> Metrics { get; init; }

    /// <inheritdoc/>
    public override int Rank => 1;
}

/// <summary>The thread pool added threads because work waited: in the trial's process, or in the service it drove.</summary>
public sealed record BlocksPoolThreads : AvoidReason
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

    /// <inheritdoc/>
    public override int Rank => 2;
}

/// <summary>Its CPU work ran one item at a time (about one core busy) where the fastest kept more busy.</summary>
public sealed record OneCoreBusy : AvoidReason
{
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
public sealed record ManyMoreThreads : AvoidReason
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
public sealed record BlockedWithCoresIdle : AvoidReason
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

/// <summary>Much slower, and it ran no more items at once than its set degree.</summary>
public sealed record HeldToItsDegree : AvoidReason
{
    /// <summary>Its degree.</summary>
    public required int Degree { get; init; }

    /// <summary>Its median wall time over the fastest's.</summary>
    public required double Ratio { get; init; }

    /// <inheritdoc/>
    public override int Rank => 4;
}

/// <summary>Only this: at least twice the fastest's time.</summary>
public sealed record MuchSlower : AvoidReason
{
    /// <summary>Its median wall time over the fastest's.</summary>
    public required double Ratio { get; init; }

    /// <summary>Its median wall time, in milliseconds.</summary>
    public required double MedianMs { get; init; }

    /// <inheritdoc/>
    public override int Rank => 5;
}
