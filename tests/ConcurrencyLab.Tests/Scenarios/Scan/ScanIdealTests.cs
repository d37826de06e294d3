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
    [InlineData(4_000_000L, 4L)] // 250 Hz
    [InlineData(1_000_000L, 1L)] // 1000 Hz
    [InlineData(3_333_333L, 4L)] // 300 Hz: rounded up, never below the true step
    [InlineData(0L, 16L)] // the kernel said nothing useful: the coarsest known clock, so the bound stays one
    [InlineData(null, 16L)]
    public void TheStep_IsTheResolutionRoundedUp_Or16WhenUnknown(long? nanoseconds, long step) => Assert.Equal(step, TimerClock.FromResolution(nanoseconds));

    [SkippableFact]
    public void OnLinux_TheStepIsTheKernelsResolutionOfTheCoarseClock()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "the coarse clock's resolution is asked of Linux only");

        // Watched the other way: the clock's smallest jump is its step (a read that comes late only makes a jump larger),
        // within the millisecond the rounding allows. On busy cores this thread may run in slices shorter than a step
        // and see only late jumps for a while, so it watches until it sees a clean one, for at most 2 s.
        var step = TimerClock.StepMs;
        var last = Environment.TickCount64;
        var smallest = long.MaxValue;
        var deadline = Environment.TickCount64 + 2_000;
        for (var seen = 0; (seen < 3 || smallest > step + 1) && Environment.TickCount64 < deadline;)
        {
            var now = Environment.TickCount64;
            if (now != last)
            {
                smallest = Math.Min(smallest, now - last);
                last = now;
                seen++;
            }
        }

        Assert.InRange(step, 1, 16);
        Assert.True(Math.Abs(smallest - step) <= 1, $"the clock jumped {smallest} ms at its least, against a step read as {step} ms");
    }

    // What the bound rests on: a timeout set with CancelAfter counts from the coarse clock's reading when it was set,
    // and fires once that clock has moved on by the timeout. So it ends early by as much as that clock lagged the true
    // time when it was set, less its lag when it fired: never by more. Forty timeouts of 20 ms, set at moments spread
    // across the clock's steps, each timed by Stopwatch, with the coarse clock's lag read at both ends.
    [Fact]
    public async Task ATimeoutSetWithCancelAfter_EndsEarlyByNoMoreThanTheCoarseClocksLagWhenSet()
    {
        const int TimeoutMs = 20;
        var perMs = Stopwatch.Frequency / 1000.0;
        var ends = new List<(double Elapsed, double LagSet, double LagFired)>();
        for (var round = 0; round < 8; round++)
        {
            var waits = Enumerable.Range(0, 5).Select(async i =>
            {
                await Task.Delay(i).ConfigureAwait(false);
                using var timeout = new CancellationTokenSource();
                var fired = new TaskCompletionSource<(long At, long Ticks)>(TaskCreationOptions.RunContinuationsAsynchronously);
                using var registration = timeout.Token.Register(() => fired.TrySetResult((Stopwatch.GetTimestamp(), Environment.TickCount64)));
                var ticksSet = Environment.TickCount64;
                var start = Stopwatch.GetTimestamp();
                timeout.CancelAfter(TimeoutMs);
                var (at, ticksFired) = await fired.Task.ConfigureAwait(false);
                return ((at - start) / perMs, (start / perMs) - ticksSet, (at / perMs) - ticksFired);
            });
            ends.AddRange(await Task.WhenAll(waits));
        }

        Assert.Equal(40, ends.Count);
        Assert.All(ends, e => Assert.True(
            e.Elapsed > TimeoutMs - Math.Max(0, e.LagSet - e.LagFired) - 1,
            $"a {TimeoutMs} ms timeout ended after {e.Elapsed:F2} ms, though the coarse clock lagged by {e.LagSet:F2} ms when it was set and {e.LagFired:F2} ms when it fired"));
    }
}
