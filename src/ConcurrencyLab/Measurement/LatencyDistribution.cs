using HdrHistogram;

namespace ConcurrencyLab.Measurement;

/// <summary>Percentiles of per-item latencies, recorded in an HDR histogram at microsecond resolution.</summary>
public static class LatencyDistribution
{
    // One hour in microseconds is more than any trial may last; three significant digits keep error under 0.1%.
    private const long HighestTrackableMicroseconds = 3_600_000_000;

    /// <summary>Summarises <paramref name="latenciesMs"/>; an empty list gives zeros.</summary>
    public static LatencyPercentiles Summarise(IReadOnlyCollection<double> latenciesMs)
    {
        ArgumentNullException.ThrowIfNull(latenciesMs);
        if (latenciesMs.Count == 0)
        {
            return new LatencyPercentiles(0, 0, 0, 0);
        }

        var histogram = new LongHistogram(HighestTrackableMicroseconds, 3);
        var max = 0.0;
        foreach (var ms in latenciesMs)
        {
            var micros = (long)Math.Clamp(Math.Round(ms * 1000), 0, HighestTrackableMicroseconds);
            histogram.RecordValue(micros);
            max = Math.Max(max, ms);
        }

        return new LatencyPercentiles(
            ToMs(histogram.GetValueAtPercentile(50)),
            ToMs(histogram.GetValueAtPercentile(95)),
            ToMs(histogram.GetValueAtPercentile(99)),
            Math.Round(max, 3));
    }

    // The histogram answers with the highest value equivalent to the bucket; round away float noise.
    private static double ToMs(long micros) => Math.Round(micros / 1000.0, 3);
}

/// <summary>Latency percentiles in milliseconds.</summary>
public sealed record LatencyPercentiles(double P50Ms, double P95Ms, double P99Ms, double MaxMs);
