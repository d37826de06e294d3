using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Results;

/// <summary>
/// What <c>conclab load</c> measured of a service under open-loop load: each variant (an endpoint) at each offered
/// rate, and the rate at which each stopped keeping up. Requests were sent at times fixed in advance, whatever the
/// service did, and each is timed from the time it was meant to be sent (corrected for coordinated omission).
/// </summary>
internal sealed record LoadResult
{
    /// <summary>The service: its base URL, and the command the lab started it with (null when it was already running).</summary>
    public required string Url { get; init; }

    /// <summary>The command the lab started the service with, once per variant and repeat; null for a service already
    /// running at <see cref="Url"/>.</summary>
    public string? Command { get; init; }

    /// <summary>The process of a service already running whose runtime the lab attached to (<c>--pid</c>); null when it
    /// started the service or read no account.</summary>
    public int? ProcessId { get; init; }

    /// <summary>The protocol requests were sent over: <c>HTTP/1.1</c>, or <c>HTTP/2</c> (<c>--http2</c>); null in files
    /// written before it was recorded, which sent HTTP/1.1.</summary>
    public string? Protocol { get; init; }

    /// <summary>How requests arrived: <c>constant</c> (evenly spaced) or <c>poisson</c> (seeded exponential gaps).</summary>
    public required string Arrivals { get; init; }

    /// <summary>Whether the rates were searched (<c>--rate auto</c>) rather than stepped as given.</summary>
    public bool Searched { get; init; }

    /// <summary>How long each step sent requests, in seconds, after its warm-up.</summary>
    public double StepSeconds { get; init; }

    /// <summary>How long each step's unmeasured warm-up sent requests at the step's rate, in seconds.</summary>
    public double WarmupSeconds { get; init; }

    /// <summary>How long one request could take before it was counted as timed out, in seconds.</summary>
    public double TimeoutSeconds { get; init; }

    /// <summary>The corrected p99 latency a step had to stay under, as given (<c>--slo</c>), in milliseconds; null when
    /// each variant's came from its lowest step.</summary>
    public double? SloMs { get; init; }

    /// <summary>Each variant, in the order given.</summary>
    public IReadOnlyList<LoadVariant> Variants { get; init; } = [];
}

/// <summary>One variant of a load run: an endpoint of the service, with every step it ran and its saturation point.</summary>
internal sealed record LoadVariant
{
    /// <summary>The variant's name, as given (<c>sync</c> in <c>--endpoint sync=/orders/sync</c>).</summary>
    public required string Name { get; init; }

    /// <summary>The path requested, relative to the service's URL.</summary>
    public required string Path { get; init; }

    /// <summary>The command that started this variant's service, where each variant had its own (<c>--start
    /// NAME=COMMAND</c>); null where <see cref="LoadResult.Command"/> started every variant's, or none was
    /// started.</summary>
    public string? Command { get; init; }

    /// <summary>The corrected p99 a step had to stay under, in milliseconds: <see cref="LoadResult.SloMs"/>, or ten
    /// times this variant's lowest step's corrected p50; null when no step completed a request.</summary>
    public double? SloMs { get; init; }

    /// <summary>Every step, in the order run (repeat by repeat, each repeat's rates in the order tried).</summary>
    public IReadOnlyList<LoadStep> Steps { get; init; } = [];

    /// <summary>Where the variant stopped keeping up; null when no step ran.</summary>
    public LoadSaturation? Saturation { get; init; }

    /// <summary>What the reader should know about this variant: a service that died or never became ready, a step cut short.</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];
}

/// <summary>One step: requests offered at one rate for <see cref="LoadResult.StepSeconds"/>, and what came of them.</summary>
internal sealed record LoadStep
{
    /// <summary>Which repeat of the variant, from 0.</summary>
    public int Repeat { get; init; }

    /// <summary>The rate offered, requests per second; in a closed-loop step (<see cref="Connections"/>), the rate its
    /// connections achieved.</summary>
    public required double OfferedPerSecond { get; init; }

    /// <summary>For a closed-loop step (<c>--connections</c>): how many connections each sent its next request when its
    /// last was answered; null for an open-loop step.</summary>
    public int? Connections { get; init; }

    /// <summary>When the step's measured part began, in milliseconds after the service was started (or after the repeat
    /// began, for a service already running).</summary>
    public double StartMs { get; init; }

    /// <summary>How long the measured part took, in milliseconds, from its first send to its last reply or timeout.</summary>
    public double WallMs { get; init; }

    /// <summary>Requests the schedule planned.</summary>
    public int Planned { get; init; }

    /// <summary>Requests sent (fewer than planned only when the step was stopped).</summary>
    public int Sent { get; init; }

    /// <summary>Requests answered with success in their time.</summary>
    public int Completed { get; init; }

    /// <summary>Requests that took longer than the timeout.</summary>
    public int TimedOut { get; init; }

    /// <summary>Requests that failed, by kind (<c>HTTP 503</c>, <c>ConnectionError</c>...).</summary>
    public IReadOnlyDictionary<string, int> Failed { get; init; } = new Dictionary<string, int>();

    /// <summary>Sends that started more than 5 ms after their intended time: the load generator falling behind its schedule.</summary>
    public int Late { get; init; }

    /// <summary>Requests sent per second of the step.</summary>
    public double SentPerSecond { get; init; }

    /// <summary>Requests completed per second, over the step or until its last reply, whichever was longer.</summary>
    public double CompletedPerSecond { get; init; }

    /// <summary>Latency from each request's intended send time (what a user on that schedule waited); null when none completed.</summary>
    public LatencyQuantiles? Latency { get; init; }

    /// <summary>Latency from each request's actual send (the service time); null when none completed.</summary>
    public LatencyQuantiles? Service { get; init; }

    /// <summary>How late the sends started after their intended times; null when none was sent.</summary>
    public LatencyQuantiles? Lag { get; init; }

    /// <summary>The load generator's own CPU over the step, in milliseconds (the lab's process: the schedule, the client, the recording).</summary>
    public double GeneratorCpuMs { get; init; }

    /// <summary>The service process's CPU over the step, in milliseconds; null when the lab did not start it.</summary>
    public double? ServiceCpuMs { get; init; }

    /// <summary>The runtime's own account of the service over the step, read from its events; null when the lab did not
    /// start the service or events were off.</summary>
    public RuntimeAccount? Runtime { get; init; }

    /// <summary>Whether the step was stopped before its end because the service ended; it is kept, and judged only by
    /// <see cref="ServiceExitCode"/>.</summary>
    public bool Stopped { get; init; }

    /// <summary>
    /// The exit code of the service the lab started, where it ended during the step: the step did not keep up (a rate the
    /// service did not live through is not one it keeps up with). Null otherwise, and in files written before it was
    /// recorded, whose stopped steps are not judged.
    /// </summary>
    public int? ServiceExitCode { get; init; }

    /// <summary>The share of the offered requests that completed: the step kept up when it is at least
    /// <see cref="LoadSaturation.KeepUpShare"/>.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public double CompletedShare => Planned > 0 ? (double)Completed / Planned : 0;

    /// <summary>The share of sends that started late.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public double LateShare => Sent > 0 ? (double)Late / Sent : 0;
}

/// <summary>Quantiles of a latency, in milliseconds (HdrHistogram, three significant digits).</summary>
/// <param name="P50Ms">The median.</param>
/// <param name="P90Ms">The 90th percentile.</param>
/// <param name="P99Ms">The 99th percentile.</param>
/// <param name="P999Ms">The 99.9th percentile.</param>
/// <param name="MaxMs">The longest.</param>
internal sealed record LatencyQuantiles(double P50Ms, double P90Ms, double P99Ms, double P999Ms, double MaxMs);

/// <summary>
/// The highest offered rate at which a variant kept up: at least <see cref="KeepUpShare"/> of the offered requests
/// completed and the corrected p99 stayed under the variant's SLO, taken below the lowest rate that failed either;
/// per repeat, then the median and range over the repeats.
/// </summary>
internal sealed record LoadSaturation
{
    /// <summary>The least share of offered requests a step must complete to keep up.</summary>
    public const double KeepUpShare = 0.99;

    /// <summary>The share of sends that may start late before a step over its SLO is put down to the load generator
    /// rather than the service.</summary>
    public const double LateLimit = 0.01;

    /// <summary>The saturation rate, requests per second: the median over the repeats that found one; null when none did.</summary>
    public double? RatePerSecond { get; init; }

    /// <summary>The lowest of the repeats' rates; null with fewer than two repeats.</summary>
    public double? LowPerSecond { get; init; }

    /// <summary>The highest of the repeats' rates; null with fewer than two repeats.</summary>
    public double? HighPerSecond { get; init; }

    /// <summary>Each repeat's saturation rate, in repeat order; null for a repeat that found none.</summary>
    public IReadOnlyList<double?> PerRepeat { get; init; } = [];

    /// <summary>What ended the climb, in most repeats.</summary>
    public LoadLimit Limit { get; init; }

    /// <summary>The lowest rate that failed, in the median repeat; null when none failed.</summary>
    public double? FailedAtPerSecond { get; init; }

    /// <summary>What the runtime said of the service at <see cref="FailedAtPerSecond"/>: the why, where the lab started
    /// the service with events on.</summary>
    public LoadCause? Cause { get; init; }
}

/// <summary>What ended a variant's climb.</summary>
internal enum LoadLimit
{
    /// <summary>Completions fell below the offered rate.</summary>
    Completions,

    /// <summary>The corrected p99 went over the SLO while completions kept up.</summary>
    Latency,

    /// <summary>The corrected p99 went over the SLO while the load generator was behind its own schedule (more than 1%
    /// of sends late): the step measured the lab as much as the service, so the climb stopped there.</summary>
    Generator,

    /// <summary>Every step kept up: the saturation point is above the highest rate run.</summary>
    NotReached,

    /// <summary>Even the lowest rate failed.</summary>
    BelowLowest,

    /// <summary>The service the lab started exited during the step at the failed rate.</summary>
    Died,
}

/// <summary>
/// The runtime's account of a service at the first rate it did not keep up with, as figures: why its pool fell
/// behind, where its threads blocked, and how its CPU was shared with the load generator.
/// </summary>
internal sealed record LoadCause
{
    /// <summary>The rate of the step described, per second.</summary>
    public double RatePerSecond { get; init; }

    /// <summary>How long the step described took, in milliseconds.</summary>
    public double WallMs { get; init; }

    /// <summary>Times the pool raised its thread target because work waited in its queue (starvation).</summary>
    public int StarvationRaises { get; init; }

    /// <summary>Times the pool raised its target because its threads blocked (cooperative blocking).</summary>
    public int BlockingRaises { get; init; }

    /// <summary>The pool's thread target at the step's end; null without a pool adjustment in the account.</summary>
    public int? PoolThreadsAtEnd { get; init; }

    /// <summary>Time the service's threads spent waiting to enter a lock, in milliseconds; null when not measured.</summary>
    public double? LockWaitMs { get; init; }

    /// <summary>The call site where the service's threads spent the most time not running, where stacks were read.</summary>
    public BlockingSite? TopSite { get; init; }

    /// <summary>That site's share of all the time the service's threads did not run.</summary>
    public double? TopSiteShare { get; init; }

    /// <summary>The service's CPU over the step as a share of the machine's cores; null when not measured.</summary>
    public double? ServiceCpuShare { get; init; }

    /// <summary>The load generator's CPU over the step as a share of the machine's cores.</summary>
    public double GeneratorCpuShare { get; init; }
}
