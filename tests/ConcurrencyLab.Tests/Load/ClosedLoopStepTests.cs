using ConcurrencyLab.Load;

namespace ConcurrencyLab.Tests.Load;

/// <summary>The closed loop: never more requests in flight than connections, every one sent counted once.</summary>
public sealed class ClosedLoopStepTests
{
    [Fact]
    public async Task NeverMoreInFlightThanConnections_AndEveryRequestCounted()
    {
        var inFlight = 0;
        var most = 0;
        var calls = 0;
        async Task Send(CancellationToken cancellationToken)
        {
            var now = Interlocked.Increment(ref inFlight);
            InterlockedMax(ref most, now);
            Interlocked.Increment(ref calls);
            await Task.Delay(2, cancellationToken);
            Interlocked.Decrement(ref inFlight);
        }

        var result = await ClosedLoopStep.RunAsync(Send, connections: 3, TimeSpan.FromMilliseconds(300), TimeSpan.FromSeconds(5));

        Assert.InRange(most, 1, 3);
        Assert.Equal(calls, result.Sent);
        Assert.Equal(result.Sent, result.Completed);
        Assert.True(result.Completed > 3);
        Assert.Equal(result.CompletedPerSecond, result.OfferedPerSecond);
        Assert.Equal(0, result.Late);
    }

    [Fact]
    public async Task FailuresAreCountedByKind_AndTheLoopGoesOn()
    {
        var calls = 0;
        Task Send(CancellationToken cancellationToken) =>
            Interlocked.Increment(ref calls) % 2 == 0 ? throw new RequestFailedException("HTTP 503") : Task.Delay(1, cancellationToken);

        var result = await ClosedLoopStep.RunAsync(Send, connections: 2, TimeSpan.FromMilliseconds(200), TimeSpan.FromSeconds(5));

        Assert.Equal(result.Sent, result.Completed + result.Failed["HTTP 503"]);
        Assert.True(result.Failed["HTTP 503"] > 0);
    }

    private static void InterlockedMax(ref int target, int value)
    {
        var seen = Volatile.Read(ref target);
        while (value > seen && Interlocked.CompareExchange(ref target, value, seen) is var previous && previous != seen)
        {
            seen = previous;
        }
    }
}
