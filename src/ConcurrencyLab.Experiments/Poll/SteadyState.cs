namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// How long receiving takes to keep up with sending: when the receive rate (processing starts per window)
/// first reaches <see cref="Threshold"/> of the send rate. A receiver short of threads falls behind at
/// first and keeps up once the pool has grown; this is when.
/// </summary>
/// <remarks>
/// Windows end at every step. A window's processing starts are compared with the messages sent in the same
/// length of time one allowed lag earlier, since even a receiver that keeps up starts a message some time
/// after it went out (a poller up to one interval, plus the work of a message ahead on its connection). The
/// first windows grow from 0, and judging starts once the compared sends hold
/// <see cref="MinimumMessages"/>; the result counts from that first judgeable moment, so a receiver that
/// keeps up from the start reads 0. A backlog cleared in a burst at 3 s reads about 3 s: the rate reaches
/// the send rate in the first window that holds the burst, and not before.
/// </remarks>
internal static class SteadyState
{
    /// <summary>The share of the send rate the receive rate must reach.</summary>
    public const double Threshold = 0.95;

    /// <summary>Fewer sends than this in a window say too little about a rate.</summary>
    public const int MinimumMessages = 20;

    /// <summary>
    /// The lag a receiver that keeps up may still have: a poller finds a message within one interval, it
    /// may wait for the message before it on the same connection (one work time), and one more interval.
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
    /// Ms from the first judgeable moment to the end of the first window whose receive rate reached the
    /// threshold, trying window ends every <paramref name="stepMs"/> up to the end of sending; -1 when none
    /// did; null when no window held enough messages to judge.
    /// </summary>
    /// <param name="sentMs">When each message went out, ms from the start of sending; ascending.</param>
    /// <param name="startedMs">When processing of each processed message began, in any order.</param>
    /// <param name="windowMs">The window's length (<see cref="WindowMs"/>).</param>
    /// <param name="stepMs">How far apart the window ends tried are.</param>
    /// <param name="endMs">The end of sending.</param>
    /// <param name="allowedLagMs">How much later than the sends its starts are counted (<see cref="AllowedLagMs"/>).</param>
    public static double? FirstReachedMs(
        IReadOnlyList<double> sentMs,
        IReadOnlyList<double> startedMs,
        double windowMs,
        double stepMs,
        double endMs,
        double allowedLagMs)
    {
        ArgumentNullException.ThrowIfNull(sentMs);
        ArgumentNullException.ThrowIfNull(startedMs);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(stepMs);
        var started = startedMs.Order().ToArray();
        var minimum = Math.Min(MinimumMessages, sentMs.Count);
        double? firstJudged = null;
        for (var end = stepMs; sentMs.Count > 0 && end <= endMs + 1e-9; end += stepMs)
        {
            var sent = CountIn(sentMs, end - windowMs - allowedLagMs, end - allowedLagMs);
            if (sent == 0 || sent < minimum)
            {
                continue;
            }

            firstJudged ??= end;
            if (CountIn(started, end - windowMs, end) >= Threshold * sent)
            {
                return end - firstJudged.Value;
            }
        }

        return firstJudged is null ? null : -1;
    }

    private static int CountIn(IReadOnlyList<double> ascending, double from, double to)
        => LowerBound(ascending, to) - LowerBound(ascending, Math.Max(0, from));

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
