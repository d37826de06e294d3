namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>The driver queues one ThreadPool work item per connection per interval.</summary>
internal sealed class ThreadPoolReceiver : PollingReceiver
{
    public override string Id => "threadpool";

    public override string Description => "a driver thread queues a ThreadPool work item per connection every interval; processing blocks";

    protected override void Round(PollSession session)
    {
        foreach (var connection in session.Connections)
        {
            session.Dispatched();
            ThreadPool.QueueUserWorkItem(
                static state =>
                {
                    try
                    {
                        state.Session.PollOnce(state.Connection);
                    }
                    finally
                    {
                        state.Session.Finished();
                    }
                },
                (Session: session, Connection: connection),
                preferLocal: false);
        }
    }
}
