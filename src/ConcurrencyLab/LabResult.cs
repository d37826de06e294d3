using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Statistics;

namespace ConcurrencyLab;

/// <summary>
/// What <see cref="Lab.MeasureAsync(IReadOnlyList{Scenario}, Running.RunOptions, CancellationToken)"/> measured:
/// each scenario's variants with their figures and the answer, as data; the whole record (every trial, the
/// runtime's accounts, the reasons' figures) as <c>results.json</c>, whose schema docs/results.md describes, through
/// <see cref="ToJson"/> or <see cref="WriteReports"/>.
/// </summary>
public sealed class LabResult
{
    internal LabResult(RunResult record)
    {
        ArgumentNullException.ThrowIfNull(record);
        Record = record;
        Scenarios = [.. record.Scenarios.Select(s => new ScenarioAnswer(s))];
    }

    /// <summary>Each scenario run, in the order it ran.</summary>
    public IReadOnlyList<ScenarioAnswer> Scenarios { get; }

    /// <summary>Whether the run was cancelled before its plan was done; every trial measured before is here.</summary>
    public bool Cancelled => Record.Cancelled;

    /// <summary>The results contract the lab's reports are made from, which stays internal so it can change in step with its schema.</summary>
    internal RunResult Record { get; }

    /// <summary>The run as <c>results.json</c> holds it, which <c>conclab report</c> and <c>conclab compare</c> read.</summary>
    public string ToJson()
    {
        using var writer = new StringWriter();
        JsonExporter.Default.Export(Record, writer);
        return writer.ToString();
    }

    /// <summary>
    /// Writes <c>results.json</c>, <c>results.md</c>, <c>results.csv</c> and <c>report.html</c> into
    /// <paramref name="folder"/>, and the charts into its <c>charts</c> folder in each of <paramref name="chartFormats"/>
    /// (SVG when none are given), as <c>conclab run --out</c> does; returns the paths written. One file's failure does
    /// not stop the others: an <see cref="IOException"/> naming each failure comes once the rest are written.
    /// </summary>
    public IReadOnlyList<string> WriteReports(string folder, IEnumerable<ChartFormat>? chartFormats = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        var failures = Exporters.ExportAll(Record, folder, Exporters.Default, chartFormats ?? [ChartFormat.Svg], out var written);
        return failures.Count == 0 ? written : throw new IOException(string.Join(Environment.NewLine, failures));
    }
}

/// <summary>One scenario's variants, each with its figures, and what the lab answers from them.</summary>
public sealed class ScenarioAnswer
{
    internal ScenarioAnswer(ScenarioResult result)
    {
        Name = result.Name;
        Parameters = result.Parameters;
        IdealMs = result.IdealMs;
        Variants = [.. result.Variants.Select(v => new VariantFigures(v))];
        Baseline = Variants.FirstOrDefault(v => v.Name == result.Baseline);
        Answers = [.. (result.Recommendations ?? []).Select(r => new Answer(r, result, Variants))];
    }

    /// <summary>The scenario's name, as on the command line.</summary>
    public string Name { get; }

    /// <summary>The scenario's parameters as the run used them, by name, as text.</summary>
    public IReadOnlyDictionary<string, string> Parameters { get; }

    /// <summary>The lower bound on wall time no variant can beat, in milliseconds.</summary>
    public double IdealMs { get; }

    /// <summary>The variant the ratios are computed against; null where it did not run.</summary>
    public VariantFigures? Baseline { get; }

    /// <summary>Each variant run, with its figures.</summary>
    public IReadOnlyList<VariantFigures> Variants { get; }

    /// <summary>
    /// The answer: one where the variants all did the same work, one per group of like work otherwise (a sweep's
    /// values); empty where no variant had an ok trial.
    /// </summary>
    public IReadOnlyList<Answer> Answers { get; }
}

/// <summary>One variant's figures over its ok trials.</summary>
public sealed class VariantFigures
{
    internal VariantFigures(VariantResult result)
    {
        Name = result.Name;
        Key = VariantKey.Recorded(result);
        Trials = result.Trials.Count;
        OkTrials = result.Trials.Count(t => t.Status == TrialStatus.Ok);
        if (result.Summary is { } summary)
        {
            WallMs = new MedianEstimate(summary.MedianWallMs, summary.CiLowMs, summary.CiHighMs);
            RatioToBaseline = summary.RatioToBaseline;
            Efficiency = summary.ShownEfficiency;
            Medians = summary.Medians;
        }
    }

    /// <summary>The variant's name, as the reports and the command line write it.</summary>
    public string Name { get; }

    /// <summary>The variant's identity: its family, form and parameters' values.</summary>
    public VariantKey? Key { get; }

    /// <summary>The measured trials, warmups left out.</summary>
    public int Trials { get; }

    /// <summary>The trials that were ok: the figures are theirs.</summary>
    public int OkTrials { get; }

    /// <summary>The median wall time with its 95% confidence interval, in milliseconds; null when no trial was ok.</summary>
    public MedianEstimate? WallMs { get; }

    /// <summary>The median wall time over the baseline's; null where the baseline had no ok trial.</summary>
    public double? RatioToBaseline { get; }

    /// <summary>The ideal over the median wall time: 1 is the lower bound reached; null where not known.</summary>
    public double? Efficiency { get; }

    /// <summary>
    /// The median over the ok trials of every metric they recorded, by id (<c>wallMs</c>, <c>peakThreads</c>,
    /// your workload's own): what thresholds read.
    /// </summary>
    public IReadOnlyDictionary<string, double> Medians { get; } = new Dictionary<string, double>();

    /// <inheritdoc/>
    public override string ToString() => Name;
}

/// <summary>What the lab recommends among variants that did the same work, and why, as figures and as sentences.</summary>
public sealed class Answer
{
    internal Answer(Recommendation recommendation, ScenarioResult scenario, IReadOnlyList<VariantFigures> variants)
    {
        VariantFigures Find(string name) => variants.First(v => v.Name == name);
        Group = recommendation.Group;
        Fastest = Find(recommendation.Fastest);
        Use = recommendation.Use is { } use ? Find(use) : null;
        Avoid = [.. recommendation.Avoid.Select(
            a => new Avoided(Find(a.Variant), RecommendationText.Reason(a, recommendation, scenario).Text))];
        Lines = [.. RecommendationText.Lines(recommendation, scenario).Select(s => s.Text)];
    }

    /// <summary>The like work this answer is for, as the reports write it (<c>wait-ms=30</c>); null where the run had one.</summary>
    public string? Group { get; }

    /// <summary>The variant with the least median wall time.</summary>
    public VariantFigures Fastest { get; }

    /// <summary>
    /// The variant to use: the fastest, or one as fast within the noise that costs less (fewer threads, less CPU);
    /// null where none can be recommended (every variant failed or blocked).
    /// </summary>
    public VariantFigures? Use { get; }

    /// <summary>The variants to avoid, each with the reason the run's own figures give.</summary>
    public IReadOnlyList<Avoided> Avoid { get; }

    /// <summary>The answer as the console and the reports say it, a sentence a line.</summary>
    public IReadOnlyList<string> Lines { get; }
}

/// <summary>A variant to avoid, and why, in the words of the reports.</summary>
/// <param name="Variant">The variant.</param>
/// <param name="Why">The reason, with the figures of the run that show it.</param>
public sealed record Avoided(VariantFigures Variant, string Why);
