using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// How even a trial's memory and CPU were while the server sent, read from the sampler's readings. The first second
/// is left out: the receivers make their threads and buffers then, and the post's claims are about the run after.
/// </summary>
internal static class Steadiness
{
    /// <summary>The start of the sending the figures leave out, in ms.</summary>
    public const double SettleMs = 1000;

    /// <summary>
    /// The resident memory's swing over the sending after the first second: (highest - lowest) / median of the
    /// readings. Null where the trial kept no resident memory (a file from before it was kept, an OS without
    /// <c>/proc</c>) or fewer than 3 readings in the window.
    /// </summary>
    public static double? ResidentSwing(IReadOnlyList<Sample> samples, double sendingMs)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var resident = samples
            .Where(s => double.IsFinite(s.TimeMs) && s.TimeMs >= SettleMs && s.TimeMs <= sendingMs && s.ResidentBytes > 0)
            .Select(s => (double)s.ResidentBytes)
            .Order()
            .ToList();
        if (resident.Count < 3)
        {
            return null;
        }

        var median = resident[resident.Count / 2];
        return (resident[^1] - resident[0]) / median;
    }

    /// <summary>
    /// How uneven the CPU use was from one second to the next over the sending after the first second: the coefficient
    /// of variation (standard deviation over mean) of the CPU time used in each whole second, each read by linear
    /// interpolation between the readings around its edges. Null with fewer than 3 whole seconds, or none used.
    /// </summary>
    public static double? CpuUnevenness(IReadOnlyList<Sample> samples, double sendingMs)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var readings = samples.Where(s => double.IsFinite(s.TimeMs) && double.IsFinite(s.CpuMs)).OrderBy(s => s.TimeMs).ToList();
        var seconds = new List<double>();
        for (var start = SettleMs; start + 1000 <= sendingMs; start += 1000)
        {
            if (CpuAt(readings, start) is { } from && CpuAt(readings, start + 1000) is { } to)
            {
                seconds.Add(Math.Max(0, to - from));
            }
        }

        if (seconds.Count < 3)
        {
            return null;
        }

        var mean = seconds.Average();
        if (mean <= 0)
        {
            return null;
        }

        var variance = seconds.Sum(x => (x - mean) * (x - mean)) / (seconds.Count - 1);
        return Math.Sqrt(variance) / mean;
    }

    // The cumulative CPU time at timeMs, between the readings on either side; null outside the readings.
    private static double? CpuAt(List<Sample> readings, double timeMs)
    {
        for (var i = 1; i < readings.Count; i++)
        {
            var (before, after) = (readings[i - 1], readings[i]);
            if (before.TimeMs <= timeMs && after.TimeMs >= timeMs)
            {
                var span = after.TimeMs - before.TimeMs;
                return span <= 0 ? after.CpuMs : before.CpuMs + ((after.CpuMs - before.CpuMs) * (timeMs - before.TimeMs) / span);
            }
        }

        return null;
    }
}
