using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>
/// A scenario that reproduces a published post: its claims, with the runs that test them (<c>conclab reproduce</c>).
/// Declared here, above the core, so that a scenario knows nothing of claims unless it makes some, and claims may
/// read what scenarios and runs are. Every run of such a scenario is judged against its claims (the core asks, through
/// <see cref="IJudgedByClaims"/>).
/// </summary>
internal interface IReproducesPost : IJudgedByClaims
{
    /// <summary>The post's claims and the runs that test them.</summary>
    PublishedClaims Claims { get; }

    /// <inheritdoc/>
    IReadOnlyList<ClaimResult> IJudgedByClaims.JudgeClaims(ScenarioResult result, EnvironmentInfo? machine, RunSettings? settings) =>
        PostJudge.Judge((Scenario)this, result, machine: machine, settings: settings);
}

/// <summary>The claims a scenario makes, if it reproduces a post.</summary>
internal static class PostClaims
{
    /// <summary>The claims of the post <paramref name="scenario"/> reproduces; null when it reproduces none.</summary>
    public static PublishedClaims? Of(Scenario scenario) => (scenario as IReproducesPost)?.Claims;
}

/// <summary>A post's claims judged on one run of its scenario.</summary>
internal static class PostJudge
{
    /// <summary>
    /// Every published claim of the scenario's post, each judged by its rule on this run where the run met the
    /// claim's conditions, and "not tested" where it did not (other parameters, other variants, a run over other
    /// processor counts): a claim is never given a verdict by a run that did not put it to the test. A rule's failure
    /// costs its claim a verdict, never the results.
    /// </summary>
    /// <param name="scenario">The scenario, whose post's claims are judged.</param>
    /// <param name="result">The run's results of it.</param>
    /// <param name="runs">The post's other runs by key, for a claim that compares two (a reproduction has them; a plain run does not).</param>
    /// <param name="machine">The machine that measured the run; null for this one.</param>
    /// <param name="settings">How the run was made; null where it is not known.</param>
    public static IReadOnlyList<ClaimResult> Judge(
        Scenario scenario,
        ScenarioResult result,
        IReadOnlyDictionary<string, ClaimEvidence>? runs = null,
        EnvironmentInfo? machine = null,
        RunSettings? settings = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(result);

        // A post's claims are about one size of its work: a run of several sizes (--grow) puts none to the test.
        if (result.Growth is { } growth)
        {
            return [.. (PostClaims.Of(scenario)?.Claims
                ?? []).Select(
                    claim => claim.ToResult(
                        Judgement.NotTested($"the run grew --{growth.Parameter} over {growth.Sizes.Count} sizes; the post's claims are " +
                            $"judged on a run of one size")))];
        }

        // A run that swept the processor count is judged at each count, as a reproduction's is.
        var cores = result.Variants.Select(v => v.WholeNumber(RuntimeSettings.Cores.Parameter.Name)).OfType<int>().Distinct().Order().ToList();
        var evidence = new ClaimEvidence(
            result, cores, runs: runs, machine: machine, settings: settings, space: RecordedVariants.SpaceOf(scenario, result));
        return [.. (PostClaims.Of(scenario)?.Claims ?? []).Select(claim => claim.ToResult(claim.Evaluate(evidence)))];
    }
}
