using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using Spectre.Console;

namespace ConcurrencyLab.Cli.Rendering;

/// <summary>A progress bar for the whole run and a line naming the trial under way, on a terminal.</summary>
internal sealed class LiveProgress : IRunObserver
{
    private readonly ProgressTask _overall;
    private readonly ProgressTask _current;

    public LiveProgress(ProgressContext context, RunPlan plan)
    {
        _overall = context.AddTask("all trials", maxValue: Math.Max(1, plan.TotalTrials));
        _current = context.AddTask("starting", maxValue: 1);
    }

    public void RunStarting(RunPlan plan)
    {
    }

    public void TrialStarting(TrialProgress progress)
    {
        var kind = progress.Warmup ? "warmup" : $"trial {progress.Round + 1}";
        _current.Description = Markup.Escape($"{progress.Scenario} {progress.Variant} {kind}");
        _current.Value = 0;
    }

    public void TrialFinished(TrialProgress progress, TrialResult result)
    {
        _current.Value = 1;
        _overall.Increment(1);
    }

    public void ScenarioFinished(ScenarioResult result)
    {
    }
}
