using ConcurrencyLab.Results;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A scenario whose runs are judged against the claims of a published post. The claims, their rules and the
/// reproducer live in ConcurrencyLab.Reproduction, which gives this to every scenario that reproduces a post; the
/// core only asks, once a run is summarised, and keeps the verdicts as data.
/// </summary>
internal interface IJudgedByClaims
{
    /// <summary>
    /// Every claim of the post, judged on <paramref name="result"/> where the run put it to the test and "not
    /// tested" where it did not.
    /// </summary>
    /// <param name="result">The run's results of the scenario.</param>
    /// <param name="machine">The machine that measured the run; null for this one.</param>
    /// <param name="settings">How the run was made; null where it is not known.</param>
    IReadOnlyList<ClaimResult> JudgeClaims(ScenarioResult result, EnvironmentInfo? machine, RunSettings? settings);
}
