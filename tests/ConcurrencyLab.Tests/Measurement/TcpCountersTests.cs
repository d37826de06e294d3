using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Measurement;

public sealed class TcpCountersTests
{
    [Fact]
    public void ParseListenOverflows_FindsTheValueUnderItsName()
    {
        const string netstat = """
            TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops
            TcpExt: 0 0 232 240
            IpExt: InNoRoutes ListenOverflows
            IpExt: 0 999
            """;

        Assert.Equal(232, TcpCounters.ParseListenOverflows(netstat.ReplaceLineEndings("\n")));
    }

    [Theory]
    [InlineData("TcpExt: SyncookiesSent ListenDrops\nTcpExt: 0 4\n")]
    [InlineData("TcpExt: ListenOverflows\n")]
    [InlineData("")]
    public void ParseListenOverflows_WithoutTheCounter_SaysItDoesNotKnow(string netstat) =>
        Assert.Null(TcpCounters.ParseListenOverflows(netstat));

    [Fact]
    public void ReadListenOverflows_OnLinux_ReadsACount()
    {
        var count = TcpCounters.ReadListenOverflows();
        if (OperatingSystem.IsLinux())
        {
            Assert.NotNull(count);
            Assert.True(count >= 0);
        }
        else
        {
            Assert.Null(count);
        }
    }
}
