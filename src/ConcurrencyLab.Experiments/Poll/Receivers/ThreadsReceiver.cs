namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>A dedicated thread per connection, polling it and then sleeping an interval, as the published server did.</summary>
internal sealed class ThreadsReceiver : Receiver
{
    public override string Id => "threads";

    public override string Description => "a dedicated thread per connection: poll, then sleep one interval; processing blocks";

    public override Task StartAsync(PollSession session)
    {
        ArgumentNullException.ThrowIfNull(session);
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var running = session.Connections.Count;
        if (running == 0)
        {
            done.TrySetResult();
        }

        var made = 0;
        foreach (var connection in session.Connections)
        {
            var thread = new Thread(() =>
            {
                try
                {
                    // Waiting on the stop token rather than Thread.Sleep lets a stop end the sleep at once.
                    do
                    {
                        session.PollOnce(connection);
                    }
                    while (!session.Stopping.WaitHandle.WaitOne(session.IntervalMs));
                }
                finally
                {
                    if (Interlocked.Decrement(ref running) == 0)
                    {
                        done.TrySetResult();
                    }
                }
            })
            {
                IsBackground = true,
                Name = "conclab poll connection",
            };
            try
            {
                thread.Start();
                made++;
            }
            catch (OutOfMemoryException ex)
            {
                // The OS refused a thread: record it, and count this one and those never created as ended.
                session.Fail(ex);
                var notStarted = session.Connections.Count - made;
                if (Interlocked.Add(ref running, -notStarted) == 0)
                {
                    done.TrySetResult();
                }

                break;
            }
        }

        return done.Task;
    }
}
