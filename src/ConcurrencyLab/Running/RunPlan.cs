using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>A validated run: scenarios with their parameters and variants, and how to repeat them.</summary>
internal sealed record RunPlan(IReadOnlyList<ScenarioPlan> Scenarios, RunSettings Settings, TimeSpan TrialTimeout)
{
    /// <summary>Every trial the plan will run, warmups included.</summary>
    public int TotalTrials => Scenarios.Sum(s => s.Variants.Count) * (Settings.Repeat + Settings.Warmup);

    /// <summary>What a trial costs besides its work when it runs in a process of its own: the process and runtime starting, about.</summary>
    internal static readonly TimeSpan TrialStartCost = TimeSpan.FromSeconds(0.3);

    /// <summary>What a trial of a scenario that states no expected duration is counted as.</summary>
    internal static readonly TimeSpan UnstatedTrialDuration = TimeSpan.FromSeconds(1);

    /// <summary>
    /// How long the plan should take, at least and at most. At least: the fewest trials a variant may stop after,
    /// each at its scenario's ideal. At most: every trial run, each at its scenario's expected longest
    /// (<see cref="UnstatedTrialDuration"/> where a scenario states none). Each trial in a process of its own adds
    /// <see cref="TrialStartCost"/>; a degree search before the run is not counted.
    /// </summary>
    public (TimeSpan Least, TimeSpan Most) Estimate
    {
        get
        {
            double least = 0, most = 0;
            foreach (var scenario in Scenarios)
            {
                var sizes = scenario.Grow is { IsSweep: false } grow
                    ? grow.Sizes.Select(
                        size => (Parameters: grow.At(scenario.Parameters, size), IdealMs: grow.Ideals.GetValueOrDefault(size)?.Ms
                            ?? scenario.Ideal.Ms)).ToList()
                    : [(scenario.Parameters, scenario.Ideal.Ms)];
                var longest = sizes.Average(p => scenario.Scenario.ExpectedTrialDuration(p.Parameters) is { } expected && expected > TimeSpan.Zero
                    ? expected.TotalSeconds : UnstatedTrialDuration.TotalSeconds);
                var shortest = sizes.Average(p => p.IdealMs / 1000);
                var start = Settings.Isolated ? TrialStartCost.TotalSeconds : 0;
                var fewest = Settings.Adaptive ? Math.Min(Settings.Repeat, EarlyStopping.FewestTrials(scenario.Scenario)) : Settings.Repeat;
                least += (double)scenario.Variants.Count * (fewest + Settings.Warmup) * (shortest + start);
                most += (double)scenario.Variants.Count * (Settings.Repeat + Settings.Warmup) * (Math.Max(longest, shortest) + start);
            }

            var cap = TimeSpan.MaxValue.TotalSeconds / 2;
            return (TimeSpan.FromSeconds(Math.Min(least, cap)), TimeSpan.FromSeconds(Math.Min(most, cap)));
        }
    }

    /// <summary>The estimate as a person says it: <c>4 min to 3 h 37 min</c>, or one figure where both round alike.</summary>
    internal string SpokenEstimate()
    {
        var (least, most) = Estimate;
        var (low, high) = (Spoken(least), Spoken(most));
        return low == high ? low : $"{low} to {high}";
    }

    /// <summary><paramref name="span"/> as a person says it, to the minute above: <c>1 min</c>, <c>40 min</c>, <c>3 h 5
    /// min</c>, <c>9 d 4 h</c>.</summary>
    internal static string Spoken(TimeSpan span) => span switch
    {
        _ when span < TimeSpan.FromHours(1) => $"{Math.Max(1, (int)Math.Ceiling(span.TotalMinutes))} min",
        _ when span <= TimeSpan.FromDays(1) => span.Minutes == 0 ? $"{(int)span.TotalHours} h" : $"{(int)span.TotalHours} h {span.Minutes} min",
        _
            => string.Create(
                System.Globalization.CultureInfo.InvariantCulture, $"{(long)span.TotalDays:N0} d{(span.Hours == 0 ? string.Empty : $" {span.Hours} h")}"),
    };
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

    /// <summary>The variants it can run, with the run's sweeps (<c>--cores 2,8</c>, <c>--grow</c>); null where the plan
    /// was made without them.</summary>
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
