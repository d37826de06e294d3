using System.Globalization;

namespace ConcurrencyLab.Experiments.Mix;

/// <summary>
/// How long each item waits: a fixed time (<c>30</c>), uniform between two times (<c>10-50</c>), or long-tailed
/// from its median and 99th percentile (<c>p50=20,p99=200</c>: log-normal). Each item's wait is drawn from the
/// run's seed, so every trial waits the same.
/// </summary>
internal sealed record WaitShape(double LowMs, double HighMs, double? P50Ms, double? P99Ms)
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The longest wait any item is given: far tails are cut here, at 100 times the median, so one draw cannot stall a run.</summary>
    public const double TailCut = 100;

    /// <summary>Reads a shape as <c>--wait-ms</c> takes it; a problem in one line otherwise.</summary>
    public static (WaitShape Value, string? Problem) Parse(string text)
    {
        var t = text.Trim();
        if (t.Length == 0)
        {
            return (Fixed(0), "--wait-ms must be MS, LOW-HIGH or p50=MS,p99=MS, not an empty text.");
        }

        if (t.StartsWith("p50=", StringComparison.OrdinalIgnoreCase))
        {
            var parts = t.Split(',', StringSplitOptions.TrimEntries);
            if (parts.Length == 2 && parts[1].StartsWith("p99=", StringComparison.OrdinalIgnoreCase)
                && Ms(parts[0][4..]) is { } p50 && Ms(parts[1][4..]) is { } p99 && p50 > 0 && p99 >= p50)
            {
                return (new WaitShape(0, Math.Min(p50 * TailCut, 600_000), p50, p99), null);
            }

            return (Fixed(0), $"--wait-ms must be p50=MS,p99=MS with 0 < p50 <= p99 for a long tail, not '{text}'.");
        }

        // A range's dash, not an exponent's sign (1e-3 is a number).
        var dash = Enumerable.Range(1, Math.Max(0, t.Length - 1)).FirstOrDefault(i => t[i] == '-' && t[i - 1] is not ('e' or 'E'), -1);
        if (dash > 0)
        {
            return Ms(t[..dash]) is { } low && Ms(t[(dash + 1)..]) is { } high && high >= low
                ? (new WaitShape(low, high, null, null), null)
                : (Fixed(
                    0), $"--wait-ms must be MS (20), LOW-HIGH (10-50, LOW <= HIGH) or p50=MS,p99=MS (p50=20,p99=200), each from 0 to 600000 " +
                        $"ms, not '{text}'.");
        }

        return Ms(t) is { } ms ? (Fixed(ms), null)
            : (Fixed(0), $"--wait-ms must be MS, LOW-HIGH or p50=MS,p99=MS (each at most 600000 ms), not '{text}'.");

        static double? Ms(string s) =>
            double.TryParse(s.Trim(), NumberStyles.Float, Invariant, out var v) && double.IsFinite(v) && v is >= 0 and <= 600_000 ? v : null;
    }

    /// <summary>A wait of <paramref name="ms"/> for every item.</summary>
    public static WaitShape Fixed(double ms) => new(ms, ms, null, null);

    /// <summary>Each of <paramref name="count"/> items' waits, in milliseconds, drawn from <paramref name="seed"/>.</summary>
    public double[] Draw(int count, int seed)
    {
        var random = new Random(seed);
        var waits = new double[count];
        for (var i = 0; i < count; i++)
        {
            waits[i] = Math.Round(Sample(random), 3);
        }

        return waits;
    }

    private double Sample(Random random)
    {
        if (P50Ms is { } p50 && P99Ms is { } p99)
        {
            // Log-normal: the median is e^mu, the 99th percentile e^(mu + 2.326 sigma).
            var sigma = Math.Log(p99 / p50) / 2.3263478740408408;
            var normal = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
            return Math.Min(p50 * Math.Exp(sigma * normal), HighMs);
        }

        return LowMs + ((HighMs - LowMs) * random.NextDouble());
    }

    /// <inheritdoc/>
    public override string ToString()
        => P50Ms is { } p50
            ? $"p50={p50.ToString(Invariant)},p99={P99Ms!.Value.ToString(Invariant)}" : LowMs == HighMs ? LowMs.ToString(Invariant)
                : $"{LowMs.ToString(Invariant)}-{HighMs.ToString(Invariant)}";
}
