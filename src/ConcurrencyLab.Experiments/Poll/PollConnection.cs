using System.Net.Sockets;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// The receiving end of one connection: its socket, the frames read from it and not yet processed, and a
/// flag that lets one receiver at a time read it. Two polls reading one socket at once could each take half
/// of a frame; the flag makes a second poll leave the connection to the first.
/// </summary>
internal sealed class PollConnection : IDisposable
{
    private readonly byte[] _buffer = new byte[64 * Frame.Size];
    private readonly FrameReader _reader = new();
    private int _busy;

    public PollConnection(int index, Socket socket)
    {
        Index = index;
        Socket = socket;
    }

    public int Index { get; }

    public Socket Socket { get; }

    /// <summary>Frames read and not yet processed; touched only by the receiver that holds the connection.</summary>
    public List<Frame> Frames { get; } = [];

    /// <summary>Takes the connection for one poll; false when another poll holds it.</summary>
    public bool TryEnter() => Interlocked.CompareExchange(ref _busy, 1, 0) == 0;

    public void Exit() => Volatile.Write(ref _busy, 0);

    /// <summary>
    /// One poll: reads whatever has arrived without waiting (the socket says how much) and cuts it into
    /// <see cref="Frames"/>. Returns the bytes read; 0 when nothing had arrived.
    /// </summary>
    public int ReadAvailable()
    {
        var total = 0;
        int available;
        while ((available = Socket.Available) > 0)
        {
            // Blocking socket, but the bytes are already there, so the receive returns at once.
            var read = Socket.Receive(_buffer.AsSpan(0, Math.Min(available, _buffer.Length)), SocketFlags.None);
            if (read == 0)
            {
                break;
            }

            _reader.Append(_buffer.AsSpan(0, read), Frames);
            total += read;
        }

        return total;
    }

    /// <summary>Waits for data and cuts it into <see cref="Frames"/>; returns 0 when the peer closed the connection.</summary>
    public async ValueTask<int> ReceiveAsync(CancellationToken cancellationToken)
    {
        var read = await Socket.ReceiveAsync(_buffer.AsMemory(), SocketFlags.None, cancellationToken).ConfigureAwait(false);
        _reader.Append(_buffer.AsSpan(0, read), Frames);
        return read;
    }

    public void Dispose() => Socket.Dispose();
}
