using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>A validated run: scenarios with their parameters and variants, and how to repeat them.</summary>
internal sealed record RunPlan(IReadOnlyList<ScenarioPlan> Scenarios, RunSettings Settings, TimeSpan TrialTimeout)
{
    /// <summary>Every trial the plan will run, warmups included.</summary>
    public int TotalTrials => Scenarios.Sum(s => s.Variants.Count) * (Settings.Repeat + Settings.Warmup);
}

/// <summary>One scenario of a plan.</summary>
internal sealed record ScenarioPlan(
    Scenario Scenario,
    ParameterValues Parameters,
    IReadOnlyList<Variant> Variants,
    string Baseline,
    IdealBound Ideal,
    IReadOnlyList<string> Notes)
{
    /// <summary>Whether the degrees of its strategies that take one are searched before the run (<c>--dop auto</c>).</summary>
    public bool SearchDegrees { get; init; }

    /// <summary>The searches made for it before the run, which the run's record carries on; empty until then.</summary>
    public IReadOnlyList<DegreeSearchResult> DegreeSearches { get; init; } = [];
}
