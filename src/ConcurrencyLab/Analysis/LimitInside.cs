using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Analysis;

/// <summary>
/// Finds a limit inside the items from a run's own figures. Little's law holds in every trial: the items in flight
/// on average are the rate of completed items times an item's mean time in that trial. If nothing inside the items
/// held them back, more items in flight would complete faster until the cores or the waits bind; if the variants with
/// far more items under way than the best completed them no faster, and each item took much longer than its least
/// time while the cores stood idle, something inside the items lets only so many make progress at once: the best rate
/// times an item's least time (a semaphore, a connection pool, a lock, a downstream service's own limit).
/// </summary>
internal static class LimitInside
{
    /// <summary>A witness has at least this many times the limit's items in flight.</summary>
    public const double MoreInFlight = 1.5;

    /// <summary>A witness completes items at least this share of the best rate: as fast, within the noise of a few trials.</summary>
    public const double AsFastShare = 0.8;

    /// <summary>A witness's items take at least this many times their least time.</summary>
    public const double Stretched = 1.5;

    /// <summary>The witnesses' cores busy stay at or below this share of the machine's: the CPU was not what held them.</summary>
    public const double IdleCoresShare = 0.7;

    /// <summary>
    /// Where the machine's idle time was read, at least this share of its core time stood idle in each witness's
    /// region: had the CPU held the items, runnable threads would have taken those cores.
    /// </summary>
    public const double MachineIdleShare = 0.15;

    /// <summary>
    /// The limit <paramref name="variants"/> (the sound ones of one answer) show, or null where they show none or
    /// cannot: the scenario does not time its items (<see cref="ScenarioResult.ItemTimes"/>), fewer than two variants
    /// had far more items in flight and were as fast, or the trial's process kept the cores busy. Where only other
    /// work kept the machine's cores busy, the limit is given with <see cref="InsideLimit.MachineBusy"/>: seen, but not
    /// judged.
    /// </summary>
    public static InsideLimit? Of(ScenarioResult scenario, IReadOnlyList<VariantResult> variants, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(variants);
        if (scenario.ItemTimes is not { MeanMs: > 0 and < 1e9, Items: > 1 } least || processorCount < 1)
        {
            return null;
        }

        var measured = variants
            .Where(v => v.Summary is { MedianWallMs: > 0 } s && s.Median(StandardMetrics.InFlightMean) is > 0)
            .Select(
                v => (Variant: v, Summary: v.Summary!, InFlight: v.Summary!.Median(
                    StandardMetrics.InFlightMean)!.Value, PerMs: least.Items / v.Summary!.MedianWallMs))
            .ToList();
        if (measured.Count < 3)
        {
            return null;
        }

        var best = measured.MaxBy(m => m.PerMs);
        var atOnce = best.PerMs * least.MeanMs;
        var witnesses = measured
            .Where(m => m.InFlight >= MoreInFlight * atOnce && m.PerMs >= AsFastShare * best.PerMs
                && m.InFlight / (m.PerMs * least.MeanMs) >= Stretched)
            .ToList();
        if (witnesses.Count < 2 || atOnce < 0.5)
        {
            return null;
        }

        // The CPU holds items back the same way (more in flight, each slower, no faster in all): only where the cores
        // stood idle is the limit inside the items. Where the machine's idle time was read, the cores must have been
        // idle there too, not busy with other work (another process, the hypervisor's): on a machine kept busy by
        // others the run cannot tell a limit inside the items from the CPU, and says nothing.
        var cores = witnesses.Select(w => w.Summary.Median(StandardMetrics.CoresUsed)).ToList();
        if (cores.Any(c => c is null) || cores.Max() > IdleCoresShare * processorCount)
        {
            return null;
        }

        var idleShares = witnesses.Select(w => w.Summary.Median(StandardMetrics.MachineIdle) / (processorCount * w.Summary.MedianWallMs))
            .OfType<double>().ToList();
        double? leastIdle = idleShares.Count > 0 ? Math.Round(Math.Clamp(idleShares.Min(), 0, 1), 3) : null;
        var slots = Math.Max(1, (int)Math.Ceiling(atOnce - 0.05));
        return new InsideLimit
        {
            AtOnce = Math.Round(atOnce, 2),
            Slots = slots,
            ItemLeastMs = least.MeanMs,
            BestPerSecond = Math.Round(1000 * best.PerMs, 1),
            Best = best.Variant.Name,
            Items = least.Items,
            BoundMs = Math.Round(Math.Max(least.Items * least.MeanMs / slots, least.LongestMs), 3),
            Witnesses =
            [
                .. witnesses.OrderBy(w => w.InFlight)
                    .Select(
                        w => new LimitWitness(w.Variant.Name, w.InFlight, Math.Round(1000 * w.PerMs, 1),
                            Math.Round(w.InFlight / (w.PerMs * least.MeanMs), 2))),
            ],
            LockContentions = witnesses.Max(w => w.Summary.Median(StandardMetrics.LockContentions) ?? 0),
            Cores = cores.Max()!.Value,
            ProcessorCount = processorCount,
            MachineIdleShare = leastIdle,
            MachineBusy = leastIdle < MachineIdleShare,
        };
    }
}
