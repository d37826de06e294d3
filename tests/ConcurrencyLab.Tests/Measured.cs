using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests;

/// <summary>A trial's metrics as a test writes them: its wall time, and any others by their descriptors.</summary>
internal static class Measured
{
    public static MetricValues Metrics(double wallMs, params (Metric Metric, double Value)[] others)
    {
        var values = new MetricValues { [StandardMetrics.WallTime] = wallMs };
        foreach (var (metric, value) in others)
        {
            values[metric] = value;
        }

        return values;
    }
}
