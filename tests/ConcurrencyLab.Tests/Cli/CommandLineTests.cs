using ConcurrencyLab.Cli.Commands;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>Swaps Console.Error, so these run one at a time.</summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class CommandLineTests
{
    [Theory]
    [InlineData("run delay --items abc", "--items must be a whole number")]
    [InlineData("run delay --items 0", "--items must be")]
    [InlineData("run delay --repeat many", "--repeat must be a whole number")]
    [InlineData("run delay --variants whenall-sync", "whenall cannot call items in the sync form")]
    [InlineData("run delay --dop 4,-1", "--dop must be a comma-separated list")]
    [InlineData("run delay --bogus", "--bogus")]
    [InlineData("run nosuch", "nosuch")]
    [InlineData("run delay --trial-timeout 0", "--trial-timeout must be a positive number of seconds")]
    [InlineData("run delay --timer fast", "--timer must be precise or task-delay")]
    [InlineData("run delay --trial-timeout 1e12", "at most 86400")]
    [InlineData("run delay --out /proc/conclab-cannot-write-here", "--out: cannot create the folder")]
    [InlineData("run delay --out /proc", "--out: cannot create the folder")]
    [InlineData("run delay --variants plinq@1000", "plinq accepts a degree of at most 512")]
    [InlineData("run scan --targets 10.1.2.0/24 --port 80", "outside 127.0.0.0/8; add --allow-non-loopback yes")]
    [InlineData("run scan --timeout-ms 0", "--timeout-ms must be")]
    [InlineData("run delay --sample-interval -5", "--sample-interval must be 0 (off)")]
    [InlineData("run delay --min-delay 60 --max-delay 50", "--min-delay (60) must not exceed --max-delay (50).")]
    public async Task BadInput_ExitsTwo_WithOneLineNamingTheProblem(string commandLine, string expected)
    {
        var (exitCode, error, output) = await InvokeAsync(commandLine.Split(' '));

        Assert.Equal(2, exitCode);
        var line = Assert.Single(error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("conclab: ", line, StringComparison.Ordinal);
        Assert.Contains(expected, line, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
        Assert.Equal(string.Empty, output);
    }

    [Fact]
    public async Task List_ShowsScenariosVariantsAndParameterDefaults()
    {
        var (exitCode, _, output) = await InvokeAsync(["list"]);

        Assert.Equal(0, exitCode);
        Assert.Contains("delay", output, StringComparison.Ordinal);
        Assert.Contains("foreach-async@default", output, StringComparison.Ordinal);
        Assert.Contains("--max-delay", output, StringComparison.Ordinal);
        Assert.Contains("4,40", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_OffersStrategyNaming_OnlyForScenariosThatPairStrategiesWithForms()
    {
        var (exitCode, _, output) = await InvokeAsync(["list"]);

        Assert.Equal(0, exitCode);
        var poll = output[output.IndexOf("poll:", StringComparison.Ordinal)..];
        Assert.Contains("receive-async", poll, StringComparison.Ordinal);
        Assert.Contains("--work-ms", poll, StringComparison.Ordinal);
        Assert.DoesNotContain("strategy[@degree][-form]", poll, StringComparison.Ordinal);
        Assert.Contains("strategy[@degree][-form]", output[..output.IndexOf("poll:", StringComparison.Ordinal)], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_ANumberBelowItsRange_NamesTheRangeAsTyped()
    {
        var (exitCode, error, _) = await InvokeAsync(["run", "poll", "--hit-rate", "0"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("--hit-rate must be from 0.000001 to 1, not 0.", error, StringComparison.Ordinal);
    }

    private static async Task<(int ExitCode, string Error, string Output)> InvokeAsync(string[] args)
    {
        var output = new StringWriter();
        var console = TestConsole.Create(output);
        var error = new StringWriter();
        var previous = Console.Error;
        Console.SetError(error);
        try
        {
            var exitCode = await CommandLine.InvokeAsync(args, console, ScenarioCatalog.BuiltIn);
            return (exitCode, error.ToString().Replace("\r", string.Empty, StringComparison.Ordinal), output.ToString());
        }
        finally
        {
            Console.SetError(previous);
        }
    }
}

[CollectionDefinition(nameof(ConsoleErrorUsers), DisableParallelization = true)]
public sealed class ConsoleErrorUsers;
