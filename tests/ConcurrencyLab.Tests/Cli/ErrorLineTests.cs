using ConcurrencyLab.CommandLine.Rendering;

namespace ConcurrencyLab.Tests.Cli;

public sealed class ErrorLineTests
{
    [Fact]
    public void SeveralProblems_AreOneLine_JoinedBySemicolons()
    {
        Assert.Equal(
            "conclab: --repeat must be a whole number, not 'x'; --json must not be empty.",
            ErrorLine.Format("--repeat must be a whole number, not 'x'.", "--json must not be empty."));
    }

    [Theory]
    [InlineData("not '1\n2'.", @"not '1\n2'.")]
    [InlineData("not '\0'.", @"not '\0'.")]
    [InlineData("not 'a\r\tb'.", @"not 'a\r\tb'.")]
    [InlineData("not '\u001b[31m'.", @"not '\u001b[31m'.")]
    [InlineData("not 'a\u2028b'.", @"not 'a\u2028b'.")]
    [InlineData("plain words stay as they are: 🙂 é", "plain words stay as they are: 🙂 é")]
    public void ControlCharactersAndLineBreaks_AreShownEscaped(string problem, string shown)
    {
        Assert.Equal(shown, ErrorLine.Clean(problem));
    }

    [Fact]
    public void AnOverlongWord_IsCut_SayingHowLongItWas()
    {
        var value = new string('9', 10_000);

        var line = ErrorLine.Format($"--items must be a whole number, not '{value}'.");

        Assert.Equal($"conclab: --items must be a whole number, not '{new string('9', 59)}...(10003 characters)", line);
    }
}
