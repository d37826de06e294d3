namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>The driver starts one async poll method per connection per interval, without waiting for it.</summary>
internal sealed class AwaitReceiver : PollingReceiver
{
    public override string Id => "await";

    public override string Description
        => "a driver thread starts an async poll per connection every interval (it yields to the pool, then awaits processing)";

    protected override void Round(PollSession session)
    {
        foreach (var connection in session.Connections)
        {
            session.Dispatched();
            _ = PollAsync(session, connection);
        }
    }

    private static async Task PollAsync(PollSession session, PollConnection connection)
    {
        try
        {
            // As the published version did, each poll moves off the driver onto the pool before it reads.
            await Task.Yield();
            await session.PollOnceAsync(connection).ConfigureAwait(false);
        }
        finally
        {
            session.Finished();
        }
    }
}
