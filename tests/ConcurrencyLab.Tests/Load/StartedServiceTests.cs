using ConcurrencyLab.Load;

namespace ConcurrencyLab.Tests.Load;

/// <summary>How --start's command is split into a program and its arguments, without a shell.</summary>
public sealed class StartedServiceTests
{
    [Theory]
    [InlineData("dotnet MyApi.dll", new[] { "dotnet", "MyApi.dll" })]
    [InlineData("  dotnet   a.dll  --urls  http://127.0.0.1:5000 ", new[] { "dotnet", "a.dll", "--urls", "http://127.0.0.1:5000" })]
    [InlineData("dotnet 'My Api/x.dll'", new[] { "dotnet", "My Api/x.dll" })]
    [InlineData("run \"a \\\"b\\\" c\"", new[] { "run", "a \"b\" c" })]
    [InlineData("run a\\ b ''", new[] { "run", "a b", "" })]
    [InlineData("echo $(rm -rf /) ; ls", new[] { "echo", "$(rm", "-rf", "/)", ";", "ls" })]
    public void Words_SplitAsAShellWould_ForWordsAndQuotesOnly(string command, string[] expected) => Assert.Equal(expected, StartedService.Words(command));

    [Fact]
    public void AnUnclosedQuote_IsRefused()
    {
        var error = Assert.Throws<InvalidOperationException>(() => StartedService.Words("dotnet 'a.dll"));

        Assert.Contains("unclosed", error.Message, StringComparison.Ordinal);
    }
}
