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
    private static RunResult Watch(int processId = 42, double windowMs = 3093, PoolQueue? queue = null)
    {
        var threads = new ThreadTime
        {
            Work = new ThreadStates(10, 40_000, 0, 0),
            Sites = [new BlockingSite("waiting", "Shop.OrderDesk.LoadBlocking", "System.Threading.Tasks.Task`1.GetResultCore", 40_000, 900) { File = "Program.cs", Line = 52 }],
        };
        // Three raises for blocking from a target of 4, then one back: 4 -> 5 -> 6 -> 7 -> 6.
        var account = new RuntimeAccount
        {
            Events = RuntimeEvents.Stacks,
            Complete = true,
            Threads = threads,
            PoolTargetAtStart = 4,
            PoolAdjustments = [.. new[] { 5, 6, 7, 6 }.Select((n, i) => new PoolAdjustment(500 * (i + 1), n, PoolAdjustmentReason.CooperativeBlocking, 0))],
            PoolQueue = queue,
        };
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

    // A results file holding `json` is refused in one line that names `where`.
    private static void Refused(string path, string json, string where)
    {
        File.WriteAllText(path, json);
        var error = Assert.Throws<ResultsFileException>(() => ResultsFile.Read(path));
        Assert.DoesNotContain('\n', error.Message);
        Assert.Contains(where, error.Message, StringComparison.Ordinal);
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
                Refused(path, System.Text.Json.JsonSerializer.Serialize(hostile, LabJson.Options), "scenarios[0].watched holds");
            }

            // A queue with a reading missing, one below zero, or a rate that is not a number: refused, never drawn or said.
            var missing = System.Text.Json.Nodes.JsonNode.Parse(
                System.Text.Json.JsonSerializer.Serialize(Watch(queue: new PoolQueue([new QueueReading(1000, 3)], 5)), LabJson.Options))!;
            missing["scenarios"]![0]!["variants"]![0]!["trials"]![0]!["runtime"]!["poolQueue"]!["lengths"]![0] = null;
            foreach (var json in new[]
            {
                missing.ToJsonString(),
                System.Text.Json.JsonSerializer.Serialize(Watch(queue: new PoolQueue([new QueueReading(1000, -3)], 5)), LabJson.Options),
                System.Text.Json.JsonSerializer.Serialize(Watch(queue: new PoolQueue([new QueueReading(1000, 3)], -5)), LabJson.Options),
            })
            {
                Refused(path, json, "runtime.poolQueue");
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void AWatchWithTheQueueRead_SaysItsPeakAndRate_AndDrawsTheTargetWithItsRaisesBesideTheQueue()
    {
        var queue = PoolQueue.Of([(1000, 12), (2000, 212), (3000, 7)], [(1000, 100), (3000, 3100)]);
        Assert.Equal(212, queue.Peak);
        Assert.Equal(1500, queue.CompletedPerSecond);

        var scenario = Watch(queue: queue).Scenarios[0];
        var said = RuntimeAccountText.Describe(scenario.Variants[0])!.Text;
        Assert.Contains("its queue peaked at 212 work items waiting (read once a second), 1500 completed a second", said, StringComparison.Ordinal);
        Assert.Equal(212, StandardMetrics.Read(scenario.Variants[0].Trials[0].Runtime!)[StandardMetrics.PeakQueueLength]);

        var chart = Assert.Single(Chart.For(scenario).OfType<OverTimeChart>());
        Assert.Equal(["thread target", "work items queued"], chart.Series.Select(s => s.Name));

        // The target from its start to the window's end; a dot at each raise and a ring at the one lowering.
        Assert.Equal([4, 5, 6, 7, 6, 6], chart.Series[0].Points.Select(p => p.Value));
        Assert.Equal(3093, chart.Series[0].Points[^1].TimeMs);
        Assert.Equal(3, chart.Marks.Count(m => !m.Lowered));
        Assert.Equal(1, chart.Marks.Count(m => m.Lowered));
    }

    [Fact]
    public void AQueueRate_NeedsTwoReadingsASecondApart_AndACountThatDidNotFall()
    {
        Assert.Null(PoolQueue.Of([], [(1000, 100)]).CompletedPerSecond);
        Assert.Null(PoolQueue.Of([], [(1000, 100), (1500, 200)]).CompletedPerSecond);
        Assert.Null(PoolQueue.Of([], [(1000, 300), (3000, 200)]).CompletedPerSecond);
        Assert.Null(PoolQueue.Of([], []).Peak);

        // Without the queue read (every trial of a run), the sentence says nothing of it.
        var said = RuntimeAccountText.Describe(Watch().Scenarios[0].Variants[0])!.Text;
        Assert.DoesNotContain("queue", said, StringComparison.Ordinal);
    }

    [Fact]
    public void AChildWatched_IsReportedAfterTheProgram_AndAFileWhoseChildrenAndVariantsDisagree_IsRefused()
    {
        var run = Watch();
        var scenario = run.Scenarios[0];
        var child = new WatchedChild { ProcessId = 43, CommandLine = ["dotnet", "testhost.dll"], StartMs = 180, WindowMs = 2000, Ended = "it exited" };
        var withChild = scenario with
        {
            Variants = [scenario.Variants[0], scenario.Variants[0] with { Name = "testhost" }],
            Watched = scenario.Watched! with { Children = [child] },
        };

        var blocks = ScenarioReport.Of(withChild, 2);
        var text = string.Join("\n", blocks.OfType<Passage>().SelectMany(p => p.Lines).Select(s => s.Text));
        Assert.Contains("It started dotnet testhost.dll (process 43), watched from 0.18 s in, for 2 s: it exited.", text, StringComparison.Ordinal);
        Assert.Contains("testhost (", text, StringComparison.Ordinal);

        var folder = Directory.CreateTempSubdirectory("conclab-watch-").FullName;
        try
        {
            var path = Path.Combine(folder, "results.json");
            File.WriteAllText(path, System.Text.Json.JsonSerializer.Serialize(run with { Scenarios = [withChild] }, LabJson.Options));
            Assert.Equal(43, ResultsFile.Read(path).Scenarios[0].Watched!.Children[0].ProcessId);

            // A child with no variant of its own, and a child that is null: refused in one line.
            foreach (var hostile in new[]
            {
                withChild with { Variants = [scenario.Variants[0]] },
                withChild with { Watched = withChild.Watched! with { Children = [null!] } },
            })
            {
                Refused(path, System.Text.Json.JsonSerializer.Serialize(run with { Scenarios = [hostile] }, LabJson.Options), "scenarios[0].watched holds");
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void AProgramWhoseWorkNeverBlocked_ButWhoseMainThreadWaited_IsNotSaidNeverToHaveBlocked()
    {
        var scenario = Watch().Scenarios[0];
        var trial = scenario.Variants[0].Trials[0];
        var idle = trial.Runtime!.Threads! with { Sites = [], Work = new ThreadStates(50, 0, 0, 0) };
        string Said(ThreadTime threads)
        {
            var variant = scenario.Variants[0] with { Trials = [trial with { Runtime = trial.Runtime with { Threads = threads } }] };
            var blocks = ScenarioReport.Of(scenario with { Variants = [variant] }, 2);
            return string.Join("\n", blocks.OfType<Passage>().SelectMany(p => p.Lines).Select(s => s.Text));
        }

        Assert.Contains("its main thread waited 2900 ms", Said(idle with { Caller = new ThreadStates(10, 2900, 0, 0) }), StringComparison.Ordinal);
        Assert.DoesNotContain("it did not block", Said(idle with { Caller = new ThreadStates(10, 2900, 0, 0) }), StringComparison.Ordinal);
        Assert.Contains("it did not block", Said(idle with { Caller = new ThreadStates(10, 0, 0, 0) }), StringComparison.Ordinal);
    }

    [Fact]
    public void AWatchsMethod_SaysItWasWatched_NotRunAsTrialsInFreshProcesses()
    {
        var method = RunDescription.Method(Watch());
        Assert.Contains("watched from outside its process", method, StringComparison.Ordinal);
        Assert.DoesNotContain("fresh process", method, StringComparison.Ordinal);
        Assert.DoesNotContain("warmup", method, StringComparison.Ordinal);
    }
}
