namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>
/// No polling: one pending ReceiveAsync per connection. The runtime's socket engine waits on all of them at
/// once and wakes only the connections that have data.
/// </summary>
internal sealed class ReceiveAsyncReceiver : Receiver
{
    public override string Id => "receive-async";

    public override string Description => "one pending ReceiveAsync per connection, no polling; processing is awaited";

    public override Task StartAsync(PollSession session)
    {
        ArgumentNullException.ThrowIfNull(session);
        return Task.WhenAll(
            session.Connections.Select(c => ReceiveLoopAsync(session, c, (connection, frame) => session.ProcessAsync(connection, frame))));
    }

    /// <summary>
    /// Receives from <paramref name="connection"/> until the session stops or the peer closes, handing every
    /// frame to <paramref name="deliver"/> in order.
    /// </summary>
    internal static async Task ReceiveLoopAsync(PollSession session, PollConnection connection, Func<int, Frame, ValueTask> deliver)
    {
        try
        {
            while (!session.IsStopping)
            {
                if (await connection.ReceiveAsync(session.Stopping).ConfigureAwait(false) == 0)
                {
                    break;
                }

                foreach (var frame in connection.Frames)
                {
                    if (session.IsStopping)
                    {
                        break;
                    }

                    await deliver(connection.Index, frame).ConfigureAwait(false);
                }

                connection.Frames.Clear();
            }
        }
        catch (OperationCanceledException) when (session.IsStopping)
        {
            // The pending receive was cancelled by the stop: the normal end.
        }
        catch (Exception ex)
        {
            session.Fail(ex);
        }
    }
}
