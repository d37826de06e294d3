using ConcurrencyLab.Results;

namespace ConcurrencyLab.Running;

/// <summary>
/// Hears about a run as it goes, for progress displays: everything a display needs comes through these calls.
/// Called by the runner one call at a time, in order; a call that throws costs a note, never the run.
/// </summary>
internal interface IRunObserver
{
    /// <summary>The run is about to start its first trial.</summary>
    void RunStarting(RunPlan plan);

    /// <summary>A trial is about to start.</summary>
    void TrialStarting(TrialProgress progress);

    /// <summary>
    /// The trial runs in process <paramref name="processId"/> (a fresh child, or this process in-process), which a
    /// display may read from outside until <see cref="TrialFinished"/>.
    /// </summary>
    void TrialProcessStarted(TrialProgress progress, int processId)
    {
    }

    /// <summary>
    /// The trial's process started <paramref name="processId"/> for the trial (a service), and named it. Called from the
    /// thread that reads the trial's output, between <see cref="TrialProcessStarted"/> and <see cref="TrialFinished"/>.
    /// </summary>
    void TrialChildStarted(TrialProgress progress, int processId)
    {
    }

    /// <summary>A trial has ended, however it ended.</summary>
    void TrialFinished(TrialProgress progress, TrialResult result);

    /// <summary>
    /// <paramref name="variant"/> has had enough measured trials and runs no more (adaptive trial counts): the trials it
    /// will not run count as done.
    /// </summary>
    void VariantStopped(string scenario, string variant, EarlyStop stop)
    {
    }

    /// <summary>A degree was probed before the run (<c>--dop auto</c>): its variant, its successful trials and their
    /// median (null when none succeeded).</summary>
    void DegreeProbed(string scenario, string variant, int trials, double? medianMs)
    {
    }

    /// <summary>
    /// One probe trial of a degree search (<c>--dop auto</c>) has ended, before the run: its variant, the probe trials
    /// the search has run so far, this one included, and its wall time (null when it failed). A search's length is not
    /// known ahead, so it is counted, not shown against a total.
    /// </summary>
    void ProbeTrialFinished(string scenario, string variant, int probeTrials, double? wallMs)
    {
    }

    /// <summary>A scenario's trials have all run (or the run was cancelled during them): what they measured, before statistics.</summary>
    void ScenarioFinished(ScenarioRecord scenario);
}

/// <summary>Where a trial sits in the run.</summary>
/// <param name="Scenario">Scenario name.</param>
/// <param name="Variant">Variant name.</param>
/// <param name="Warmup">Whether the trial is a discarded warmup.</param>
/// <param name="Round">Warmup or measured round, 0-based.</param>
/// <param name="Index">Trials started before this one in the whole run.</param>
/// <param name="Total">Trials in the whole run.</param>
internal sealed record TrialProgress(string Scenario, string Variant, bool Warmup, int Round, int Index, int Total)
{
    /// <summary>Which trial this is, for a person: <c>warmup</c> or <c>trial 2</c>.</summary>
    public string Kind => Warmup ? "warmup" : $"trial {Round + 1}";
}
