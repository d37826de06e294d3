using System.Buffers.Binary;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// One message on the wire: its number, the connection it was sent on and the sender's Stopwatch timestamp,
/// in a fixed 16 bytes so a receiver can cut the stream into messages however TCP splits it.
/// </summary>
internal readonly record struct Frame(int Id, int Connection, long SentTimestamp)
{
    public const int Size = 16;

    public void Write(Span<byte> destination)
    {
        BinaryPrimitives.WriteInt32LittleEndian(destination, Id);
        BinaryPrimitives.WriteInt32LittleEndian(destination[4..], Connection);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], SentTimestamp);
    }

    public static Frame Read(ReadOnlySpan<byte> source) => new(
        BinaryPrimitives.ReadInt32LittleEndian(source),
        BinaryPrimitives.ReadInt32LittleEndian(source[4..]),
        BinaryPrimitives.ReadInt64LittleEndian(source[8..]));
}
