using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Running;

public sealed class InProcessTrialTests
{
    [Fact]
    public async Task DelayTrial_InProcess_CompletesEveryItem_AndMeasures()
    {
        var options = new RunOptions
        {
            Scenarios = ["delay"],
            Variants = ["whenall", "parallel-for@2"],
            Parameters = new Dictionary<string, string> { ["items"] = "20", ["min-delay"] = "5", ["max-delay"] = "10" },
            Repeat = 2,
            Warmup = 0,
            InProcess = true,
        };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));

        var run = Summarizer.Summarise(await new Runner(new InProcessTrialExecutor()).RunAsync(plan));

        var variants = run.Scenarios[0].Variants;
        var ideal = run.Scenarios[0].IdealMs;
        Assert.InRange(ideal, 5, 10);
        Assert.All(variants, v => Assert.Equal(TrialStatus.Ok, v.Status));
        Assert.All(variants.SelectMany(v => v.Trials), t =>
        {
            Assert.False(t.Isolated);
            Assert.Equal(20, t.ItemsPlanned);
            Assert.Equal(20, t.ItemsCompleted);
            Assert.Equal(0, t.ItemsDuplicated);
            Assert.True(t.WallMs >= ideal, $"wall {t.WallMs} below the longest delay {ideal}");
            Assert.True(t.Value(StandardMetrics.MaxLatency) >= ideal);
            Assert.NotEmpty(t.Samples);

            // No runtime events are read in-process, and the region's clock, meant for a runner reading them, stays out of the file.
            Assert.Null(t.Runtime);
            Assert.Null(t.Region);
        });
        Assert.Equal(RuntimeEvents.Off, plan.Settings.Events);
        Assert.Single(variants.SelectMany(v => v.Trials).Select(t => t.WorkloadDigest).Distinct());
    }

    [Fact]
    public async Task HungTrial_InProcess_IsReportedAsTimeout()
    {
        var options = new RunOptions
        {
            Scenarios = ["delay"],
            Variants = ["sequential"],
            Parameters = new Dictionary<string, string> { ["items"] = "50", ["min-delay"] = "100", ["max-delay"] = "100" },
            Repeat = 1,
            Warmup = 0,
            InProcess = true,
            TrialTimeout = TimeSpan.FromMilliseconds(300),
        };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new InProcessTrialExecutor();

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        var trial = Assert.Single(run.Scenarios[0].Variants[0].Trials);
        Assert.Equal(TrialStatus.Timeout, trial.Status);
        Assert.True(executor.AbandonedTrial);
        Assert.Contains(run.Scenarios[0].Notes, n => n.Contains("abandoned", StringComparison.Ordinal));
    }

    [Fact]
    public async Task TheObserverIsToldTheTrialRunsInThisProcess()
    {
        var options = new RunOptions
        {
            Scenarios = ["delay"],
            Variants = ["sequential"],
            Parameters = new Dictionary<string, string> { ["items"] = "4", ["min-delay"] = "10", ["max-delay"] = "10" },
            Repeat = 1,
            Warmup = 0,
            InProcess = true,
        };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var observer = new RecordingObserver();

        var run = Summarizer.Summarise(await new Runner(new InProcessTrialExecutor(), observer).RunAsync(plan));

        Assert.Equal(TrialStatus.Ok, run.Scenarios[0].Variants[0].Status);
        Assert.Equal(["starting delay sequential", $"process {Environment.ProcessId}", "finished ok"], observer.Calls);
    }

    /// <summary>Writes down the calls about each trial, in order.</summary>
    private sealed class RecordingObserver : IRunObserver
    {
        public List<string> Calls { get; } = [];

        public void RunStarting(RunPlan plan)
        {
        }

        public void TrialStarting(TrialProgress progress) => Calls.Add($"starting {progress.Scenario} {progress.Variant}");

        public void TrialProcessStarted(TrialProgress progress, int processId) => Calls.Add($"process {processId}");

        public void TrialFinished(TrialProgress progress, TrialResult result) => Calls.Add($"finished {result.Status.ToText()}");

        public void ScenarioFinished(ScenarioRecord scenario)
        {
        }
    }
}
