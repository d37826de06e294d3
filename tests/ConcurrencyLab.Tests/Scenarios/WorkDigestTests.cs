using ConcurrencyLab.Experiments.Digests;
using System.Text;

namespace ConcurrencyLab.Tests.Scenarios;

public sealed class WorkDigestTests
{
    // FNV-1a's published 64-bit values for these strings: the digest is that function, not merely a stable one.
    [Theory]
    [InlineData("", "cbf29ce484222325")]
    [InlineData("a", "af63dc4c8601ec8c")]
    [InlineData("foobar", "85944171f73967e8")]
    public void Of_IsFnv1a64_InSixteenLowerCaseHexDigits(string text, string expected) =>
        Assert.Equal(expected, WorkDigest.Of(Encoding.ASCII.GetBytes(text)));

    [Fact]
    public void Of_TellsWorkThatDiffersInOneByteOrInOrder_Apart()
    {
        byte[] work = [1, 2, 3, 4, 5, 6, 7, 8];
        byte[] oneByte = [1, 2, 3, 4, 5, 6, 7, 9];
        byte[] reordered = [2, 1, 3, 4, 5, 6, 7, 8];

        var digests = new[] { work, oneByte, reordered }.Select(w => WorkDigest.Of(w)).ToList();

        Assert.Equal(3, digests.Distinct(StringComparer.Ordinal).Count());
        Assert.Equal(digests[0], WorkDigest.Of([.. work]));
    }
}
