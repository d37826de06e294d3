using ConcurrencyLab.Experiments.Poll;

namespace ConcurrencyLab.Tests.Scenarios.Poll;

public sealed class SteadyStateTests
{
    // One message every 10 ms for 10 s: 100 a second.
    private static readonly double[] Sent = [.. Enumerable.Range(0, 1000).Select(i => i * 10.0)];

    private static double? Steady(IEnumerable<double> started) =>
        SteadyState.FirstReachedMs(Sent, [.. started], windowMs: 1000, stepMs: 50, endMs: 10_000, allowedLagMs: 100);

    [Fact]
    public void KeepingUpFromTheStart_IsZero() => Assert.Equal(0, Steady(Sent.Select(s => s + 25)));

    [Fact]
    public void BacklogClearedInABurstAt3s_IsAbout3s()
    {
        // Until 3 s every other message waits for a burst at 3 s that clears the backlog; the rest are on time.
        var started = Sent.Select((sent, i) => sent < 3000 && i % 2 == 1 ? 3000 : sent + 2);

        // Judging starts at 0.3 s (20 messages sent, plus the 0.1 s lag); the burst lands in the window ending at 3.05 s.
        Assert.Equal(2750, Steady(started));
    }

    [Fact]
    public void AStandingQueue_KeepsUpOnceItsRateIsUp_ThoughEveryMessageIsLate()
    {
        // Every message waits 1.5 s, far past the allowed lag, but from 1.5 s on they start as fast as they are sent.
        var steady = Steady(Sent.Select(s => s + 1500));

        Assert.NotNull(steady);
        Assert.InRange(steady.Value, 1500, 2500);
    }

    [Fact]
    public void ProcessingAtHalfTheRate_NeverKeepsUp()
    {
        Assert.Equal(-1, Steady(Sent.Where((_, i) => i % 2 == 0).Select(s => s + 2)));
    }

    [Fact]
    public void TooFewMessagesToJudgeARate_IsNotJudged_RatherThanNever()
    {
        // Ten messages in 10 s, or a lag longer than the run: no window ever holds 20 sends.
        double[] sparse = [.. Enumerable.Range(0, 10).Select(i => i * 1000.0)];
        Assert.Null(SteadyState.FirstReachedMs(sparse, [], windowMs: 5000, stepMs: 50, endMs: 10_000, allowedLagMs: 100));
        Assert.Null(SteadyState.FirstReachedMs(Sent, Sent, windowMs: 1000, stepMs: 50, endMs: 10_000, allowedLagMs: 20_000));
        Assert.Null(SteadyState.FirstReachedMs([], [], windowMs: 1000, stepMs: 50, endMs: 10_000, allowedLagMs: 100));
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
