using System.Net;
using System.Net.Sockets;
using System.Text;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>A listener that answers each connection's first read with a fixed text, counting connections.</summary>
internal sealed class CountingListener : IAsyncDisposable
{
    private readonly TcpListener _listener;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _serving;
    private int _connections;

    private CountingListener(IPAddress address, Func<int, string> answer)
    {
        _listener = new TcpListener(address, 0);
        _listener.Start();
        _serving = ServeAsync(answer);
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public int Connections => Volatile.Read(ref _connections);

    public static CountingListener Start(IPAddress address, Func<int, string> answer) => new(address, answer);

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        try
        {
            await _serving;
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }

        _stop.Dispose();
    }

    private async Task ServeAsync(Func<int, string> answer)
    {
        while (!_stop.IsCancellationRequested)
        {
            var socket = await _listener.AcceptSocketAsync(_stop.Token);
            var n = Interlocked.Increment(ref _connections);
            _ = AnswerAsync(socket, answer(n));
        }
    }

    private async Task AnswerAsync(Socket socket, string text)
    {
        using (socket)
        {
            try
            {
                var buffer = new byte[8192];
                await socket.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
                if (text.Length > 0)
                {
                    await socket.SendAsync(Encoding.ASCII.GetBytes(text), SocketFlags.None, _stop.Token);
                }
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException)
            {
            }
        }
    }
}
