using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Statistics;

namespace ConcurrencyLab.Reproduction;

/// <summary>
/// What a rule reads: one run's results, seen at one processor count when the run swept several. Every
/// figure is a statistic the lab already keeps (a median with its 95% interval, a ratio of two such medians);
/// asking for a variant that has no ok trial throws <see cref="MissingEvidenceException"/>, so a rule never
/// decides on what was not measured.
/// </summary>
internal sealed class ClaimEvidence
{
    private readonly ScenarioResult? _result;
    private readonly string _suffix;
    private readonly IReadOnlyDictionary<string, ClaimEvidence> _runs;

    /// <summary>The evidence of <paramref name="result"/>; null when the run measured nothing of the scenario.</summary>
    /// <param name="result">The scenario's results in the run, or null when it did not run.</param>
    /// <param name="cores">The processor counts the run swept; empty when it ran on the machine's own.</param>
    /// <param name="absent">Why there is no result, when there is none.</param>
    /// <param name="runs">The post's other runs by key, for a rule that compares two (a case run first and last).</param>
    public ClaimEvidence(ScenarioResult? result, IReadOnlyList<int> cores, string? absent = null, IReadOnlyDictionary<string, ClaimEvidence>? runs = null)
        : this(result, cores, string.Empty, absent, runs ?? new Dictionary<string, ClaimEvidence>())
    {
    }

    private ClaimEvidence(ScenarioResult? result, IReadOnlyList<int> cores, string suffix, string? absent, IReadOnlyDictionary<string, ClaimEvidence> runs)
    {
        _result = result;
        Cores = cores;
        _suffix = suffix;
        _runs = runs;
        Absent = absent ?? "the scenario did not run";
    }

    /// <summary>The processor counts the run swept, each judged apart; empty for one.</summary>
    public IReadOnlyList<int> Cores { get; }

    private string Absent { get; }

    /// <summary>The scenario's results; throws when it did not run.</summary>
    public ScenarioResult Result => _result ?? throw new MissingEvidenceException(Absent);

    /// <summary>The same results, seen as the trials that ran with the runtime seeing <paramref name="cores"/> processors.</summary>
    public ClaimEvidence At(int cores) => new(_result, [], $":{RuntimeSettings.Cores.Parameter.Name}={cores.ToString(CultureInfo.InvariantCulture)}", Absent, _runs);

    /// <summary>Another of the post's runs, seen at the same processor count as this one.</summary>
    public ClaimEvidence Run(string key) =>
        _runs.TryGetValue(key, out var run) ? new(run._result, [], _suffix, run.Absent, _runs) : new(null, [], _suffix, $"the run {key} was not made", _runs) { NotMade = true };

    // A run this reproduction (or plain run) did not make at all: a claim that needs it was not put to the test.
    private bool NotMade { get; init; }

    /// <summary>A whole-number parameter of the run, as it used it.</summary>
    public double Parameter(string name) =>
        Result.Parameters.TryGetValue(name, out var text) && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value)
            ? value
            : throw new MissingEvidenceException($"the run has no parameter {name}");

    /// <summary>Whether the run measured <paramref name="variant"/> with at least one ok trial.</summary>
    public bool Has(string variant) => Find(variant)?.Summary is not null;

    /// <summary>The variant's results, which must have an ok trial.</summary>
    public VariantResult Variant(string name)
    {
        var variant = Find(name) ?? throw new MissingEvidenceException(_result is null ? Absent : $"{name} was not run", notRun: _result is not null || NotMade);
        if (variant.Summary is null)
        {
            var error = variant.Trials.Select(t => t.Error).FirstOrDefault(e => !string.IsNullOrEmpty(e));
            throw new MissingEvidenceException($"{name} had no ok trial{(error is null ? string.Empty : $" ({error})")}");
        }

        return variant;
    }

    /// <summary>The median wall time of the variant's ok trials, with its 95% interval.</summary>
    public MedianEstimate Wall(string variant)
    {
        var walls = Ok(variant).Select(t => t.WallMs).ToList();
        var summary = Variant(variant).Summary!;

        // A result that keeps its summary but not its trials still has its median and interval.
        return walls.Count > 0 ? MedianEstimate.Of(walls) : new MedianEstimate(summary.MedianWallMs, summary.CiLowMs, summary.CiHighMs);
    }

    /// <summary>The median of a metric over the variant's ok trials that recorded it, with its 95% interval.</summary>
    public MedianEstimate Metric(string variant, Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        var values = Values(variant, metric);
        return values.Count > 0 ? MedianEstimate.Of(values) : throw new MissingEvidenceException($"{variant} recorded no {metric.DisplayName.ToLowerInvariant()}");
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
        var found = Find(variant) ?? throw new MissingEvidenceException(_result is null ? Absent : $"{variant} was not run", notRun: _result is not null || NotMade);
        return [.. found.Trials.Where(t => t.Metrics.ContainsKey(metric.Id)).Select(t => t.Metrics[metric.Id])];
    }

    /// <summary>
    /// The ratio of two variants' median wall times (<paramref name="over"/> / <paramref name="under"/>) with an
    /// interval that holds both medians' intervals at once: from the lowest over the highest to the highest
    /// over the lowest. Wider than an exact interval, so a rule that needs it clear of a value errs towards
    /// "not shown".
    /// </summary>
    public RatioEstimate Ratio(string over, string under) => RatioEstimate.Of(Wall(over), Wall(under));

    /// <summary>The ratio of one metric's medians in two variants, with the interval <see cref="Ratio(string, string)"/> takes.</summary>
    public RatioEstimate Ratio(string over, string under, Metric metric) => RatioEstimate.Of(Metric(over, metric), Metric(under, metric));

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
        PoolText(Ok(variant).Select(t => t.Service?.Metrics).OfType<IReadOnlyDictionary<string, double>>()) is { Length: > 0 } text ? text : "no account of the service's pool";

    // The medians of the pool's peak and of its starvation and blocking adds over a set of trials' metrics.
    private static string PoolText(IEnumerable<IReadOnlyDictionary<string, double>> trials)
    {
        var all = trials.ToList();
        var parts = new List<string>();
        foreach (var (metric, words) in new[] { (StandardMetrics.PeakPoolThreads, "pool peak {0}"), (StandardMetrics.StarvationInjections, "{0} starvation adds"), (StandardMetrics.BlockingInjections, "{0} blocking adds") })
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
    public static string Time(double ms) => ms >= 10_000
        ? (ms / 1000).ToString("0.0", CultureInfo.InvariantCulture) + " s"
        : ms >= 100 ? ms.ToString("0", CultureInfo.InvariantCulture) + " ms" : ms.ToString("0.0", CultureInfo.InvariantCulture) + " ms";

    /// <summary>A median wall time with its interval: "10.3 s (10.1-10.5)".</summary>
    public static string Time(MedianEstimate wall) => $"{Time(wall.Median)} ({Bare(wall.Low, wall.Median)}-{Bare(wall.High, wall.Median)})";

    /// <summary>A count, without decimals when whole.</summary>
    public static string Count(double value) => value.ToString(Math.Abs(value) >= 100 ? "0" : "0.#", CultureInfo.InvariantCulture);

    /// <summary>A count's median with its interval: "61 (58-63)".</summary>
    public static string Count(MedianEstimate value) => value.Low == value.High ? Count(value.Median) : $"{Count(value.Median)} ({Count(value.Low)}-{Count(value.High)})";

    // An interval's end in the unit its median is written in.
    private static string Bare(double ms, double median) => median >= 10_000
        ? (ms / 1000).ToString("0.0", CultureInfo.InvariantCulture)
        : median >= 100 ? ms.ToString("0", CultureInfo.InvariantCulture) : ms.ToString("0.0", CultureInfo.InvariantCulture);

    private List<TrialResult> Ok(string variant) => [.. Variant(variant).Trials.Where(t => t.Status == TrialStatus.Ok)];

    private VariantResult? Find(string name) => _result?.Variants.FirstOrDefault(v => v.Name == name + _suffix);
}

/// <summary>A ratio of two medians with an interval that holds both medians' 95% intervals.</summary>
/// <param name="Value">The ratio of the medians.</param>
/// <param name="Low">The lowest the ratio could be: the lower end over the upper end.</param>
/// <param name="High">The highest it could be: the upper end over the lower end.</param>
internal readonly record struct RatioEstimate(double Value, double Low, double High)
{
    public static RatioEstimate Of(MedianEstimate over, MedianEstimate under) =>
        under.Median <= 0 || under.Low <= 0
            ? throw new MissingEvidenceException("a ratio over a median of 0 says nothing")
            : new RatioEstimate(over.Median / under.Median, over.Low / under.High, over.High / under.Low);

    /// <summary>Whether the whole interval is above <paramref name="value"/>.</summary>
    public bool Above(double value) => Low > value;

    /// <summary>Whether the whole interval is below <paramref name="value"/>.</summary>
    public bool Below(double value) => High < value;

    /// <summary>The ratio as a multiple, with its interval: "12.1x (11.8-12.5)".</summary>
    public string Times => $"{Number(Value)}x ({Number(Low)}-{Number(High)})";

    private static string Number(double value) => value.ToString(value >= 10 ? "0" : value >= 1 ? "0.0" : "0.00", CultureInfo.InvariantCulture);
}
