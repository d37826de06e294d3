using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Statistics;

namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>
/// What a rule reads: one run's results, seen at one processor count when the run swept several, and through one
/// claim's conditions (<see cref="For"/>): the rule may read only the parameters they pin, and sees only the variants
/// at the values they accept. Every figure is a statistic the lab already keeps (a median with its 95% interval, a
/// ratio of two such medians); asking for a variant that has no ok trial throws <see cref="MissingEvidenceException"/>,
/// so a rule never decides on what was not measured.
/// </summary>
internal sealed class ClaimEvidence
{
    private readonly ScenarioResult? _result;
    private readonly (string Name, VariantValue Value)? _slice;
    private readonly VariantSpace? _space;
    private readonly IReadOnlyDictionary<string, ClaimEvidence> _runs;
    private readonly IReadOnlySet<string>? _pinned;
    private readonly IReadOnlyList<VariantRequirement> _variants;

    /// <summary>The evidence of <paramref name="result"/>; null when the run measured nothing of the scenario.</summary>
    /// <param name="result">The scenario's results in the run, or null when it did not run.</param>
    /// <param name="cores">The processor counts the run swept; empty when it ran on the machine's own.</param>
    /// <param name="absent">Why there is no result, when there is none.</param>
    /// <param name="runs">The post's other runs by key, for a rule that compares two (a case run first and last).</param>
    /// <param name="machine">The machine that measured the run; null for this one.</param>
    /// <param name="settings">How the run was made; null where it is not known.</param>
    /// <param name="notMade">Whether there is no result because the run was never made (cancelled, or not found),
    /// rather than made and failed.</param>
    /// <param name="space">The variants of the scenario as the run named them, which a slice at one processor count
    /// names its variants by; null where the run is not sliced.</param>
    public ClaimEvidence(
        ScenarioResult? result,
        IReadOnlyList<int> cores,
        string? absent = null,
        IReadOnlyDictionary<string, ClaimEvidence>? runs = null,
        EnvironmentInfo? machine = null,
        RunSettings? settings = null,
        bool notMade = false,
        VariantSpace? space = null)
        : this(result, cores, null, space, absent, runs ?? new Dictionary<string, ClaimEvidence>(), null, [], null, machine
            ?? EnvironmentInfo.Current(), settings)
    {
        NotMade = notMade;
    }

    private ClaimEvidence(
        ScenarioResult? result,
        IReadOnlyList<int> cores,
        (string Name, VariantValue Value)? slice,
        VariantSpace? space,
        string? absent,
        IReadOnlyDictionary<string, ClaimEvidence> runs,
        IReadOnlySet<string>? pinned,
        IReadOnlyList<VariantRequirement> variants,
        int? sliceCores,
        EnvironmentInfo machine,
        RunSettings? settings)
    {
        _result = result;
        Cores = cores;
        _slice = slice;
        _space = space;
        _runs = runs;
        _pinned = pinned;
        _variants = variants;
        Absent = absent ?? "the scenario did not run";
        SliceCores = sliceCores;
        Machine = machine;
        Settings = settings;
    }

    /// <summary>The machine that measured the run, as the run recorded it.</summary>
    public EnvironmentInfo Machine { get; }

    /// <summary>How the run was made; null where it is not known.</summary>
    public RunSettings? Settings { get; }

    /// <summary>What the claim's conditions are checked against; throws when the scenario did not run.</summary>
    public RunFacts Facts => new(Result, Machine, Settings);

    /// <summary>The processor counts the run swept, each judged apart; empty for one.</summary>
    public IReadOnlyList<int> Cores { get; }

    /// <summary>The processor count this slice of the run is at, where it is one.</summary>
    public int? SliceCores { get; }

    /// <summary>Whether the scenario ran at all.</summary>
    public bool Ran => _result is not null;

    /// <summary>Why there is no result, when there is none.</summary>
    public string Absent { get; }

    /// <summary>The scenario's results; throws when it did not run.</summary>
    public ScenarioResult Result => _result ?? throw new MissingEvidenceException(Absent);

    /// <summary>Whether the run was never made at all (cancelled before it, or not found): a claim that needs it was not put to the test.</summary>
    public bool NotMade { get; private init; }

    /// <summary>The same evidence seen through <paramref name="claim"/>'s conditions: only the parameters they pin can
    /// be read, only the variants they accept are seen.</summary>
    public ClaimEvidence For(Claim claim)
    {
        ArgumentNullException.ThrowIfNull(claim);
        var pinned = claim.Conditions.Select(c => c.Pins).OfType<string>().ToHashSet(StringComparer.Ordinal);
        return new ClaimEvidence(_result, Cores, _slice, _space, Absent, _runs, pinned, [.. claim.Conditions.OfType<VariantRequirement>()],
            SliceCores, Machine, Settings) { NotMade = NotMade };
    }

    /// <summary>The same results, seen as the trials that ran with the runtime seeing <paramref name="cores"/> processors.</summary>
    public ClaimEvidence At(int cores) =>
        new(_result, [], (RuntimeSettings.Cores.Parameter.Name, VariantValue.Of(cores)), _space, Absent, _runs, _pinned, _variants, cores, Machine,
            Settings) { NotMade = NotMade };

    /// <summary>The same results, seen as the variants of the probe's <paramref name="build"/>, named without it.</summary>
    public ClaimEvidence In(ProbeBuild build) =>
        new(_result, Cores, (ProbeBuildValues.Parameter, VariantValue.Of(build.Word())), _space, Absent, _runs, _pinned, _variants, SliceCores,
            Machine, Settings) { NotMade = NotMade };

    /// <summary>The run as one slice at the processor count its trials saw (when they all saw one).</summary>
    public ClaimEvidence Whole() => _result is null ? this
        : new(_result, [], _slice, _space, Absent, _runs, _pinned, _variants, ProcessorCounts(_result) is [var only] ? only : null, Machine,
            Settings) { NotMade = NotMade };

    /// <summary>The whole run, swept over <paramref name="cores"/> only: for a rule that compares the counts itself.</summary>
    public ClaimEvidence Sweeping(IReadOnlyList<int> cores)
        => new(_result, cores, _slice, _space, Absent, _runs, _pinned, _variants, null, Machine, Settings) { NotMade = NotMade };

    /// <summary>
    /// Another of the post's runs, seen at the same processor count, through the same pins, when it meets
    /// <paramref name="conditions"/> (what the rule needs of that run; a run that does not meet them, or was not made,
    /// did not put the claim to the test).
    /// </summary>
    public ClaimEvidence Run(string key, IReadOnlyList<Requirement> conditions)
    {
        ArgumentNullException.ThrowIfNull(conditions);
        if (!_runs.TryGetValue(key, out var run))
        {
            return new(null, [], _slice, _space, $"the run {key} was not made", _runs, _pinned, _variants, SliceCores, Machine,
                Settings) { NotMade = true };
        }

        if (run._result is not null)
        {
            var unmet = conditions.Where(c => c is not CoresRequirement).Select(c => c.Check(run.Facts)).Where(c => !c.Met).ToList();
            if (unmet.Count > 0)
            {
                var needs = string.Join(", ", unmet.Select(c => $"{c.Name} {c.Required} (that run: {c.Actual ?? "none"})"));
                return new(null, [], _slice, _space, $"the run {key} did not meet the claim's conditions: {needs}", _runs, _pinned, _variants,
                    SliceCores, Machine, Settings) { NotMade = true };
            }
        }

        return new(run._result, [], _slice, run._space ?? _space, run.Absent, _runs, _pinned, _variants,
            SliceCores, run.Machine, run.Settings) { NotMade = run.NotMade };
    }

    /// <summary>The processor counts the trials of this slice recorded (their runtime's own <c>processorCount</c>).</summary>
    public IReadOnlyList<int> SeenInSlice() =>
        _result is null ? []
            : [.. _result.Variants.Where(v => _slice is not { } slice || ValueOf(v, slice.Name) == slice.Value).SelectMany(v => v.Trials)
                .Select(t => t.Metrics.TryGetValue(StandardMetrics.ProcessorCountSeen.Id, out var n) ? (int?)(int)n : null).OfType<int>().Distinct()
                    .Order()];

    /// <summary>The processor counts the run's trials saw: the variants' swept <c>cores</c>, or what each trial recorded.</summary>
    public static IReadOnlyList<int> ProcessorCounts(ScenarioResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var swept = result.Variants.Select(v => v.WholeNumber(RuntimeSettings.Cores.Parameter.Name)).OfType<int>().Distinct().Order().ToList();
        if (swept.Count > 0)
        {
            return swept;
        }

        return [.. result.Variants.SelectMany(v => v.Trials)
            .Select(t => t.Metrics.TryGetValue(StandardMetrics.ProcessorCountSeen.Id, out var n) ? (int?)(int)n : null)
            .OfType<int>().Distinct().Order()];
    }

    /// <summary>A parameter of the run, as a number; the rule's claim must pin it.</summary>
    public double Parameter(string name)
    {
        if (_pinned is not null && !_pinned.Contains(name))
        {
            // A rule that reads what its conditions leave free decides on something the claim never fixed.
            throw new InvalidOperationException($"the rule reads the parameter {name}, which its conditions do not pin");
        }

        return Result.Parameters.TryGetValue(name, out var text) && Requirement.Parse(text) is { } value
            ? value
            : throw new MissingEvidenceException($"the run has no parameter {name}");
    }

    /// <summary>The variants' own values of <paramref name="parameter"/> that the claim accepts (fanout's N), in order.</summary>
    public IReadOnlyList<int> VariantValues(string parameter)
    {
        var accepted = _variants.FirstOrDefault(v => v.Name == parameter);
        var values = Result.Variants.Where(v => v.Summary is not null || v.Trials.Count > 0).Select(v => v.WholeNumber(parameter)).OfType<int>()
            .Distinct().Order().ToList();
        values = accepted is null ? values : [.. values.Where(accepted.Values.Contains)];
        return values.Count > 0 ? values
            : throw new MissingEvidenceException($"the run has no variant at the {parameter} the claim names", notRun: true);
    }

    /// <summary>Whether the run measured <paramref name="variant"/> with at least one ok trial.</summary>
    public bool Has(string variant) => Find(variant)?.Summary is not null;

    /// <summary>The variant's results, which must have an ok trial.</summary>
    public VariantResult Variant(string name)
    {
        var variant = Find(name)
            ?? throw new MissingEvidenceException(_result is null ? Absent : $"{name} was not run", notRun: _result is not null || NotMade);
        if (variant.Summary is null)
        {
            var error = variant.Trials.Select(t => t.Error).FirstOrDefault(e => !string.IsNullOrEmpty(e));
            throw new MissingEvidenceException($"{name} had no ok trial{(error is null ? string.Empty : $" ({error})")}");
        }

        return variant;
    }

    /// <summary>The median wall time of the variant's ok trials, with its 95% interval.</summary>
    public Estimate Wall(string variant)
    {
        var walls = Ok(variant).Select(t => t.WallMs).ToList();
        var summary = Variant(variant).Summary!;

        // A result that keeps its summary but not its trials still has its median and interval.
        return walls.Count > 0 ? Estimate.Of(walls) : new Estimate(summary.MedianWallMs, summary.CiLowMs, summary.CiHighMs, summary.Trials);
    }

    /// <summary>The median of a metric over the variant's ok trials that recorded it, with its 95% interval.</summary>
    public Estimate Metric(string variant, Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        var values = Values(variant, metric);
        return values.Count > 0 ? Estimate.Of(values)
            : throw new MissingEvidenceException($"{variant} recorded no {metric.DisplayName.ToLowerInvariant()}");
    }

    /// <summary>The metric's value in each of the variant's ok trials that recorded it.</summary>
    public IReadOnlyList<double> Values(string variant, Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        return [.. Ok(variant).Where(t => t.Metrics.ContainsKey(metric.Id)).Select(t => t.Metrics[metric.Id])];
    }

    /// <summary>
    /// The metric's value in each of the variant's trials that recorded it, failed ones too: for a rule about what a
    /// failure measured (messages lost because processing never caught up).
    /// </summary>
    public IReadOnlyList<double> Recorded(string variant, Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        var found = Find(variant)
            ?? throw new MissingEvidenceException(_result is null ? Absent : $"{variant} was not run", notRun: _result is not null || NotMade);
        return [.. found.Trials.Where(t => t.Metrics.ContainsKey(metric.Id)).Select(t => t.Metrics[metric.Id])];
    }

    /// <summary>
    /// The sum of <paramref name="metrics"/> in the runtime account of the service each of the variant's ok trials
    /// drove (fanout's product service), one value per trial that carried one.
    /// </summary>
    public IReadOnlyList<double> ServiceValues(string variant, params Metric[] metrics) =>
        [.. Ok(variant).Select(t => t.Service?.Metrics).OfType<IReadOnlyDictionary<string, double>>()
            .Where(m => metrics.Any(metric => m.ContainsKey(metric.Id)))
            .Select(m => metrics.Sum(metric => m.TryGetValue(metric.Id, out var v) ? v : 0))];

    /// <summary>The trials of the variant, failed ones too.</summary>
    public IReadOnlyList<TrialResult> Trials(string variant) =>
        (Find(variant)
            ?? throw new MissingEvidenceException(_result is null ? Absent : $"{variant} was not run", notRun: _result is not null
                || NotMade)).Trials;

    /// <summary>The ratio of two variants' median wall times (<paramref name="over"/> / <paramref name="under"/>), with
    /// <see cref="Estimate.Ratio"/>'s interval.</summary>
    public Estimate Ratio(string over, string under) => Estimate.Ratio(Wall(over), Wall(under));

    /// <summary>The ratio of one metric's medians in two variants, with the same interval.</summary>
    public Estimate Ratio(string over, string under, Metric metric) => Estimate.Ratio(Metric(over, metric), Metric(under, metric));

    /// <summary>
    /// What the runtime's account says of the variant's pool, in a few words ("pool peak 61, 58 starvation
    /// adds"); empty when the trials carried no account.
    /// </summary>
    public string Pool(string variant) => PoolText(Ok(variant).Select(t => t.Metrics));

    /// <summary>
    /// The same of the service the variant's trials drove (fanout's product service, where the patterns run);
    /// "no account of the service's pool" when they carried none.
    /// </summary>
    public string ServicePool(string variant) =>
        PoolText(Ok(variant).Select(t => t.Service?.Metrics).OfType<IReadOnlyDictionary<string, double>>()) is { Length: > 0 } text ? text
            : "no account of the service's pool";

    // The medians of the pool's peak and of its starvation and blocking adds over a set of trials' metrics.
    private static string PoolText(IEnumerable<IReadOnlyDictionary<string, double>> trials)
    {
        var all = trials.ToList();
        var parts = new List<string>();
        foreach (var (metric, words) in new[] { (StandardMetrics.PeakPoolThreads, "pool peak {0}"),
            (StandardMetrics.StarvationInjections, "{0} starvation adds"), (StandardMetrics.BlockingInjections, "{0} blocking adds") })
        {
            var values = all.Where(m => m.ContainsKey(metric.Id)).Select(m => m[metric.Id]).ToList();
            if (values.Count > 0 && (metric != StandardMetrics.BlockingInjections || values.Any(v => v > 0)))
            {
                parts.Add(string.Format(CultureInfo.InvariantCulture, words, Count(MedianEstimate.MedianOf(values))));
            }
        }

        return string.Join(", ", parts);
    }

    /// <summary>A wall time as a reader likes it: 49.6 ms, 1055 ms, 10.3 s.</summary>
    public static string Time(double ms) => NumberText.Time(ms);

    /// <summary>A median wall time with its interval: "10.3 s (10.1-10.5)".</summary>
    public static string Time(Estimate wall)
        => $"{Time(wall.Value)} ({NumberText.TimeLike(wall.Low, wall.Value)}-{NumberText.TimeLike(wall.High, wall.Value)})";

    /// <summary>A count, without decimals when whole.</summary>
    public static string Count(double value) => NumberText.Count(value);

    /// <summary>A count's median with its interval: "61 (58-63)".</summary>
    public static string Count(Estimate value)
        => value.Low == value.High ? Count(value.Value) : $"{Count(value.Value)} ({Count(value.Low)}-{Count(value.High)})";

    /// <summary>A ratio as a multiple, with its interval: "12.1x (11.8-12.5)", "1.07x (1.03-1.12)".</summary>
    public static string Times(Estimate ratio) => $"{Multiple(ratio.Value)}x ({Multiple(ratio.Low)}-{Multiple(ratio.High)})";

    /// <summary>
    /// A multiple as a verdict's figures are written: three significant digits ("0.952", "1.07", "12.8", "259"), so
    /// a figure beside a rule's edge (1.1, 0.97, 0.45) shows which side of it the run fell, where the reports' two
    /// ("1.1") could not.
    /// </summary>
    public static string Multiple(double value)
    {
        var size = Math.Abs(value);
        return value.ToString(size >= 100 ? "0" : size >= 10 ? "0.0" : size >= 1 ? "0.00" : "0.000", CultureInfo.InvariantCulture);
    }

    /// <summary>A rate per second with thousands apart: "9,529".</summary>
    public static string Rate(double perSecond) => NumberText.Rate(perSecond);

    private List<TrialResult> Ok(string variant) => [.. Variant(variant).Trials.Where(t => t.Status == TrialStatus.Ok)];

    private VariantResult? Find(string name)
    {
        var found = _slice is not { } slice ? _result?.Variants.FirstOrDefault(v => v.Name == name) : InSlice(name, slice.Name, slice.Value);
        if (found is null)
        {
            return null;
        }

        // A variant at a value the claim does not name (fanout at N = 15 for a claim about 100) is not evidence for it.
        foreach (var requirement in _variants)
        {
            if (found.WholeNumber(requirement.Name) is { } value && !requirement.Values.Contains(value))
            {
                throw new MissingEvidenceException($"{name} is not at the {requirement.Name} the claim names ({requirement.Required})", notRun: true);
            }
        }

        return found;
    }

    // In a slice at one value of a parameter (a processor count, a probe's build), the variant a rule names is the
    // one at that value whose key, without the parameter, the scenario's space names so: channel is channel:cores=8
    // in the slice at 8 cores, and channel:build=native-aot in the native AOT build.
    private VariantResult? InSlice(string name, string parameter, VariantValue value)
    {
        // Evidence made without the space (a test's made-up run) names nothing in a slice.
        if (_space is not { } space)
        {
            return null;
        }

        return _result?.Variants.FirstOrDefault(v =>
            space.KeyOf(v) is { } key && key.Values.TryGetValue(parameter, out var at) && at == value
                && space.NameOf(key.Without(parameter)) == name);
    }

    // A variant's value of a parameter, as recorded, or as its name says where the file kept the name alone.
    private VariantValue? ValueOf(VariantResult variant, string parameter) =>
        variant.Parameters.TryGetValue(parameter, out var text) ? VariantValue.Read(text)
        : _space?.KeyOf(variant) is { } key && key.Values.TryGetValue(parameter, out var value) ? value
        : null;
}
