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

    /// <summary>The variants it can run, with the run's sweeps (<c>--cores 2,8</c>, <c>--grow</c>); null where the plan was made without them.</summary>
    public VariantSpace? Space { get; init; }

    /// <summary>The sizes its variants run at (<c>--grow</c>); null for none.</summary>
    public GrowPlan? Grow { get; init; }

    /// <summary>
    /// The parameters whose values change the work a variant runs (the scenario's sweeps, <c>--grow</c>, and family
    /// parameters that change work): variants that differ in one are never weighed against each other.
    /// </summary>
    public IReadOnlyList<string> WorkParameters()
    {
        var space = Scenario.Variants(Parameters);
        return
        [
            .. space.Sweeps.Select(s => s.Parameter.Name)
                .Concat(Grow is { IsSweep: false } grow ? [grow.Name] : [])
                .Concat(space.Families.SelectMany(f => f.Parameters).Where(p => p.ChangesWork).Select(p => p.Name))
                .Distinct(),
        ];
    }
}

/// <summary>
/// A <c>--grow</c>: a whole-number parameter of the scenario and the sizes every variant runs at, in increasing
/// order. The runner runs the sizes one after another, each with its own set-up and ideal.
/// </summary>
/// <param name="Name">The parameter, as its option is named without dashes: <c>items</c>.</param>
/// <param name="Sizes">Two or more sizes, increasing.</param>
internal sealed record GrowPlan(string Name, IReadOnlyList<int> Sizes)
{
    /// <summary>Whether the parameter is a sweep of the scenario's own, whose values multiply the variants already.</summary>
    public bool IsSweep { get; init; }

    /// <summary>The ideal planned at each size, from the parameters alone (a set-up that measures one replaces it).</summary>
    public IReadOnlyDictionary<int, IdealBound> Ideals { get; init; } = new Dictionary<int, IdealBound>();

    /// <summary>The size <paramref name="variant"/> runs at; null when it carries none.</summary>
    public int? SizeOf(Variant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return variant.WholeNumber(Name);
    }

    /// <summary>The scenario's parameters at <paramref name="size"/>.</summary>
    public ParameterValues At(ParameterValues parameters, int size)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return parameters.With(new Dictionary<string, string> { [Name] = size.ToString(System.Globalization.CultureInfo.InvariantCulture) });
    }
}
