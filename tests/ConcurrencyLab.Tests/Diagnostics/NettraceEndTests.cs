using System.Buffers.Binary;
using System.Text;
using ConcurrencyLab.Diagnostics;

namespace ConcurrencyLab.Tests.Diagnostics;

/// <summary>
/// Streams made byte by byte in the layout the runtime writes (a header, the trace object, blocks, the end mark), whole
/// and cut in each way a process's end cuts them, mended to their last whole object.
/// </summary>
public sealed class NettraceEndTests
{
    private static byte[] Header() => [.. "Nettrace"u8, .. Int(20), .. "!FastSerialization.1"u8];

    private static byte[] Int(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
        return bytes;
    }

    private static byte[] TypeOf(string name) => [5, 5, 1, .. Int(4), .. Int(4), .. Int(name.Length), .. Encoding.ASCII.GetBytes(name), 6];

    private static byte[] Trace() => [.. TypeOf("Trace"), .. new byte[48], 6];

    // A block at `offset` from the stream's start: its size, padding to a multiple of 4, its bytes, the end tag.
    private static byte[] Block(string name, int size, long offset)
    {
        var head = TypeOf(name).Concat(Int(size)).ToList();
        while ((offset + head.Count) % 4 != 0)
        {
            head.Add(0);
        }

        return [.. head, .. Enumerable.Repeat((byte)0xAB, size), 6];
    }

    private static byte[] Stream(int blocks, out List<long> ends)
    {
        var bytes = Header().Concat(Trace()).ToList();
        ends = [bytes.Count];
        for (var i = 0; i < blocks; i++)
        {
            bytes.AddRange(Block(i % 2 == 0 ? "EventBlock" : "StackBlock", 37 + i, bytes.Count));
            ends.Add(bytes.Count);
        }

        return [.. bytes];
    }

    [Fact]
    public void AWholeStream_IsLeftAsItIs_AndOneMissingOnlyItsEndMark_IsGivenIt()
    {
        var whole = Stream(3, out var ends).Append((byte)1).ToArray();
        Assert.Equal((ends[^1], true), NettraceEnd.WholeLength(new MemoryStream(whole)));

        var unended = whole[..^1];
        Assert.Equal((ends[^1], false), NettraceEnd.WholeLength(new MemoryStream(unended)));
        Assert.Equal(whole, Mended(unended));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(10)]
    [InlineData(30)]
    public void AStreamCutInsideABlock_IsCutBackToTheBlockBefore_AndEnded(int cutInto)
    {
        var bytes = Stream(3, out var ends);
        var cut = bytes[..(int)(ends[2] + cutInto)];

        Assert.Equal([.. bytes[..(int)ends[2]], 1], Mended(cut));
    }

    [Fact]
    public void AFileThatIsNoStream_OrHoldsNoWholeObject_IsNotTouched()
    {
        byte[] notAStream = [.. "Netperf!"u8, .. new byte[40]];
        Assert.Null(NettraceEnd.WholeLength(new MemoryStream(notAStream)));
        var onlyHalfTheTrace = Stream(0, out _)[..40];
        Assert.Null(NettraceEnd.WholeLength(new MemoryStream(onlyHalfTheTrace)));

        var path = Path.GetTempFileName();
        try
        {
            File.WriteAllBytes(path, notAStream);
            Assert.Equal(NettraceEnd.Outcome.Unreadable, NettraceEnd.Mend(path));
            Assert.Equal(notAStream, File.ReadAllBytes(path));
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static byte[] Mended(byte[] bytes)
    {
        var path = Path.GetTempFileName();
        try
        {
            File.WriteAllBytes(path, bytes);
            Assert.Equal(NettraceEnd.Outcome.Mended, NettraceEnd.Mend(path));
            Assert.Equal(NettraceEnd.Outcome.Whole, NettraceEnd.Mend(path));
            return File.ReadAllBytes(path);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
