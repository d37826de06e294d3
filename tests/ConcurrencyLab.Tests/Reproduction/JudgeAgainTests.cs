using ConcurrencyLab.Reporting;
using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Tests.Cli;
using ConcurrencyLab.Tests.Reporting;
using static ConcurrencyLab.Tests.Reproduction.Made;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Reproduction;

/// <summary>
/// <c>conclab reproduce --from</c>: an earlier reproduction's results judged again by this build's rules, with the
/// machine that measured them, and nothing taken on the earlier files' word but their results.
/// </summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class JudgeAgainTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("conclab-judge-again-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static IReadOnlyList<Scenario> Posts => Reproducer.Posts(ScenarioCatalog.BuiltIn);

    // The delay post's isolated run as a results file from another machine, with 3 trials a case at 8 cores.
    private void WriteDelayRun(string key = "delay")
    {
        var variants = new[] { V("channel", 52), V("parallel-for@4", 715), V("foreach-async@4", 745), V("foreach-async@40", 104), V("foreach-async@default", 390) }
            .Select(v => v.WithMetric(ConcurrencyLab.Measurement.StandardMetrics.ProcessorCountSeen, 8).WithMetric(ConcurrencyLab.Measurement.StandardMetrics.PeakThreads, 15))
            .ToArray();
        var run = ExporterTests.SampleRun() with
        {
            Environment = ExporterTests.SampleRun().Environment with { MachineName = "elsewhere", ProcessorCount = 4 },
            Scenarios = [Result(With(("items", 100), ("min-delay", 10), ("max-delay", 50), ("timer", "task-delay")), variants) with { Name = "delay" }],
        };
        Directory.CreateDirectory(Path.Combine(_folder, key));
        Exporters.WriteFile(run, JsonExporter.Default, Path.Combine(_folder, key, "results.json"));
    }

    [Fact]
    public void TheEarlierResults_AreJudgedAgain_ByTheMachineThatMeasuredThem_AndOnlyThePostsItRan()
    {
        WriteDelayRun();

        var again = Reproducer.JudgeAgain(Posts, quick: true, _folder);

        // Only the delay post had a run in the folder; its runs not there were not made, so their claims not tested.
        Assert.All(again.Claims, c => Assert.Equal("delay", c.Scenario));
        Assert.Equal(Verdict.Holds, again.Claims.First(c => c.Result.Id == "delay-channel-12x" && c.Run == "delay").Result.Verdict);
        Assert.Equal(Verdict.NotTested, again.Claims.Single(c => c.Result.Id == "delay-channel-position").Result.Verdict);
        Assert.Equal("elsewhere", again.Environment.MachineName);
        Assert.Equal(_folder, again.JudgedFrom);
        Assert.Contains("judged again", ReproductionReport.Machine(again), StringComparison.Ordinal);
    }

    [Fact]
    public void TheFilesCheckedBeforeJudging_AreJudgedAsRead_NotReadAgain()
    {
        WriteDelayRun();
        var read = new Dictionary<string, RunResult>(StringComparer.Ordinal);
        Assert.Null(Reproducer.JudgeAgainProblem(Posts, quick: true, _folder, read));
        Assert.Single(read);

        // Gone from the disk after the check: the judgement stands on what the check read.
        File.Delete(Path.Combine(_folder, "delay", "results.json"));
        var again = Reproducer.JudgeAgain(Posts, quick: true, _folder, read);
        Assert.Equal(Verdict.Holds, again.Claims.First(c => c.Result.Id == "delay-channel-12x" && c.Run == "delay").Result.Verdict);
    }

    [Fact]
    public void AFolderWithNoRunOfAPost_IsNothingToJudge_AndRunsFromTwoMachinesAreRefused_NamingEach()
    {
        var nothing = Reproducer.JudgeAgainProblem(Posts, quick: true, _folder);
        Assert.StartsWith($"--from {_folder}: nothing to judge: it holds no run folder of the posts chosen at the quick scale (delay, delay-as-published", nothing, StringComparison.Ordinal);

        // One machine's runs: judged.
        WriteDelayRun();
        WriteDelayRun("delay-as-published");
        Assert.Null(Reproducer.JudgeAgainProblem(Posts, quick: true, _folder));

        // The published run measured on another machine, of 64 cores: the two would be judged as one machine's.
        var path = Path.Combine(_folder, "delay-as-published", "results.json");
        var other = ResultsFile.Read(path);
        Exporters.WriteFile(other with { Environment = other.Environment with { MachineName = "big", ProcessorCount = 64 } }, JsonExporter.Default, path);
        Assert.Equal(
            $"--from {_folder} holds runs measured on 2 machines (delay: elsewhere, 4 cores, {other.Environment.Os} {other.Environment.Architecture}; delay-as-published: big, 64 cores, {other.Environment.Os} {other.Environment.Architecture}): a claim is judged on one machine's runs; give each machine's runs a folder of their own.",
            Reproducer.JudgeAgainProblem(Posts, quick: true, _folder));
    }

    [Fact]
    public void AnEarlierResultsFileThatCannotBeRead_CostsItsRunsClaimsAVerdict_WithWhy()
    {
        WriteDelayRun();
        Directory.CreateDirectory(Path.Combine(_folder, "delay-as-published"));
        File.WriteAllText(Path.Combine(_folder, "delay-as-published", "results.json"), "{ \"tool\": \"conclab\", \"scenarios\": 7 }");

        var again = Reproducer.JudgeAgain(Posts, quick: true, _folder);

        var row = again.Claims.First(c => c.Result.Id == "delay-channel-12x" && c.Run == "delay-as-published").Result;
        Assert.Equal(Verdict.CouldNotJudge, row.Verdict);
        Assert.Contains("is not a conclab results file", row.Reason, StringComparison.Ordinal);
        Assert.Contains(again.Runs, r => r.Key == "delay-as-published" && !r.Measured);
    }

    [SkippableFact]
    public async Task AReproductionJsonThatIsAPipe_IsRefusedInOneLine_NotWaitedOn()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "named pipes are made with mkfifo here");
        using (var mkfifo = System.Diagnostics.Process.Start("mkfifo", Path.Combine(_folder, "reproduction.json")))
        {
            await mkfifo.WaitForExitAsync();
        }

        var (exitCode, error, _) = await Conclab.InvokeAsync(["reproduce", "--from", _folder, "--out", Path.Combine(_folder, "out")]);

        Assert.Equal(2, exitCode);
        Assert.Contains("holds no reproduction", error, StringComparison.Ordinal);
        Assert.Single(error.Trim().Split('\n'));
    }

    [Fact]
    public async Task QuickAndFrom_Together_AreRefused()
    {
        File.WriteAllText(Path.Combine(_folder, "reproduction.json"), "{ \"quick\": false }");

        var (exitCode, error, _) = await Conclab.InvokeAsync(["reproduce", "--from", _folder, "--quick", "--out", Path.Combine(_folder, "out")]);

        Assert.Equal(2, exitCode);
        Assert.Contains("--quick and --from together", error, StringComparison.Ordinal);
    }
}
