namespace ConcurrencyLab.Scenarios.Poll;

/// <summary>
/// When receiving first keeps up with sending: the start of the first window in which the receivers began
/// processing at least <see cref="Threshold"/> of the messages the server sent in that same window. A
/// receiver short of threads falls behind at first and catches up once the pool has grown; this is when.
/// </summary>
internal static class SteadyState
{
    /// <summary>The share of the send rate the receive rate must reach.</summary>
    public const double Threshold = 0.95;

    /// <summary>
    /// The window: long enough to hold about 200 messages at the schedule's rate so one late message cannot
    /// decide it, at least 20 intervals, and at most half the sending time.
    /// </summary>
    public static double WindowMs(double intervalMs, double ratePerSecond, double durationMs)
    {
        var forMessages = ratePerSecond > 0 ? 200_000 / ratePerSecond : durationMs;
        return Math.Max(intervalMs, Math.Min(durationMs / 2, Math.Max(20 * intervalMs, forMessages)));
    }

    /// <summary>
    /// The first window start, in ms from the start of sending and in steps of <paramref name="stepMs"/>,
    /// whose processing starts reach the threshold; -1 when no window does.
    /// </summary>
    /// <param name="sentMs">When each message went out; ascending.</param>
    /// <param name="startedMs">When processing of each processed message began, in any order.</param>
    /// <param name="windowMs">The window's length (<see cref="WindowMs"/>).</param>
    /// <param name="stepMs">How far apart the windows tried start.</param>
    /// <param name="endMs">The end of sending; windows lie within [0, end].</param>
    public static double FirstReachedMs(IReadOnlyList<double> sentMs, IReadOnlyList<double> startedMs, double windowMs, double stepMs, double endMs)
    {
        ArgumentNullException.ThrowIfNull(sentMs);
        ArgumentNullException.ThrowIfNull(startedMs);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(stepMs);
        if (sentMs.Count == 0)
        {
            return -1;
        }

        var started = startedMs.Order().ToArray();
        var window = Math.Min(windowMs, endMs);
        for (var from = 0.0; from + window <= endMs + 1e-9; from += stepMs)
        {
            var sent = CountIn(sentMs, from, from + window);
            if (sent > 0 && CountIn(started, from, from + window) >= Threshold * sent)
            {
                return from;
            }
        }

        return -1;
    }

    private static int CountIn(IReadOnlyList<double> ascending, double from, double to) => LowerBound(ascending, to) - LowerBound(ascending, from);

    private static int LowerBound(IReadOnlyList<double> ascending, double value)
    {
        int low = 0, high = ascending.Count;
        while (low < high)
        {
            var mid = (low + high) >>> 1;
            if (ascending[mid] < value)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }

        return low;
    }
}
