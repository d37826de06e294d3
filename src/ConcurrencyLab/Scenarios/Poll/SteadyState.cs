namespace ConcurrencyLab.Scenarios.Poll;

/// <summary>
/// When receiving first keeps up with sending: the start of the first window in which at least
/// <see cref="Threshold"/> of the messages sent were processed within an allowed lag of going out. Over
/// such a window the receive rate reaches 95% of the send rate, once the lag any poller has is allowed for.
/// A receiver short of threads falls behind at first and catches up once the pool has grown; this is when.
/// </summary>
/// <remarks>
/// Counting each window's own messages, not the processings that happen to fall in it, keeps a catch-up
/// burst from counting for the windows before it: a backlog cleared at 3 s makes every earlier message
/// late, so the first steady window starts just before 3 s, where the article's eye would put it.
/// </remarks>
internal static class SteadyState
{
    /// <summary>The share of a window's messages that must be processed in time.</summary>
    public const double Threshold = 0.95;

    /// <summary>
    /// How late a message may start processing and still count as kept up with: a poller finds it within
    /// one interval, it may wait for the message before it on the same connection (one work time), and one
    /// more interval of slack.
    /// </summary>
    public static double AllowedLagMs(double intervalMs, double workMs) => (2 * intervalMs) + workMs;

    /// <summary>
    /// The window: long enough to hold about 200 messages at the schedule's rate so a few late ones cannot
    /// decide it, at least 20 intervals, at most half the sending time, and never under one interval.
    /// </summary>
    public static double WindowMs(double intervalMs, double ratePerSecond, double durationMs)
    {
        var forMessages = ratePerSecond > 0 ? 200_000 / ratePerSecond : durationMs;
        return Math.Max(intervalMs, Math.Min(durationMs / 2, Math.Max(20 * intervalMs, forMessages)));
    }

    /// <summary>
    /// The first window start, in ms from the start of sending and in steps of <paramref name="stepMs"/>,
    /// whose messages were processed in time; -1 when no window's were.
    /// </summary>
    /// <param name="sentMs">When each message went out; ascending.</param>
    /// <param name="latencyMs">For each message, from going out to the start of its processing; infinite when it was never processed.</param>
    /// <param name="windowMs">The window's length (<see cref="WindowMs"/>).</param>
    /// <param name="stepMs">How far apart the windows tried start.</param>
    /// <param name="endMs">The end of sending; windows lie within [0, end].</param>
    /// <param name="allowedLagMs">The latency up to which a message counts as processed in time (<see cref="AllowedLagMs"/>).</param>
    public static double FirstReachedMs(IReadOnlyList<double> sentMs, IReadOnlyList<double> latencyMs, double windowMs, double stepMs, double endMs, double allowedLagMs)
    {
        ArgumentNullException.ThrowIfNull(sentMs);
        ArgumentNullException.ThrowIfNull(latencyMs);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(stepMs);
        if (sentMs.Count != latencyMs.Count)
        {
            throw new ArgumentException("One latency per message sent is needed.", nameof(latencyMs));
        }

        if (sentMs.Count == 0)
        {
            return -1;
        }

        // inTime[i]: how many of the first i messages were processed in time.
        var inTime = new int[sentMs.Count + 1];
        for (var i = 0; i < sentMs.Count; i++)
        {
            inTime[i + 1] = inTime[i] + (latencyMs[i] <= allowedLagMs ? 1 : 0);
        }

        var window = Math.Min(windowMs, endMs);
        for (var from = 0.0; from + window <= endMs + 1e-9; from += stepMs)
        {
            var first = LowerBound(sentMs, from);
            var last = LowerBound(sentMs, from + window);
            if (last > first && inTime[last] - inTime[first] >= Threshold * (last - first))
            {
                return from;
            }
        }

        return -1;
    }

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
