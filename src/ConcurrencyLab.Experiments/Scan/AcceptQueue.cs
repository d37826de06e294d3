using System.Runtime.InteropServices;
using System.Net.Sockets;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>What the kernel says of a listening socket's accept queue.</summary>
internal static class AcceptQueue
{
    // From linux/tcp.h: getsockopt(IPPROTO_TCP, TCP_INFO) fills struct tcp_info. For a listener the kernel puts
    // the accept queue's length in tcpi_unacked and its limit (the listen backlog) in tcpi_sacked (tcp_get_info).
    private const int TcpInfo = 11;
    private const byte ListenState = 10;
    private const int StateOffset = 0;
    private const int UnackedOffset = 24;
    private const int SackedOffset = 28;
    private const int Size = 32;

    /// <summary>
    /// Whether <paramref name="listener"/>'s accept queue is full, the condition on which Linux drops a SYN
    /// (<c>sk_acceptq_is_full</c>: more connections queued than the backlog allows); null where it cannot be read
    /// (not Linux, not a listener, or the kernel refuses the option).
    /// </summary>
    public static bool? IsFull(Socket listener)
    {
        ArgumentNullException.ThrowIfNull(listener);
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        Span<byte> info = stackalloc byte[Size];
        int length;
        try
        {
            length = listener.GetRawSocketOption((int)SocketOptionLevel.Tcp, TcpInfo, info);
        }
        catch (SocketException)
        {
            return null;
        }

        if (length < Size || info[StateOffset] != ListenState)
        {
            return null;
        }

        var queued = MemoryMarshal.Read<uint>(info[UnackedOffset..]);
        var limit = MemoryMarshal.Read<uint>(info[SackedOffset..]);
        return queued > limit;
    }
}
