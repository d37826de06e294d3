using CsCheck;
using ConcurrencyLab.Load;

namespace ConcurrencyLab.Tests.Load;

/// <summary>The open-loop schedule and step: sends at fixed times whatever the replies do, each request timed from its intended time and from its real send.</summary>
public sealed class OpenLoopStepTests
{
    [Fact]
    public void AConstantSchedule_IsEvenlySpaced_AndEndsBeforeTheStepDoes()
    {
        var offsets = ArrivalSchedule.OffsetsMs(100, TimeSpan.FromSeconds(1), Arrivals.Constant, seed: 1);

        Assert.Equal(100, offsets.Length);
        Assert.Equal(Enumerable.Range(0, 100).Select(i => i * 10.0), offsets);
    }

    [Fact]
    public void APoissonSchedule_IsSeeded_Increasing_AndOfItsRate()
    {
        Gen.Int.Sample(seed =>
        {
            var offsets = ArrivalSchedule.OffsetsMs(2000, TimeSpan.FromSeconds(5), Arrivals.Poisson, seed);

            Assert.Equal(offsets, ArrivalSchedule.OffsetsMs(2000, TimeSpan.FromSeconds(5), Arrivals.Poisson, seed));
            Assert.True(offsets.Zip(offsets.Skip(1)).All(p => p.First < p.Second));
            Assert.InRange(offsets[^1], 0, 5000);

            // 10,000 expected; a Poisson count's deviation is its root, 100: five of them either way.
            Assert.InRange(offsets.Length, 9500, 10500);
        }, iter: 20);
    }

    [Theory]
    [InlineData(0, 1000)]
    [InlineData(double.NaN, 1000)]
    [InlineData(-5, 1000)]
    [InlineData(100, 0)]
    [InlineData(1e9, 100_000)]
    public void ARateOrDurationOutOfRange_IsRefused(double rate, int durationMs) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => ArrivalSchedule.OffsetsMs(rate, TimeSpan.FromMilliseconds(durationMs), Arrivals.Constant, 1));

    [Fact]
    public async Task EveryPlannedRequest_IsSentAndCounted_AndItsLatencyFromItsTimeIsNeverBelowItsServiceTime()
    {
        var step = await OpenLoopStep.RunAsync(ct => Task.Delay(2, ct), 200, TimeSpan.FromMilliseconds(500), Arrivals.Constant, 1, TimeSpan.FromSeconds(30));

        Assert.Equal((100, 100, 100, 0, 0), (step.Planned, step.Sent, step.Completed, step.TimedOut, step.Failed.Count));
        Assert.True(step.Latency!.P50Ms >= step.Service!.P50Ms && step.Latency.MaxMs >= step.Service.MaxMs);
    }

    [Fact]
    public async Task ErrorsAreCountedByKind_AndARequestPastItsTimeout_AsTimedOut()
    {
        var count = 0;
        Task Send(CancellationToken ct)
        {
            var n = Interlocked.Increment(ref count);
            return n % 4 == 0 ? Task.FromException(new InvalidOperationException("no"))
                : n % 5 == 0 ? Task.Delay(Timeout.Infinite, ct)
                : Task.CompletedTask;
        }

        var step = await OpenLoopStep.RunAsync(Send, 100, TimeSpan.FromMilliseconds(400), Arrivals.Constant, 1, TimeSpan.FromMilliseconds(100));

        // 40 requests: every 4th fails; every 5th that does not fail first hangs until its timeout.
        var failing = Enumerable.Range(1, 40).Count(n => n % 4 == 0);
        var hanging = Enumerable.Range(1, 40).Count(n => n % 4 != 0 && n % 5 == 0);
        Assert.Equal(40, step.Sent);
        Assert.Equal(failing, step.Failed["InvalidOperationException"]);
        Assert.Equal(hanging, step.TimedOut);
        Assert.Equal(40 - failing - hanging, step.Completed);
    }

    [Fact]
    public async Task SlowReplies_DoNotHoldTheNextSendsBack()
    {
        // Each reply takes 300 ms, and requests go every 10 ms: a closed loop would send 2 in the step's 500 ms.
        var step = await OpenLoopStep.RunAsync(ct => Task.Delay(300, ct), 100, TimeSpan.FromMilliseconds(500), Arrivals.Constant, 1, TimeSpan.FromSeconds(30));

        Assert.Equal(50, step.Sent);
        Assert.Equal(50, step.Completed);
        Assert.True(step.Lag!.P99Ms * 3 < step.Service!.P50Ms, $"sends started up to {step.Lag.P99Ms} ms late (p99) against replies of {step.Service.P50Ms} ms");
    }

    [Fact]
    public async Task ASendStalledByTheSender_IsInTheLatencyFromItsTime_NotInTheServiceTime()
    {
        // The tenth send holds the schedule's thread for 200 ms: the sends due meanwhile go late, all at once.
        // Their replies are quick; what their users waited is the stall. A closed-loop tool would not see it.
        var count = 0;
        Task Send(CancellationToken ct)
        {
            if (Interlocked.Increment(ref count) == 10)
            {
                Thread.Sleep(200);
            }

            return Task.Delay(1, ct);
        }

        var step = await OpenLoopStep.RunAsync(Send, 100, TimeSpan.FromMilliseconds(400), Arrivals.Constant, 1, TimeSpan.FromSeconds(30));

        Assert.Equal(40, step.Completed);
        Assert.InRange(step.Late, 10, 40);
        // About half the sends went late, by 10 to 190 ms: the 90th percentile is among them.
        Assert.True(step.Latency!.P90Ms > 3 * step.Service!.P90Ms, $"latency from the intended time p90 {step.Latency.P90Ms} ms, service time p90 {step.Service.P90Ms} ms");
    }
}
