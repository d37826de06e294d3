using ConcurrencyLab.Experiments.Hash;

namespace ConcurrencyLab.Tests.Scenarios.Hash;

public sealed class ByteSizeTests
{
    [Theory]
    [InlineData("16MiB", 16L << 20)]
    [InlineData("4M", 4L << 20)]
    [InlineData(" 512 KiB ", 512L << 10)]
    [InlineData("1g", 1L << 30)]
    [InlineData("65536", 65536)]
    [InlineData("10b", 10)]
    public void TryParse_ReadsBinaryUnits(string text, long expected)
    {
        Assert.True(ByteSize.TryParse(text, out var bytes));
        Assert.Equal(expected, bytes);
    }

    [Theory]
    [InlineData("")]
    [InlineData("MiB")]
    [InlineData("-4M")]
    [InlineData("1.5M")]
    [InlineData("99999999999999999G")]
    public void TryParse_RefusesWhatIsNotASize(string text)
    {
        Assert.False(ByteSize.TryParse(text, out _));
    }

    [Theory]
    [InlineData(16L << 20, "16 MiB")]
    [InlineData(8L << 30, "8 GiB")]
    [InlineData(1000, "1,000 bytes")]
    [InlineData(1, "1 byte")]
    [InlineData((3L << 20) + 1, "3.0 MiB")]
    public void Format_UsesTheLargestUnitThatDivides(long bytes, string expected)
    {
        Assert.Equal(expected, ByteSize.Format(bytes));
    }
}
