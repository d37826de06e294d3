using ConcurrencyLab.Experiments.Poll;

namespace ConcurrencyLab.Tests.Scenarios.Poll;

public sealed class FrameReaderTests
{
    [Fact]
    public void Frame_WritesAndReadsBack()
    {
        var bytes = new byte[Frame.Size];
        new Frame(7, 499, long.MaxValue - 3).Write(bytes);

        Assert.Equal(new Frame(7, 499, long.MaxValue - 3), Frame.Read(bytes));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(5)]
    [InlineData(16)]
    [InlineData(17)]
    [InlineData(100)]
    public void Append_ReassemblesFrames_HoweverTheStreamIsCut(int chunk)
    {
        var sent = Enumerable.Range(0, 10).Select(i => new Frame(i, i % 3, 1000 + i)).ToList();
        var stream = new byte[sent.Count * Frame.Size];
        for (var i = 0; i < sent.Count; i++)
        {
            sent[i].Write(stream.AsSpan(i * Frame.Size));
        }

        var reader = new FrameReader();
        var frames = new List<Frame>();
        for (var offset = 0; offset < stream.Length; offset += chunk)
        {
            reader.Append(stream.AsSpan(offset, Math.Min(chunk, stream.Length - offset)), frames);
        }

        Assert.Equal(sent, frames);
        Assert.Equal(0, reader.Pending);
    }

    [Fact]
    public void Append_KeepsAPartialFrame_UntilTheRestArrives()
    {
        var bytes = new byte[Frame.Size];
        new Frame(1, 2, 3).Write(bytes);
        var reader = new FrameReader();
        var frames = new List<Frame>();

        reader.Append(bytes.AsSpan(0, 10), frames);
        Assert.Empty(frames);
        Assert.Equal(10, reader.Pending);

        reader.Append(bytes.AsSpan(10), frames);
        Assert.Equal([new Frame(1, 2, 3)], frames);
    }
}
