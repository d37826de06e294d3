using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// The edge between a trial as the runner knows it and as results.json records it: what the meter read and what the
/// scenario reported (<see cref="TrialOutcome"/>), made one <see cref="TrialResult"/>.
/// </summary>
internal static class TrialRecord
{
    /// <summary>Combines what a meter read with what the scenario reports about its items and its own metrics.</summary>
    public static TrialResult Of(Measurements m, TrialOutcome outcome, bool isolated)
    {
        ArgumentNullException.ThrowIfNull(m);
        ArgumentNullException.ThrowIfNull(outcome);
        var error = outcome.Error;
        if (error is null && outcome.ItemsCompleted != outcome.ItemsPlanned)
        {
            error = $"{outcome.ItemsCompleted} of {outcome.ItemsPlanned} items completed.";
        }

        if (error is null && outcome.ItemsDuplicated > 0)
        {
            error = $"{outcome.ItemsDuplicated} items ran more than once.";
        }

        var metrics = StandardMetrics.Read(m, outcome.LatenciesMs.Count > 0 ? LatencyDistribution.Summarise(outcome.LatenciesMs)
            : null, outcome.LongestItemMs, outcome.CallerMs, outcome.FirstItemMs, outcome.InFlight);
        if (outcome.Metrics is { } own)
        {
            metrics.AddRange(own);
        }

        return new TrialResult
        {
            Status = error is null ? TrialStatus.Ok : TrialStatus.Failed,
            Error = error,
            Isolated = isolated,
            ItemsPlanned = outcome.ItemsPlanned,
            ItemsCompleted = outcome.ItemsCompleted,
            ItemsDuplicated = outcome.ItemsDuplicated,
            WorkloadDigest = outcome.WorkloadDigest,
            Metrics = metrics,
            Samples = m.Samples,
            Service = outcome.Service,
            InFlight = outcome.InFlight,
            ItemTimesMs = outcome.ItemTimesMs,
        };
    }
}
