namespace ConcurrencyLab.Measurement;

/// <summary>
/// Percentiles of per-item latencies. A trial has at most a few hundred thousand items, so they are exact
/// order statistics (nearest rank) of the sorted latencies rather than histogram buckets, whose upper
/// bounds could report a p99 above the maximum.
/// </summary>
internal static class LatencyDistribution
{
    /// <summary>Summarises <paramref name="latenciesMs"/>; an empty list gives zeros.</summary>
    public static LatencyPercentiles Summarise(IReadOnlyCollection<double> latenciesMs)
    {
        ArgumentNullException.ThrowIfNull(latenciesMs);
        if (latenciesMs.Count == 0)
        {
            return new LatencyPercentiles(0, 0, 0, 0);
        }

        var sorted = latenciesMs.ToArray();
        Array.Sort(sorted);
        return new LatencyPercentiles(Rank(sorted, 50), Rank(sorted, 95), Rank(sorted, 99), Round(sorted[^1]));
    }

    /// <summary>The nearest-rank percentile: the smallest value with at least <paramref name="percent"/>% of values at or below it.</summary>
    internal static double Rank(double[] sorted, double percent)
    {
        var rank = (int)Math.Ceiling(percent / 100 * sorted.Length);
        return Round(sorted[Math.Clamp(rank, 1, sorted.Length) - 1]);
    }

    private static double Round(double ms) => Math.Round(ms, 3);
}

/// <summary>Latency percentiles in milliseconds.</summary>
internal sealed record LatencyPercentiles(double P50Ms, double P95Ms, double P99Ms, double MaxMs);
