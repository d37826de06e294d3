using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>
/// One condition a published claim holds under, as data: a scenario parameter at an exact value, in a range or at
/// least the published; a processor count; the variants' own values (fanout's N); or what the machine is (disk-bound)
/// and can do (Windows' overlapped I/O). A claim is judged only on a run that meets every one; a run that does not is
/// "not tested" by it, and a machine that cannot is "could not be judged here".
/// </summary>
internal abstract record Requirement
{
    /// <summary>What the condition is about: a parameter's name, <c>cores</c>, <c>machine</c>.</summary>
    public required string Name { get; init; }

    /// <summary>What the claim needs, in a few words.</summary>
    public required string Required { get; init; }

    /// <summary>
    /// Whether only another machine could meet it (its kind, its OS): unmet, the claim could not be judged here.
    /// Otherwise a run made differently could, and the claim was only not tested by this one.
    /// </summary>
    public virtual bool OfTheMachine => false;

    /// <summary>The scenario parameter this condition pins, which a rule may then read; null when it pins none.</summary>
    public virtual string? Pins => null;

    /// <summary>The condition in a few words: "work-ms 100", "cores 2 or 8", "a disk-bound machine".</summary>
    public virtual string Describe() => $"{Name} {Required}";

    /// <summary>The condition as <paramref name="run"/> met it or not.</summary>
    public abstract ClaimCondition Check(RunFacts run);

    /// <summary>The run's parameter at exactly <paramref name="value"/> (as text, numbers compared as numbers).</summary>
    public static Requirement Is(string parameter, string value) => new ParameterRequirement(parameter, value, text => Same(text, value));

    /// <summary>The run's parameter at <paramref name="minimum"/> or more.</summary>
    public static Requirement AtLeast(string parameter, double minimum) =>
        new ParameterRequirement(parameter, $"at least {Number(minimum)}", text => Parse(text) is { } v && v >= minimum);

    /// <summary>The run's parameter from <paramref name="minimum"/> to <paramref name="maximum"/>.</summary>
    public static Requirement Between(string parameter, double minimum, double maximum) =>
        new ParameterRequirement(parameter, $"{Number(minimum)} to {Number(maximum)}", text => Parse(text) is { } v && v >= minimum && v <= maximum);

    /// <summary>The processor count the runtime saw, one of <paramref name="counts"/>; a run over several counts is judged at each that is.</summary>
    public static CoresRequirement Cores(params int[] counts) => new(counts);

    /// <summary>Variants whose own parameter (fanout's <c>requests</c>) is one of <paramref name="values"/>; the rule sees only those.</summary>
    public static VariantRequirement Variants(string parameter, params int[] values) => new(parameter, values);

    /// <summary>A condition computed from the run's results (files per worker); <paramref name="check"/> gives whether
    /// it is met and what the run had.</summary>
    public static Requirement Of(string name, string required, Func<ScenarioResult, (bool Met, string? Actual)> check)
        => new ComputedRequirement(name, required, run => check(run.Result), OfMachine: false);

    /// <summary>A condition on the machine, read from the run's results (its measured bounds); unmet, the claim could not be judged here.</summary>
    public static Requirement Machine(string required, Func<ScenarioResult, (bool Met, string? Actual)> check)
        => new ComputedRequirement("machine", required, run => check(run.Result), OfMachine: true);

    /// <summary>
    /// What the machine that measured the run could give (an OS), read from the run's own account of it, not from the
    /// machine that judges: unmet, the claim could not be judged there.
    /// </summary>
    public static Requirement Platform(string required, Func<EnvironmentInfo, (bool Met, string Actual)> check) =>
        new ComputedRequirement("platform", required, run => check(run.Machine), OfMachine: true);

    /// <summary>A claim no measurement tests (about an API's future, a matter of taste): it is listed, and never judged.</summary>
    public static Requirement Untestable(string why)
        => new ComputedRequirement("measurable", "a statement a run can test", _ => (false, why), OfMachine: true) { NoRunTests = true };

    /// <summary>
    /// The runtime as it ships: no <c>DOTNET_</c> setting for the run's trials but the processor count the claims' own
    /// runs set. Every claim holds under it; a run that raised the pool's minimum or turned hill climbing off tests
    /// something else.
    /// </summary>
    public static Requirement RuntimeAsShipped { get; } = new ComputedRequirement("runtime", "its own settings (DOTNET_PROCESSOR_COUNT aside)", run =>
    {
        var changed = (run.Settings?.RuntimeEnvironment ?? new Dictionary<string, string>())
            .Where(v => v.Key != Running.RuntimeSettings.Cores.Variable)
            .Select(v => $"{v.Key}={v.Value}")
            .ToList();
        return (changed.Count == 0, changed.Count == 0 ? null : string.Join(" ", changed));
    }, OfMachine: false);

    /// <summary>The share of the machine's cores other processes may keep busy over a run for its timings to count as a
    /// quiet machine's.</summary>
    public const double QuietShare = 0.10;

    /// <summary>
    /// A quiet machine: over the scenario's run, the machine's other processes (the lab's own left out: the runner and
    /// every trial's process) kept under <see cref="QuietShare"/> of its cores busy. A core busy with other work is
    /// another machine, and the posts' timings were made without one; unmet, the claim could not be judged on that
    /// run. A run that kept no account of the machine (files from before it, an OS without <c>/proc/stat</c>) meets it,
    /// and says so.
    /// </summary>
    public static Requirement QuietMachine { get; } = new ComputedRequirement(
        "quiet",
        $"a quiet machine: other processes kept under {QuietShare.ToString("0%", CultureInfo.InvariantCulture)} of its cores busy over the run",
        run => Quiet(run.Result),
        OfMachine: true);

    // Whether the run left the machine quiet, and how busy the others kept it.
    internal static (bool Met, string? Actual) Quiet(ScenarioResult result)
    {
        if (result.MachineLoad is not { CoreMs: > 0 } load)
        {
            return (true, "not recorded (the run kept no account of the machine's cores)");
        }

        var share = load.OthersShare.ToString("0%", CultureInfo.InvariantCulture);
        var seconds = (load.OthersMs / 1000).ToString("0.#", CultureInfo.InvariantCulture);
        var of = (load.CoreMs / 1000).ToString("0", CultureInfo.InvariantCulture);
        return (load.OthersShare < QuietShare, $"other processes kept {share} of the cores busy over the run ({seconds} of {of} core-seconds)");
    }

    /// <summary>A parameter's text as a number, or null.</summary>
    internal static double? Parse(string? text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : null;

    /// <summary>A number as conditions write it.</summary>
    internal static string Number(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);

    private static bool Same(string? text, string value) =>
        text is not null
            && (Parse(text) is { } a && Parse(value) is { } b ? a == b : string.Equals(text.Trim(), value, StringComparison.OrdinalIgnoreCase));
}

/// <summary>A scenario parameter the claim pins, as the run recorded it.</summary>
internal sealed record ParameterRequirement : Requirement
{
    private readonly Func<string?, bool> _accepts;

    [System.Diagnostics.CodeAnalysis.SetsRequiredMembers]
    public ParameterRequirement(string parameter, string required, Func<string?, bool> accepts)
    {
        Name = parameter;
        Required = required;
        _accepts = accepts;
    }

    public override string? Pins => Name;

    public override ClaimCondition Check(RunFacts run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var actual = run.Result.Parameters.TryGetValue(Name, out var text) ? text : null;
        return new ClaimCondition { Name = Name, Required = Required, Actual = actual, Met = _accepts(actual) };
    }
}

/// <summary>The processor count the runtime saw in the trials (<c>processorCount</c>), one of the published machines'.</summary>
internal sealed record CoresRequirement : Requirement
{
    [System.Diagnostics.CodeAnalysis.SetsRequiredMembers]
    public CoresRequirement(IReadOnlyList<int> counts)
    {
        Counts = counts;
        Name = "cores";
        Required = string.Join(" or ", counts);
    }

    /// <summary>The counts the claim was published on.</summary>
    public IReadOnlyList<int> Counts { get; }

    /// <summary>Whether a slice of a run at <paramref name="count"/> processors meets it.</summary>
    public bool Accepts(int? count) => count is { } c && Counts.Contains(c);

    public override ClaimCondition Check(RunFacts run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var seen = ClaimEvidence.ProcessorCounts(run.Result);
        return new ClaimCondition
        {
            Name = Name,
            Required = Required,
            Actual = seen.Count == 0 ? null : string.Join(", ", seen),
            Met = seen.Any(c => Counts.Contains(c)),
        };
    }
}

/// <summary>Variants whose own parameter takes one of the published values (fanout's N); the rule is shown only those.</summary>
internal sealed record VariantRequirement : Requirement
{
    [System.Diagnostics.CodeAnalysis.SetsRequiredMembers]
    public VariantRequirement(string parameter, IReadOnlyList<int> values)
    {
        Name = parameter;
        Values = values;
        Required = string.Join(" or ", values);
    }

    /// <summary>The values the claim was published at.</summary>
    public IReadOnlyList<int> Values { get; }

    public override ClaimCondition Check(RunFacts run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var seen = run.Result.Variants.Select(v => v.WholeNumber(Name)).OfType<int>().Distinct().Order().ToList();
        return new ClaimCondition
        {
            Name = Name,
            Required = Required,
            Actual = seen.Count == 0 ? null : string.Join(", ", seen),
            Met = seen.Any(Values.Contains),
        };
    }
}

/// <summary>A condition computed from the results, or known of the machine.</summary>
internal sealed record ComputedRequirement : Requirement
{
    private readonly Func<RunFacts, (bool Met, string? Actual)> _check;
    private readonly bool _ofMachine;

    [System.Diagnostics.CodeAnalysis.SetsRequiredMembers]
    public ComputedRequirement(string name, string required, Func<RunFacts, (bool Met, string? Actual)> check, bool OfMachine)
    {
        Name = name;
        Required = required;
        _check = check;
        _ofMachine = OfMachine;
    }

    public override bool OfTheMachine => _ofMachine;

    /// <summary>Whether it marks a claim no run can test.</summary>
    public bool NoRunTests { get; init; }

    // A parameter's condition names the parameter; the machine's and the platform's say what they need.
    public override string Describe() => _ofMachine ? Required : base.Describe();

    public override ClaimCondition Check(RunFacts run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var (met, actual) = _check(run);
        return new ClaimCondition { Name = Name, Required = Required, Actual = actual, Met = met };
    }
}

/// <summary>What a run's conditions are checked against: its results, the machine that measured them, and how it ran.</summary>
/// <param name="Result">The scenario's results.</param>
/// <param name="Machine">The machine and runtime that measured them, as the run recorded them.</param>
/// <param name="Settings">How the run was made; null where it is not known (a scenario summarised on its own).</param>
internal sealed record RunFacts(ScenarioResult Result, EnvironmentInfo Machine, RunSettings? Settings);
