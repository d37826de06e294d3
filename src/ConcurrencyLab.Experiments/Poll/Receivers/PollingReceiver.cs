using System.Diagnostics;

namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>
/// The published polling shape: one driver thread wakes every interval and hands each connection to a poll.
/// Subclasses say how a poll is handed over (a pool work item, a task, an async method, Parallel.For).
/// </summary>
internal abstract class PollingReceiver : Receiver
{
    public sealed override Task StartAsync(PollSession session)
    {
        ArgumentNullException.ThrowIfNull(session);
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var driver = new Thread(() => Drive(session, done)) { IsBackground = true, Name = "conclab poll driver" };
        driver.Start();
        return done.Task;
    }

    /// <summary>Hands every connection to a poll; runs on the driver thread once per interval.</summary>
    protected abstract void Round(PollSession session);

    private void Drive(PollSession session, TaskCompletionSource done)
    {
        try
        {
            var origin = Stopwatch.GetTimestamp();
            var ticksPerInterval = session.IntervalMs * Stopwatch.Frequency / 1000;
            var round = 0L;
            while (!session.IsStopping)
            {
                Round(session);

                // Rounds keep to the interval's grid; a round that overran skips the ticks it missed rather
                // than firing them back to back.
                var now = Stopwatch.GetTimestamp();
                round = Math.Max(round + 1, (now - origin) / ticksPerInterval + 1);
                var waitMs = (int)Math.Ceiling((origin + (round * ticksPerInterval) - now) * 1000.0 / Stopwatch.Frequency);
                if (waitMs > 0 && session.Stopping.WaitHandle.WaitOne(waitMs))
                {
                    break;
                }
            }

            // The polls dispatched return at once now that the session is stopped, bar one message each
            // was processing; the scenario gives up on the receiver after the same limit.
            var drained = Stopwatch.StartNew();
            var limit = PollScenario.StopLimit(session.WorkMs);
            while (session.InFlight > 0 && drained.Elapsed < limit)
            {
                Thread.Sleep(1);
            }

            done.TrySetResult();
        }
        catch (Exception ex)
        {
            session.Fail(ex);
            done.TrySetException(ex);
        }
    }
}
