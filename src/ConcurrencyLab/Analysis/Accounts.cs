using ConcurrencyLab.Results;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Analysis;

/// <summary>
/// Adds up a variant's runtime account (<see cref="AccountSummary"/>): once when a run is summarised, and again only
/// for a file written before it was stored.
/// </summary>
internal static class Accounts
{
    /// <summary>The summary <paramref name="variant"/> holds, or the one its trials give; null when none of its ok
    /// trials has a complete account.</summary>
    public static AccountSummary? Of(VariantResult variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return variant.Account ?? For(variant);
    }

    /// <summary>The summary of <paramref name="variant"/>'s median trial; null when none of its ok trials has a complete account.</summary>
    public static AccountSummary? For(VariantResult variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        var trials = variant.Trials
            .Select((trial, index) => (trial, index))
            .Where(t => t.trial.Status == TrialStatus.Ok && t.trial.Runtime is { Complete: true })
            .OrderBy(t => t.trial.WallMs)
            .ToList();
        if (trials.Count == 0)
        {
            return null;
        }

        var (median, at) = trials[(trials.Count - 1) / 2];
        var service = median.Service is { Runtime: { Complete: true } own } ? Of(own) : null;
        return new AccountSummary
        {
            Trial = at,
            WallMs = median.WallMs,
            Process = Of(median.Runtime!),
            Service = service,
            ServiceName = service is null ? null : median.Service!.Name,
        };
    }

    /// <summary>The figures of one process's <paramref name="account"/>.</summary>
    public static ProcessAccount Of(RuntimeAccount account)
    {
        ArgumentNullException.ThrowIfNull(account);
        var start = account.PoolTargetAtStart;
        return new ProcessAccount
        {
            PoolTargetStart = start,
            PoolTargetPeak = account.PoolAdjustments.Count > 0 ? Math.Max(account.PoolAdjustments.Max(a => a.Threads), start ?? 0) : start,
            PoolTargetEnd = account.PoolAdjustments.Count > 0 ? account.PoolAdjustments[^1].Threads : start,
            StarvationRaises = account.Injections(PoolAdjustmentReason.Starvation),
            BlockingRaises = account.Injections(PoolAdjustmentReason.CooperativeBlocking),
            HillClimbingMoves = account.HillClimbingMoves,
            LockContentions = account.LockContentions,
            Waits = account.Waits,
            Join = account.Join,
            WorkWaits = account.WorkWaits,
            Threads = account.Threads,
            GcPauses = account.GcPauses,
            GcCollections = account.GcCollections,
            QueuePeak = account.PoolQueue?.Peak,
            CompletedPerSecond = account.PoolQueue?.CompletedPerSecond,
        };
    }
}
