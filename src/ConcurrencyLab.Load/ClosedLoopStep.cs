using ConcurrencyLab.Results;
using System.Diagnostics;

namespace ConcurrencyLab.Load;

/// <summary>
/// One step of closed-loop load, as wrk makes it: a fixed number of connections, each sending its next request as
/// soon as its last was answered, for a stated time. It measures the most a service answers at that concurrency, not
/// a rate a user offers: a slow reply holds the next request back, so its latency has no correction to make (each
/// request is sent when it is meant to be). The lab's check against a tool nobody here wrote (docs/load.md).
/// </summary>
internal static class ClosedLoopStep
{
    /// <summary>
    /// Runs <paramref name="connections"/> loops of <paramref name="send"/> for <paramref name="duration"/>, each
    /// request given <paramref name="timeout"/>; the result's offered rate is the rate the loops achieved.
    /// </summary>
    public static async Task<LoadStep> RunAsync(
        Func<CancellationToken, Task> send,
        int connections,
        TimeSpan duration,
        TimeSpan timeout,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(send);
        ArgumentOutOfRangeException.ThrowIfLessThan(connections, 1);
        var recording = new OpenLoopStep.Recording();
        var start = Stopwatch.GetTimestamp();
        var end = start + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        var sent = 0;

        async Task Loop()
        {
            // Each loop starts on the pool, so none waits for another's first reply.
            await Task.Yield();
            while (Stopwatch.GetTimestamp() < end && !cancellationToken.IsCancellationRequested)
            {
                Interlocked.Increment(ref sent);
                await OpenLoopStep.One(send, intendedAt: null, timeout, recording, cancellationToken).ConfigureAwait(false);
            }
        }

        await Task.WhenAll(Enumerable.Range(0, connections).Select(_ => Loop())).ConfigureAwait(false);
        cancellationToken.ThrowIfCancellationRequested();
        var seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        var result = recording.Result(0, sent, sent, seconds, seconds);
        return result with { OfferedPerSecond = result.CompletedPerSecond };
    }
}
