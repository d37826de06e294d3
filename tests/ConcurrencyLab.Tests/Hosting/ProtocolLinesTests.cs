using ConcurrencyLab.Hosting;
using CsCheck;

namespace ConcurrencyLab.Tests.Hosting;

public sealed class ProtocolLinesTests
{
    // What crank's agent looks for: either statistics marker anywhere in a line in any case, and an announcement at
    // a standard-error line's start.
    private static bool AgentActsOn(string line) =>
        line.Contains("#StartJobStatistics", StringComparison.OrdinalIgnoreCase)
        || line.Contains("#EndJobStatistics", StringComparison.OrdinalIgnoreCase)
        || line.StartsWith("##ChildProcessId:", StringComparison.Ordinal);

    [Theory]
    [InlineData("x\n#StartJobStatistics\n{\"Measurements\":[]}\n#EndJobStatistics\n##ChildProcessId:1", "x\n# StartJobStatistics\n{\"Measurements\":[]}\n# EndJobStatistics\n## ChildProcessId:1")]
    [InlineData("linux #startjobstatistics #ENDJOBSTATISTICS", "linux # startjobstatistics # ENDJOBSTATISTICS")]
    [InlineData("##StartJobStatistics", "## StartJobStatistics")]
    [InlineData("C# 12, #1 and ## alone", "C# 12, #1 and ## alone")]
    public void Neutralise_BreaksEveryMarker_AndLeavesTheRest(string text, string expected)
    {
        var broken = ProtocolLines.Neutralise(text);
        Assert.Equal(expected, broken);
        Assert.DoesNotContain(broken.Split('\n'), AgentActsOn);
    }

    [Fact]
    public void TheGuard_BreaksAMarkerHoweverTheWritesCutIt_AndChangesNothingElse()
    {
        // Text rich in markers and their pieces, cut into writes anywhere: what comes out is the whole text broken.
        var pieces = new[] { "#StartJobStatistics", "#EndJobStatistics", "##ChildProcessId:", "#", "##", "#Start", "Job", "Statistics", "\n", "a", " ", "#end", "ChildProcessId:7" };
        var gen = Gen.Select(Gen.Int[0, pieces.Length - 1].Array[1, 30], Gen.Int[1, 12].Array[1, 30]);
        gen.Sample((indexes, cuts) =>
        {
            var text = string.Concat(indexes.Select(i => pieces[i]));
            var sink = new StringWriter();
            var guard = new ProtocolLines.Guard(sink);
            var at = 0;
            for (var i = 0; at < text.Length; i++)
            {
                var length = Math.Min(cuts[i % cuts.Length], text.Length - at);
                guard.Write(text.AsSpan(at, length));
                at += length;
            }

            guard.FlushHeld();
            var written = sink.ToString();
            Assert.Equal(ProtocolLines.Neutralise(text), written);
            Assert.DoesNotContain(written.Split('\n'), AgentActsOn);
        });
    }

    [Fact]
    public void TheLabsOwnProtocol_PassesTheGuard_OnALineOfItsOwn()
    {
        var sink = new StringWriter();
        var guard = new ProtocolLines.Guard(sink);
        guard.Write("quoted: #EndJobStatistics, then half a line");
        guard.WritePast("#StartJobStatistics\n{}\n#EndJobStatistics\n");
        guard.Write("#Start");
        guard.FlushHeld();

        Assert.Equal("quoted: # EndJobStatistics, then half a line\n#StartJobStatistics\n{}\n#EndJobStatistics\n#Start", sink.ToString());
    }

    [Fact]
    public void AnEndThatCouldBeginAMarker_IsHeld_AndTheRestWrittenAtOnce()
    {
        var sink = new StringWriter();
        var guard = new ProtocolLines.Guard(sink);
        guard.Write("progress 3/9 #Sta");
        Assert.Equal("progress 3/9 ", sink.ToString());
        guard.Write("y\n");
        Assert.Equal("progress 3/9 #Stay\n", sink.ToString());
    }
}
