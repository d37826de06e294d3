using System.CommandLine;
using ConcurrencyLab.CommandLine.Commands;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>Completion and scenario help, as a shell and a user at a terminal meet them. Swaps the console, so one at a time.</summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class CompletionAndHelpTests
{
    private static List<string> Complete(string line) =>
        [.. CommandLineRoot.Build(TestConsole.Create(new StringWriter()), ScenarioCatalog.Tool).Parse(line).GetCompletions().Select(c => c.Label)];

    [Fact]
    public void Variants_CompleteToTheScenariosOwn_AfterTheLastComma()
    {
        Assert.Contains("whenall", Complete("run delay --variants wh"));
        Assert.Contains("channel", Complete("run delay --variants "));
        Assert.Contains("whenall,channel", Complete("run delay --variants whenall,cha"));
        Assert.DoesNotContain("whenall", Complete("run poll --variants wh"));
        Assert.Contains("whenall-async@5", Complete("run fanout --quick --variants whenall-a"));
        Assert.Contains("foreach-async", Complete("run mix --variants foreach"));
    }

    [Fact]
    public void Scenarios_AndAWordParametersValues_Complete()
    {
        Assert.Contains("delay", Complete("run de"));
        Assert.Equal(["precise", "task-delay"], Complete("run delay --timer ").Where(c => !c.StartsWith('-')).Order(StringComparer.Ordinal));
        Assert.Contains("cold", Complete("run hash --cache "));
    }

    [Theory]
    [InlineData("[suggest:-5]")]
    [InlineData("[suggest:99999999999]")]
    [InlineData("[suggest:x]")]
    [InlineData("[suggest:]")]
    public async Task ACompletionPositionThatIsNoPlaceInTheLine_IsOneLineAndExitCode2(string directive)
    {
        var (exitCode, error, _) = await Conclab.InvokeAsync([directive, "run del"]);
        Assert.Equal(2, exitCode);
        Assert.Equal($"conclab: {directive}: a completion's position is [suggest:N], N a whole number from 0 to the line's length (7).", error.Trim());
    }

    [Fact]
    public void ACompletionPositionPastTheLine_IsItsEnd()
    {
        Assert.Null(ConcurrencyLab.CommandLine.Commands.CommandLineRoot.SuggestDirective(["[suggest:500]", "run del"], out var args));
        Assert.Equal(["[suggest:7]", "run del"], args!);
        Assert.Null(ConcurrencyLab.CommandLine.Commands.CommandLineRoot.SuggestDirective(["run", "delay"], out var untouched));
        Assert.Null(untouched);
    }

    [Fact]
    public async Task Completion_RunsNoBenchmark_AndWritesNoResults()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-complete-").FullName;
        var previousDirectory = Environment.CurrentDirectory;
        var output = new StringWriter();
        var previousOut = Console.Out;
        try
        {
            Environment.CurrentDirectory = folder;
            Console.SetOut(output);
            var (exitCode, error, _) = await Conclab.InvokeAsync(["[suggest:24]", "run delay --variants whe"]);

            Assert.True(exitCode == 0, error);
            Assert.Contains("whenall", output.ToString(), StringComparison.Ordinal);
            Assert.Empty(Directory.EnumerateFileSystemEntries(folder));
        }
        finally
        {
            Console.SetOut(previousOut);
            Environment.CurrentDirectory = previousDirectory;
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task RunScenarioHelp_ListsItsVariants_AndEachParametersRange()
    {
        var output = new StringWriter();
        var previousOut = Console.Out;
        try
        {
            Console.SetOut(output);
            var (exitCode, error, listing) = await Conclab.InvokeAsync(["run", "delay", "--help"]);
            var help = output + listing;

            Assert.True(exitCode == 0, error);
            Assert.Contains("--items", help, StringComparison.Ordinal);
            Assert.Contains("a whole number from 1 to", help, StringComparison.Ordinal);
            Assert.Contains("precise or task-delay", help, StringComparison.Ordinal);
            Assert.Contains("Default variant", listing, StringComparison.Ordinal);
            Assert.Contains("foreach-async@40", listing, StringComparison.Ordinal);
            Assert.Contains("Baseline for ratios", listing, StringComparison.Ordinal);
        }
        finally
        {
            Console.SetOut(previousOut);
        }
    }

    [Fact]
    public async Task OtherCommandsHelp_AddsNoVariants()
    {
        var output = new StringWriter();
        var previousOut = Console.Out;
        try
        {
            Console.SetOut(output);
            var (exitCode, _, listing) = await Conclab.InvokeAsync(["run", "--help"]);

            Assert.Equal(0, exitCode);
            Assert.Contains("--repeat-exactly", output.ToString(), StringComparison.Ordinal);
            Assert.DoesNotContain("Default variant", listing, StringComparison.Ordinal);
        }
        finally
        {
            Console.SetOut(previousOut);
        }
    }
}
