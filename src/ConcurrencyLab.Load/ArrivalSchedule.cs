namespace ConcurrencyLab.Load;

/// <summary>How the requests of an open-loop step arrive.</summary>
internal enum Arrivals
{
    /// <summary>Evenly spaced: one every 1/rate seconds.</summary>
    Constant,

    /// <summary>A Poisson process of the rate: exponential gaps, seeded, as independent users arrive.</summary>
    Poisson,
}

/// <summary>
/// When each request of an open-loop step is meant to be sent, in milliseconds from the step's start: fixed before
/// the step begins, whatever the service then does, so a slow reply never delays the next request (open loop).
/// </summary>
internal static class ArrivalSchedule
{
    /// <summary>The most requests one step may plan.</summary>
    public const int MostRequests = 10_000_000;

    /// <summary>
    /// The intended send times of a step of <paramref name="duration"/> at <paramref name="ratePerSecond"/>,
    /// increasing, each below the duration; the same <paramref name="seed"/> gives the same times.
    /// </summary>
    public static double[] OffsetsMs(double ratePerSecond, TimeSpan duration, Arrivals arrivals, int seed)
    {
        if (!double.IsFinite(ratePerSecond) || ratePerSecond <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(ratePerSecond), ratePerSecond, "A rate must be a finite number above 0.");
        }

        var lengthMs = duration.TotalMilliseconds;
        if (lengthMs <= 0 || ratePerSecond * duration.TotalSeconds > MostRequests)
        {
            throw new ArgumentOutOfRangeException(
                nameof(duration), duration, $"A step must last more than 0 and plan at most {MostRequests} requests.");
        }

        var gapMs = 1000 / ratePerSecond;
        if (arrivals == Arrivals.Constant)
        {
            var count = (int)Math.Ceiling(lengthMs / gapMs);
            return [.. Enumerable.Range(0, count).Select(i => i * gapMs).Where(t => t < lengthMs)];
        }

        // Exponential gaps of mean 1/rate, from the inverse of the distribution at a seeded uniform draw.
        var random = new Random(seed);
        var times = new List<double>((int)Math.Min(MostRequests, (ratePerSecond * duration.TotalSeconds * 1.1) + 16));
        for (var t = -gapMs * Math.Log(1 - random.NextDouble()); t < lengthMs; t += -gapMs * Math.Log(1 - random.NextDouble()))
        {
            times.Add(t);
        }

        return [.. times];
    }
}
