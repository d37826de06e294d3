using ConcurrencyLab.Scenarios.Poll;

namespace ConcurrencyLab.Tests.Scenarios.Poll;

public sealed class SteadyStateTests
{
    // One message every 10 ms for 10 s: 100 a second.
    private static readonly double[] Sent = [.. Enumerable.Range(0, 1000).Select(i => i * 10.0)];

    [Fact]
    public void KeepingUpFromTheStart_IsSteadyAtZero()
    {
        var lag = Sent.Select(_ => 2.0).ToList();

        Assert.Equal(0, SteadyState.FirstReachedMs(Sent, lag, windowMs: 1000, stepMs: 50, endMs: 10_000, allowedLagMs: 100));
    }

    [Fact]
    public void BacklogClearedAt3s_IsSteadyJustBefore3s_NotWhenTheBurstFallsInAWindow()
    {
        // Until 3 s every other message waits for a burst at 3 s that clears the backlog; after, all are on time.
        var lag = Sent.Select((sent, i) => sent < 3000 && i % 2 == 1 ? 3000 - sent : 2.0).ToList();

        var steady = SteadyState.FirstReachedMs(Sent, lag, windowMs: 1000, stepMs: 50, endMs: 10_000, allowedLagMs: 100);

        // A window is steady once at most 5% of its messages (one in two before 2.9 s) are late: from 2.8 s on.
        Assert.InRange(steady, 2800, 2900);
    }

    [Fact]
    public void NeverKeepingUp_IsMinusOne()
    {
        var lag = Sent.Select((_, i) => i % 2 == 0 ? 2.0 : double.PositiveInfinity).ToList();

        Assert.Equal(-1, SteadyState.FirstReachedMs(Sent, lag, windowMs: 1000, stepMs: 50, endMs: 10_000, allowedLagMs: 100));
        Assert.Equal(-1, SteadyState.FirstReachedMs([], [], windowMs: 1000, stepMs: 50, endMs: 10_000, allowedLagMs: 100));
    }

    [Fact]
    public void AllowedLag_IsTwoIntervalsAndTheWork() => Assert.Equal(600, SteadyState.AllowedLagMs(50, 500));

    [Theory]
    [InlineData(50, 100, 10_000, 2000)] // the default: 200 messages at 100/s take 2 s
    [InlineData(50, 10_000, 10_000, 1000)] // a fast schedule: at least 20 intervals
    [InlineData(50, 100, 1000, 500)] // a short run: at most half of it
    [InlineData(50, 100, 60, 50)] // shorter than 20 intervals: never below one interval
    public void WindowMs_HoldsAbout200Messages_Within20IntervalsAndHalfTheRun(double interval, double rate, double duration, double expected) =>
        Assert.Equal(expected, SteadyState.WindowMs(interval, rate, duration));
}
