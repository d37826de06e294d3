using ConcurrencyLab.Comparing;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Comparing;
using ConcurrencyLab.Tests.Reporting;

namespace ConcurrencyLab.Tests.Results;

/// <summary>
/// Whether the lab's own code ran precompiled is read from its assembly file, kept in results.json, said in the
/// reports, and a difference between two compared runs is named: it moves every trial's start-up and jitMs.
/// </summary>
public sealed class ReadyToRunTests
{
    [Fact]
    public void AFrameworkAssembly_IsPrecompiled_AndThisTestBuildsOwnIsNot()
    {
        // The framework ships precompiled; this test project is compiled by the C# compiler alone, in any configuration.
        Assert.True(EnvironmentInfo.IsReadyToRun(typeof(object).Assembly.Location));
        Assert.False(EnvironmentInfo.IsReadyToRun(typeof(ReadyToRunTests).Assembly.Location));
    }

    [Fact]
    public void AFileThatIsNoAssembly_OrNoFile_IsNotKnown_RatherThanGuessed()
    {
        var text = Path.GetTempFileName();
        try
        {
            File.WriteAllText(text, "not a program");
            Assert.Null(EnvironmentInfo.IsReadyToRun(text));
            Assert.Null(EnvironmentInfo.IsReadyToRun(text + ".missing"));
            Assert.Null(EnvironmentInfo.IsReadyToRun(string.Empty));
        }
        finally
        {
            File.Delete(text);
        }
    }

    [Fact]
    public void TheLabsAssemblyOrTheProgramsOwn_EitherPrecompiled_MakesTheRunPrecompiled()
    {
        var framework = typeof(object).Assembly.Location;
        var tests = typeof(ReadyToRunTests).Assembly.Location;

        // A user's program published ReadyToRun on the lab's plain assembly is precompiled where its workload is.
        Assert.True(EnvironmentInfo.AnyReadyToRun([tests, framework]));
        Assert.False(EnvironmentInfo.AnyReadyToRun([tests, tests, null, tests + ".missing"]));
        Assert.Null(EnvironmentInfo.AnyReadyToRun([null, tests + ".missing"]));
    }

    [Fact]
    public void TheCodeATrialRuns_IsTheLabsAndWhatIsBuiltOnIt_NotTheFrameworkOrOtherLibraries()
    {
        var scenarios = typeof(ConcurrencyLab.Experiments.ScenarioCatalog).Assembly.Location; // loaded before the look, as in a run
        var code = EnvironmentInfo.TrialCode();

        Assert.Contains(typeof(EnvironmentInfo).Assembly.Location, code);
        Assert.Contains(typeof(ReadyToRunTests).Assembly.Location, code); // built on the lab, as a user's workload is
        Assert.Contains(scenarios, code);
        Assert.DoesNotContain(typeof(object).Assembly.Location, code);
        Assert.DoesNotContain(typeof(Xunit.Assert).Assembly.Location, code);

        // None of them is precompiled in this build, and the run's environment says so.
        Assert.False(EnvironmentInfo.ForTrialsOfThisProgram().ReadyToRun);
    }

    [Fact]
    public void ThePrecompilation_IsKeptInTheFile_AndAnOlderFileLeavesItUnknown()
    {
        var run = ExporterTests.SampleRun();
        var precompiled = run with { Environment = run.Environment with { ReadyToRun = true } };
        var folder = Directory.CreateTempSubdirectory("conclab-r2r-");
        try
        {
            var path = Path.Combine(folder.FullName, "results.json");
            Exporters.WriteFile(precompiled, JsonExporter.Default, path);
            Assert.Contains("\"readyToRun\": true", File.ReadAllText(path), StringComparison.Ordinal);
            Assert.True(ResultsFile.Read(path).Environment.ReadyToRun);
            Assert.Null(ResultsFile.Read(OldFile()).Environment.ReadyToRun);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void TheLabsVersion_IsKeptInTheFile_AsTheToolSaysIt_AndAnOlderFileLeavesItUnknown()
    {
        var run = ExporterTests.SampleRun() with { ToolVersion = RunResult.CurrentToolVersion };
        var folder = Directory.CreateTempSubdirectory("conclab-version-");
        try
        {
            var path = Path.Combine(folder.FullName, "results.json");
            Exporters.WriteFile(run, JsonExporter.Default, path);
            Assert.Equal(RunResult.CurrentToolVersion, ResultsFile.Read(path).ToolVersion);
            Assert.Null(ResultsFile.Read(OldFile()).ToolVersion);

            // The version is the package's, as conclab --version prints it: the build's <Version>, then its revision.
            Assert.StartsWith(typeof(RunResult).Assembly.GetName().Version!.ToString(3), RunResult.CurrentToolVersion, StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    private static string OldFile([System.Runtime.CompilerServices.CallerFilePath] string source = "") =>
        Path.Combine(Path.GetDirectoryName(source)!, "Files", "v1-delay.json");

    [Theory]
    [InlineData(true, "the trials' code precompiled (ReadyToRun).")]
    [InlineData(false, "the trials' code compiled as it ran.")]
    [InlineData(null, null)]
    public void TheReports_SayHowTheLabsCodeWasCompiled_OnlyWhereItIsKnown(bool? precompiled, string? ending)
    {
        var run = RunComparisonTests.Run("100", ("a", [100, 101, 102]));
        var machine = RunDescription.Machine(run with { Environment = run.Environment with { ReadyToRun = precompiled } });
        if (ending is null)
        {
            Assert.DoesNotContain("code", machine, StringComparison.Ordinal);
            Assert.EndsWith(".", machine, StringComparison.Ordinal);
        }
        else
        {
            Assert.EndsWith(ending, machine, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(true, false, true)]
    [InlineData(false, true, true)]
    [InlineData(true, true, false)]
    [InlineData(null, true, false)]
    [InlineData(false, null, false)]
    public void ComparedRuns_NameADifferenceInPrecompilation_OnlyWhereBothRecordedIt(bool? before, bool? after, bool named)
    {
        var run = RunComparisonTests.Run("100", ("a", [100, 101, 102, 103, 104]));
        var comparison = RunComparison.Of(
            run with { Environment = run.Environment with { ReadyToRun = before } },
            run with { Environment = run.Environment with { ReadyToRun = after } });

        Assert.Equal(named, comparison.Notes.Any(n => n.Contains("precompiled", StringComparison.Ordinal)));
    }
}
