namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>Each interval, the driver polls every connection with Parallel.For and waits for the round.</summary>
internal sealed class ParallelReceiver : PollingReceiver
{
    public override string Id => "parallel";

    public override string Description => "a driver thread runs Parallel.For over the connections every interval and waits for it; processing blocks";

    protected override void Round(PollSession session)
    {
        var connections = session.Connections;
        Parallel.For(0, connections.Count, i => session.PollOnce(connections[i]));
    }
}
