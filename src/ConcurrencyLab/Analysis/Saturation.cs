using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Analysis;

/// <summary>How one load step fared against its variant's bar.</summary>
internal enum StepOutcome
{
    /// <summary>At least 99% of the offered requests completed and the corrected p99 stayed under the SLO.</summary>
    KeptUp,

    /// <summary>Fewer than 99% of the offered requests completed.</summary>
    Completions,

    /// <summary>Completions kept up but the corrected p99 went over the SLO.</summary>
    Latency,

    /// <summary>The corrected p99 went over the SLO while more than 1% of the sends started late: the generator's lag,
    /// not only the service, was measured.</summary>
    Generator,

    /// <summary>The step was stopped before its end, so it is not judged.</summary>
    Stopped,

    /// <summary>The service the lab started exited during the step: it did not keep up with a rate it did not live through.</summary>
    Died,

    /// <summary>A closed-loop step, which offers no rate and is not judged against one.</summary>
    ClosedLoop,
}

/// <summary>
/// The saturation point of a service's variant under open-loop load, from its steps: the rules are here once, for
/// the search (<c>--rate auto</c>) as it climbs and for the answer after.
/// </summary>
internal static class Saturation
{
    /// <summary>The default SLO is this many times the variant's lowest step's corrected p50.</summary>
    public const double DefaultSloFactor = 10;

    /// <summary>Ten times the corrected p50 of the lowest-rate step that completed a request; null when none did.</summary>
    public static double? DefaultSloMs(IEnumerable<LoadStep> steps) =>
        steps.Where(s => !s.Stopped && s.Latency is not null).OrderBy(s => s.OfferedPerSecond).FirstOrDefault() is { Latency: { } latency }
            ? Math.Max(latency.P50Ms * DefaultSloFactor, 1)
            : null;

    /// <summary>How <paramref name="step"/> fared against an SLO of <paramref name="sloMs"/> (none when null).</summary>
    public static StepOutcome Judge(LoadStep step, double? sloMs)
    {
        ArgumentNullException.ThrowIfNull(step);
        if (step.Stopped)
        {
            return step.ServiceExitCode is null ? StepOutcome.Stopped : StepOutcome.Died;
        }

        // A closed loop offers no rate to keep up with: it measures what the service answers at its concurrency.
        if (step.Connections is not null)
        {
            return StepOutcome.ClosedLoop;
        }

        // Requests that did not complete are the service's doing however late they were sent: a late send is still
        // sent, and given its whole timeout.
        if (step.CompletedShare < LoadSaturation.KeepUpShare)
        {
            return StepOutcome.Completions;
        }

        if (sloMs is not { } slo || step.Latency is not { } latency || latency.P99Ms <= slo)
        {
            // The corrected latency holds any lag of the sends: under the SLO with it, under the SLO without it.
            return StepOutcome.KeptUp;
        }

        // Timed from their actual sends, the requests were over the SLO all the same: no lag of the lab's put them
        // there. (One send of eight late by 6.5 ms once made a step at 4 a second "the generator's", where the
        // service itself took 409 ms against an SLO of 400.)
        if (step.Service is { } service && service.P99Ms > slo)
        {
            return StepOutcome.Latency;
        }

        // Over the SLO with a schedule that was not kept: the latency holds the lab's lag as much as the service's
        // time, so the step is not judged on it (two late sends of 128 once ended a climb at 32 a second; they do not
        // now, since that step was under its SLO all the same).
        return step.LateShare > LoadSaturation.LateLimit ? StepOutcome.Generator : StepOutcome.Latency;
    }

    /// <summary>
    /// The saturation point over <paramref name="steps"/>: per repeat, the highest rate that kept up below the lowest
    /// rate that did not (so a lucky step above a failed one does not count); then the median and range over repeats.
    /// <paramref name="processorCount"/> turns CPU times into shares of the machine for the cause.
    /// </summary>
    public static LoadSaturation Of(IReadOnlyList<LoadStep> steps, double? sloMs, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(steps);
        var repeats = steps.GroupBy(s => s.Repeat).OrderBy(g => g.Key).Select(g => Climb(g.ToList(), sloMs)).ToList();
        var found = repeats.Where(r => r.Rate is not null).Select(r => r.Rate!.Value).Order().ToList();
        double? median = found.Count == 0 ? null
            : found.Count % 2 == 1 ? found[found.Count / 2] : (found[(found.Count / 2) - 1] + found[found.Count / 2]) / 2;

        // The repeat nearest the median speaks for the limit and the cause.
        var typical = repeats.Count == 0 ? default
            : repeats.OrderBy(r => median is { } m && r.Rate is { } rate ? Math.Abs(rate - m) : double.MaxValue).First();
        var limit = repeats.Count == 0 ? LoadLimit.BelowLowest
            : repeats.GroupBy(r => r.Limit).OrderByDescending(g => g.Count()).ThenBy(g => g.Key == typical.Limit ? 0 : 1).First().Key;
        return new LoadSaturation
        {
            RatePerSecond = median,
            LowPerSecond = found.Count >= 2 ? found[0] : null,
            HighPerSecond = found.Count >= 2 ? found[^1] : null,
            PerRepeat = [.. repeats.Select(r => r.Rate)],
            Limit = limit,
            FailedAtPerSecond = typical.Failed?.OfferedPerSecond,
            Cause = typical.Failed is { } failed ? CauseOf(failed, processorCount) : null,
        };
    }

    // One repeat's climb: its saturation rate, what stopped it, and the step that did.
    private static (double? Rate, LoadLimit Limit, LoadStep? Failed) Climb(IReadOnlyList<LoadStep> steps, double? sloMs)
    {
        var judged = steps.Select(s => (Step: s, Outcome: Judge(s, sloMs)))
            .Where(j => j.Outcome is not (StepOutcome.Stopped or StepOutcome.ClosedLoop)).ToList();
        var failed = judged.Where(j => j.Outcome != StepOutcome.KeptUp).OrderBy(j => j.Step.OfferedPerSecond).FirstOrDefault();
        var below = failed.Step is null ? judged : judged.Where(j => j.Step.OfferedPerSecond < failed.Step.OfferedPerSecond).ToList();
        double? rate = below.Where(j => j.Outcome == StepOutcome.KeptUp).Select(j => (double?)j.Step.OfferedPerSecond).Max();
        if (failed.Step is null)
        {
            return (rate, judged.Count == 0 ? LoadLimit.BelowLowest : LoadLimit.NotReached, null);
        }

        var limit = rate is null && failed.Outcome != StepOutcome.Generator
            ? LoadLimit.BelowLowest
            : failed.Outcome switch
            {
                StepOutcome.Generator => LoadLimit.Generator,
                StepOutcome.Latency => LoadLimit.Latency,
                StepOutcome.Died => LoadLimit.Died,
                _ => LoadLimit.Completions,
            };
        return (rate, limit, failed.Step);
    }

    /// <summary>The runtime's account of <paramref name="step"/> as the figures of a cause.</summary>
    internal static LoadCause CauseOf(LoadStep step, int processorCount)
    {
        var seconds = Math.Max(step.WallMs, 1) / 1000;
        var cores = Math.Max(processorCount, 1);
        var runtime = step.Runtime;
        return new LoadCause
        {
            RatePerSecond = step.OfferedPerSecond,
            WallMs = step.WallMs,
            StarvationRaises = runtime?.Injections(PoolAdjustmentReason.Starvation) ?? 0,
            BlockingRaises = runtime?.Injections(PoolAdjustmentReason.CooperativeBlocking) ?? 0,
            PoolThreadsAtEnd = runtime?.PoolAdjustments.Count > 0 ? runtime.PoolAdjustments[^1].Threads : runtime?.PoolTargetAtStart,
            LockWaitMs = runtime?.LockContentions?.TotalMs,
            TopSite = runtime?.Threads?.Top?.Site,
            TopSiteShare = runtime?.Threads?.Top?.Share,
            ServiceCpuShare = step.ServiceCpuMs is { } service ? service / 1000 / seconds / cores : null,
            GeneratorCpuShare = step.GeneratorCpuMs / 1000 / seconds / cores,
        };
    }
}
