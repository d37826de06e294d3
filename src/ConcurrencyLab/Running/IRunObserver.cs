using ConcurrencyLab.Results;

namespace ConcurrencyLab.Running;

/// <summary>Hears about a run as it goes, for progress displays. Called on the runner's thread, one call at a time.</summary>
public interface IRunObserver
{
    void RunStarting(RunPlan plan);

    void TrialStarting(TrialProgress progress);

    void TrialFinished(TrialProgress progress, TrialResult result);

    void ScenarioFinished(ScenarioResult result);
}

/// <summary>Where a trial sits in the run.</summary>
/// <param name="Scenario">Scenario name.</param>
/// <param name="Variant">Variant name.</param>
/// <param name="Warmup">Whether the trial is a discarded warmup.</param>
/// <param name="Round">Warmup or measured round, 0-based.</param>
/// <param name="Index">Trials started before this one in the whole run.</param>
/// <param name="Total">Trials in the whole run.</param>
public sealed record TrialProgress(string Scenario, string Variant, bool Warmup, int Round, int Index, int Total)
{
    /// <summary>Which trial this is, for a person: <c>warmup</c> or <c>trial 2</c>.</summary>
    public string Kind => Warmup ? "warmup" : $"trial {Round + 1}";
}
