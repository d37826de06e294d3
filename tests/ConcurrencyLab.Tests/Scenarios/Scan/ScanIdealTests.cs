using System.Diagnostics;
using ConcurrencyLab.Experiments.Scan;

namespace ConcurrencyLab.Tests.Scenarios.Scan;

public sealed class ScanIdealTests
{
    [Fact]
    public void TheIdeal_IsOneTimeoutLessAStepOfTheTimersClock_AndSaysSo()
    {
        var scan = new ScanScenario();
        var step = TimerClock.StepMs;

        var ideal = scan.Ideal(ScenarioParameters.Of(scan, ("timeout-ms", "500")), seed: 42);

        Assert.InRange(step, 1, 100);
        Assert.Equal(500 - step, ideal.Ms);
        Assert.Contains($"less a step of the clock the runtime's timers keep ({step} ms", ideal.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void ATimeoutNoLongerThanAStep_GivesNoBound_RatherThanANegativeOne()
    {
        var scan = new ScanScenario();

        var ideal = scan.Ideal(ScenarioParameters.Of(scan, ("timeout-ms", "1")), seed: 42);

        Assert.Equal(0, ideal.Ms);
        Assert.Contains("no useful bound", ideal.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new long[] { 4, 4, 8, 4 }, 4)] // a late read saw two steps at once
    [InlineData(new long[] { 3, 4, 3, 3 }, 4)] // a step of 3.33 ms, read in whole milliseconds
    [InlineData(new long[] { 1, 1, 2 }, 1)]
    [InlineData(new long[] { 16, 15, 16 }, 16)] // 15.6 ms
    [InlineData(new long[0], 1)]
    public void TheStep_IsNeverBelowWhatTheJumpsShow(long[] jumps, long step) => Assert.Equal(step, TimerClock.Step(jumps));

    // What the bound rests on: a timeout set with CancelAfter never ends a whole step early. Forty timeouts of 20 ms,
    // set at moments spread across the clock's steps; each is timed from its setting to its callback by Stopwatch.
    [Fact]
    public async Task ATimeoutSetWithCancelAfter_NeverEndsAStepEarly()
    {
        const int TimeoutMs = 20;
        var step = TimerClock.StepMs;
        var elapsed = new List<double>();
        for (var round = 0; round < 8; round++)
        {
            var waits = Enumerable.Range(0, 5).Select(async i =>
            {
                await Task.Delay(i).ConfigureAwait(false);
                using var timeout = new CancellationTokenSource();
                var fired = new TaskCompletionSource<double>(TaskCreationOptions.RunContinuationsAsynchronously);
                var start = Stopwatch.GetTimestamp();
                using var registration = timeout.Token.Register(() => fired.TrySetResult(Stopwatch.GetElapsedTime(start).TotalMilliseconds));
                timeout.CancelAfter(TimeoutMs);
                return await fired.Task.ConfigureAwait(false);
            });
            elapsed.AddRange(await Task.WhenAll(waits));
        }

        Assert.Equal(40, elapsed.Count);
        Assert.All(elapsed, ms => Assert.True(ms > TimeoutMs - step, $"a {TimeoutMs} ms timeout ended after {ms:F2} ms, more than a step ({step} ms) early"));
    }
}
