using System.Diagnostics;

namespace ConcurrencyLab.Scenarios.Poll.Receivers;

/// <summary>
/// The published polling shape: one driver thread wakes every interval and hands each connection to a poll.
/// Subclasses say how a poll is handed over (a pool work item, a task, an async method, Parallel.For).
/// </summary>
internal abstract class PollingReceiver : Receiver
{
    // How long a stopped driver waits for the polls it dispatched to finish before giving up on them.
    private static readonly TimeSpan DrainLimit = TimeSpan.FromSeconds(30);

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

            var drained = Stopwatch.StartNew();
            while (session.InFlight > 0 && drained.Elapsed < DrainLimit)
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
