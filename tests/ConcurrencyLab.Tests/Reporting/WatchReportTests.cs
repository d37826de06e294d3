using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>
/// A program conclab why watched, as results: its report says what was watched and where its threads were held, with
/// no ranking; its results file reads back, and one whose watch holds what no watch writes is refused in one line.
/// </summary>
public sealed class WatchReportTests
{
    private static RunResult Watch(int processId = 42, double windowMs = 3093)
    {
        var threads = new ThreadTime
        {
            Work = new ThreadStates(10, 40_000, 0, 0),
            Sites = [new BlockingSite("waiting", "Shop.OrderDesk.LoadBlocking", "System.Threading.Tasks.Task`1.GetResultCore", 40_000, 900) { File = "Program.cs", Line = 52 }],
        };
        var account = new RuntimeAccount { Events = RuntimeEvents.Stacks, Complete = true, Threads = threads };
        var trial = new TrialResult { Status = TrialStatus.Ok, Metrics = new Dictionary<string, double> { ["wallMs"] = windowMs }, Runtime = account };
        var scenario = new ScenarioResult
        {
            Name = "why",
            Parameters = new Dictionary<string, string>(),
            IdealMs = 0,
            IdealReason = "none",
            Baseline = "Shop",
            Variants = [new VariantResult { Name = "Shop", Description = "dotnet Shop.dll", Status = TrialStatus.Ok, Trials = [trial] }],
            Watched = new WatchedProgram { ProcessId = processId, CommandLine = ["dotnet", "Shop.dll"], Launched = true, ExitCode = 0, WindowMs = windowMs, Ended = "the program exited with code 0" },
        };
        return new RunResult
        {
            StartedAt = "2026-01-01T00:00:00Z",
            Environment = EnvironmentInfo.Current(),
            Settings = new RunSettings { Repeat = 1 },
            Scenarios = [ConcurrencyLab.Analysis.Summarizer.Answer(scenario, 2) with { Recommendations = [] }],
        };
    }

    [Fact]
    public void AWatch_SaysWhatWasWatched_AndWhereItsThreadsWereHeld_WithNoRanking()
    {
        var blocks = ScenarioReport.Of(Watch().Scenarios[0], 2);
        var text = string.Join("\n", blocks.OfType<Passage>().SelectMany(p => p.Lines).Concat(blocks.OfType<BulletList>().SelectMany(b => b.Items)).Select(s => s.Text));

        Assert.Contains("Watched dotnet Shop.dll (process 42) from its runtime's start, for 3.09 s: the program exited with code 0.", text, StringComparison.Ordinal);
        Assert.Contains("40000 ms waiting at OrderDesk.LoadBlocking (Program.cs:52) -> Task`1.GetResultCore", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Fastest", text, StringComparison.Ordinal);
        Assert.DoesNotContain(blocks, b => b is VariantTable);
    }

    [Fact]
    public void AWatchsResultsFile_ReadsBack_AndOneWhoseWatchHoldsWhatNoWatchWrites_IsRefused()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-watch-").FullName;
        try
        {
            var path = Path.Combine(folder, "results.json");
            File.WriteAllText(path, System.Text.Json.JsonSerializer.Serialize(Watch(), LabJson.Options));
            Assert.Equal(42, ResultsFile.Read(path).Scenarios[0].Watched!.ProcessId);

            foreach (var hostile in new[] { Watch(processId: 0), Watch(windowMs: -1) })
            {
                File.WriteAllText(path, System.Text.Json.JsonSerializer.Serialize(hostile, LabJson.Options));
                var error = Assert.Throws<ResultsFileException>(() => ResultsFile.Read(path));
                Assert.DoesNotContain('\n', error.Message);
                Assert.Contains("scenarios[0].watched holds", error.Message, StringComparison.Ordinal);
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
