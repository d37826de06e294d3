namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>The driver starts one Task.Run per connection per interval.</summary>
internal sealed class TaskReceiver : PollingReceiver
{
    public override string Id => "task";

    public override string Description => "a driver thread starts a Task.Run poll per connection every interval; processing blocks";

    protected override void Round(PollSession session)
    {
        foreach (var connection in session.Connections)
        {
            session.Dispatched();
            _ = Task.Run(() =>
            {
                try
                {
                    session.PollOnce(connection);
                }
                finally
                {
                    session.Finished();
                }
            });
        }
    }
}
