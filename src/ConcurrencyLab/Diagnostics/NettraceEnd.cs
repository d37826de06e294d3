using System.Buffers.Binary;

namespace ConcurrencyLab.Diagnostics;

/// <summary>
/// Mends a recorded event stream (nettrace, format 4 and 5) that its process cut off: one that exited or was killed
/// while a session was open (a test host its runner killed) ends after its last object without the stream's end
/// mark, or inside an object, and the trace reader refuses the whole file. Cut back to its last whole object and
/// given the end mark, every sample that arrived whole is read.
/// </summary>
internal static class NettraceEnd
{
    private const byte NullReference = 1;
    private const byte BeginPrivateObject = 5;
    private const byte EndObject = 6;

    // "Nettrace", then the serializer's name with its length.
    private const int HeaderLength = 8 + 4 + 20;

    // The trace object's payload in formats 4 and 5: the start's SYSTEMTIME, its QPC, the QPC's frequency, the pointer
    // size, the process id, its processors and the sampling rate.
    private const int TracePayload = 16 + 8 + 8 + 4 + 4 + 4 + 4;

    /// <summary>What <see cref="Mend"/> found.</summary>
    public enum Outcome
    {
        /// <summary>The stream ended whole, with its end mark: its session ended while its process ran.</summary>
        Whole,

        /// <summary>Its process cut it: it was cut back to its last whole object and ended.</summary>
        Mended,

        /// <summary>Not a stream of these formats, or not one whole object in it: left as it was.</summary>
        Unreadable,
    }

    /// <summary>
    /// Whether the file at <paramref name="path"/> ended whole, was mended in place (cut to its last whole object and
    /// ended), or could not be. Only the objects' headers are read, so a long recording costs no more memory than a short one.
    /// </summary>
    public static Outcome Mend(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
        if (WholeLength(file) is not { } whole)
        {
            return Outcome.Unreadable;
        }

        if (whole.Ended)
        {
            return Outcome.Whole;
        }

        file.SetLength(whole.Length);
        file.Seek(0, SeekOrigin.End);
        file.WriteByte(NullReference);
        return Outcome.Mended;
    }

    /// <summary>
    /// How far <paramref name="stream"/> holds whole objects, and whether the end mark follows them; null when it is not
    /// a stream of formats 4 or 5 or holds no whole object.
    /// </summary>
    internal static (long Length, bool Ended)? WholeLength(Stream stream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        Span<byte> header = stackalloc byte[HeaderLength];
        stream.Position = 0;
        if (stream.ReadAtLeast(header, HeaderLength, throwOnEndOfStream: false) < HeaderLength || !header[..8].SequenceEqual("Nettrace"u8)
            || BinaryPrimitives.ReadInt32LittleEndian(header[8..]) != 20 || !header[12..].SequenceEqual("!FastSerialization.1"u8))
        {
            return null;
        }

        long at = HeaderLength;
        var objects = 0;
        while (true)
        {
            stream.Position = at;
            if (stream.ReadByte() == NullReference)
            {
                return objects > 0 ? (at, true) : null;
            }

            if (ObjectEnd(stream, at) is not { } end)
            {
                return objects > 0 ? (at, false) : null;
            }

            objects++;
            at = end;
        }
    }

    // Where the object at `at` ends (past its closing tag); null where it is cut or is not an object of these formats.
    private static long? ObjectEnd(Stream stream, long at)
    {
        // Begin, the type (begin, null, version, least reader version, name's length, name), end of type.
        Span<byte> start = stackalloc byte[15 + 64 + 1 + 4];
        stream.Position = at;
        var read = stream.ReadAtLeast(start, start.Length, throwOnEndOfStream: false);
        if (read < 15 || start[0] != BeginPrivateObject || start[1] != BeginPrivateObject || start[2] != NullReference)
        {
            return null;
        }

        var nameLength = BinaryPrimitives.ReadInt32LittleEndian(start[11..]);
        if (nameLength is <= 0 or > 64 || 15 + nameLength + 1 > read || start[15 + nameLength] != EndObject)
        {
            return null;
        }

        var payload = at + 15 + nameLength + 1;
        long end;
        if (start.Slice(15, nameLength).SequenceEqual("Trace"u8))
        {
            end = payload + TracePayload;
        }
        else
        {
            // A block: its size, then padding to a multiple of 4 from the stream's start, then the block.
            Span<byte> sizeBytes = stackalloc byte[4];
            stream.Position = payload;
            if (stream.ReadAtLeast(sizeBytes, 4, throwOnEndOfStream: false) < 4)
            {
                return null;
            }

            var size = BinaryPrimitives.ReadInt32LittleEndian(sizeBytes);
            var data = payload + 4;
            data += (4 - (data % 4)) % 4;
            if (size < 0)
            {
                return null;
            }

            end = data + size;
        }

        if (end >= stream.Length)
        {
            return null;
        }

        stream.Position = end;
        return stream.ReadByte() == EndObject ? end + 1 : null;
    }
}
