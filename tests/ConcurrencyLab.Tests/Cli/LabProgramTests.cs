using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Cli;

public sealed class LabProgramTests
{
    private static readonly Scenario Mine = new WorkloadScenario("mine", _ => new Nothing());
    private static readonly Scenario Other = new WorkloadScenario("other", _ => new Nothing());

    [Theory]
    [InlineData("", "run")]
    [InlineData("--variants whenall --repeat 3", "run mine --variants whenall --repeat 3")]
    [InlineData("list", "list")]
    [InlineData("run mine --quick", "run mine --quick")]
    [InlineData("--help", "--help")]
    [InlineData("-h", "-h")]
    [InlineData("report out/results.json", "report out/results.json")]
    public void AProgramOfOneScenario_TakesConclabsCommandLine_WithRunAndItsNameImplied(string given, string read)
    {
        Assert.Equal(Split(read), LabProgram.ImplicitRun(Split(given), [Mine], new LabProgramOptions()));
    }

    [Fact]
    public void WithSeveralScenarios_OptionsFirstAreRunsOwn_ForEveryScenario()
    {
        Assert.Equal(["run", "--quick"], LabProgram.ImplicitRun(["--quick"], [Mine, Other], new LabProgramOptions()));
    }

    [Fact]
    public void TheConclabTool_ImpliesNothing()
    {
        var tool = new LabProgramOptions { RunWhenNoCommand = false };

        Assert.Empty(LabProgram.ImplicitRun([], [Mine], tool));
        Assert.Equal(["--quick"], LabProgram.ImplicitRun(["--quick"], [Mine], tool));
    }

    private static string[] Split(string text) => text.Split(' ', StringSplitOptions.RemoveEmptyEntries);

    private sealed class Nothing : Workload
    {
        public override int Count => 1;

        public override void Run(int index, CancellationToken cancellationToken)
        {
        }
    }
}
