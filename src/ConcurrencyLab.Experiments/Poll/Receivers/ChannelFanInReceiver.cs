using System.Threading.Channels;

namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>
/// Receiving and processing apart: a pending ReceiveAsync per connection posts each message to one Channel,
/// and a fixed set of workers takes them from it. The workers bound how much processing runs at once.
/// </summary>
internal sealed class ChannelFanInReceiver : Receiver
{
    public override string Id => "channel-fanin";

    public override string Description
        => "a pending ReceiveAsync per connection posts to a Channel; a fixed set of workers (--workers) awaits processing";

    public override Task StartAsync(PollSession session)
    {
        ArgumentNullException.ThrowIfNull(session);
        var channel = Channel.CreateUnbounded<(int Connection, Frame Frame)>(new UnboundedChannelOptions { SingleReader = session.Workers == 1 });
        var receivers = session.Connections
            .Select(c => ReceiveAsyncReceiver.ReceiveLoopAsync(session, c, (connection, frame) =>
            {
                // Unbounded, so a write never waits: a full channel cannot stall a receiver.
                if (!channel.Writer.TryWrite((connection, frame)))
                {
                    throw new InvalidOperationException("The fan-in channel was closed while receivers still ran.");
                }

                return ValueTask.CompletedTask;
            }))
            .ToList();
        var workers = Enumerable.Range(0, session.Workers).Select(_ => WorkAsync(session, channel.Reader)).ToList();
        return Task.WhenAll([.. receivers, .. workers]);
    }

    private static async Task WorkAsync(PollSession session, ChannelReader<(int Connection, Frame Frame)> reader)
    {
        try
        {
            while (await reader.WaitToReadAsync(session.Stopping).ConfigureAwait(false))
            {
                // Checked per item: a stopped worker must not work through a backlog it no longer counts for.
                while (!session.IsStopping && reader.TryRead(out var item))
                {
                    await session.ProcessAsync(item.Connection, item.Frame).ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (session.IsStopping)
        {
            // Stopped: whatever is still queued was counted as delivered or not by the ledger.
        }
        catch (Exception ex)
        {
            session.Fail(ex);
        }
    }
}
