using System.Net.Sockets;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// The real connections of one trial: the <see cref="MessageServer"/> and the client end of each connection,
/// set up before the trial is measured. Disposing closes every socket on both sides and the listener.
/// </summary>
internal sealed class PollFixture : IDisposable
{
    private PollFixture(MessageServer server, IReadOnlyList<PollConnection> connections)
    {
        Server = server;
        Connections = connections;
    }

    public MessageServer Server { get; }

    public IReadOnlyList<PollConnection> Connections { get; }

    /// <summary>Starts the server and opens <paramref name="count"/> connections to it, one at a time so the i-th
    /// accepted socket is the i-th client's peer.</summary>
    public static async Task<PollFixture> StartAsync(int count, CancellationToken cancellationToken)
    {
        var server = MessageServer.Listen(Math.Min(count, 4096));
        var connections = new List<PollConnection>(count);
        try
        {
            for (var i = 0; i < count; i++)
            {
                var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                connections.Add(new PollConnection(i, socket));
                await socket.ConnectAsync(server.EndPoint, cancellationToken).ConfigureAwait(false);
                await server.AcceptAsync(cancellationToken).ConfigureAwait(false);
            }
        }
        catch
        {
            Close(server, connections);
            throw;
        }

        return new PollFixture(server, connections);
    }

    public void Dispose() => Close(Server, Connections);

    private static void Close(MessageServer server, IEnumerable<PollConnection> connections)
    {
        foreach (var connection in connections)
        {
            connection.Dispose();
        }

        server.Dispose();
    }
}
