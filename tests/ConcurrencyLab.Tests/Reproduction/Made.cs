using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Tests.Reproduction;

/// <summary>Made-up results for the claims' rules: variants with the wall times and metrics a test chooses.</summary>
internal static class Made
{
    /// <summary>A variant of three ok trials around <paramref name="ms"/> (2% apart), each with the metrics given.</summary>
    public static VariantResult V(string name, double ms, params (Metric Metric, double Value)[] metrics) =>
        Trials(name, [ms * 0.98, ms, ms * 1.02], metrics.Select(m => (m.Metric, (IReadOnlyList<double>)[m.Value, m.Value, m.Value])).ToArray());

    /// <summary>A variant of one ok trial per wall time, each metric given a value per trial.</summary>
    public static VariantResult Trials(string name, IReadOnlyList<double> walls, params (Metric Metric, IReadOnlyList<double> Values)[] metrics)
    {
        var trials = walls.Select((wall, i) =>
        {
            var values = new Dictionary<string, double> { [StandardMetrics.WallTime.Id] = wall };
            foreach (var (metric, each) in metrics)
            {
                values[metric.Id] = each[i];
            }

            return new TrialResult { Repeat = i, Metrics = values, Isolated = true };
        }).ToList();
        return WithTrials(name, trials);
    }

    /// <summary>A variant whose every trial failed.</summary>
    public static VariantResult Failed(string name) =>
        WithTrials(name, [TrialResult.Unmeasured(TrialStatus.Failed, "the service did not start", isolated: true)]);

    /// <summary>A scenario's results with these parameters and variants.</summary>
    public static ScenarioResult Result(IReadOnlyDictionary<string, string> parameters, params VariantResult[] variants) => new()
    {
        Name = "made",
        Parameters = parameters,
        IdealMs = 0,
        IdealReason = "none",
        Baseline = variants.Length > 0 ? variants[0].Name : "none",
        Variants = variants,
    };

    /// <summary>The evidence of one run on the machine's cores.</summary>
    public static ClaimEvidence Evidence(IReadOnlyDictionary<string, string> parameters, params VariantResult[] variants) =>
        new(Result(parameters, variants), []);

    /// <summary>The evidence of a run swept over <paramref name="cores"/>, its variants named as <paramref name="scenario"/> names them.</summary>
    public static ClaimEvidence Swept(Scenario scenario, ScenarioResult result, IReadOnlyList<int> cores, EnvironmentInfo? machine = null) =>
        new(result, cores, space: RecordedVariants.SpaceOf(scenario, result), machine: machine);

    /// <summary>No parameters.</summary>
    public static IReadOnlyDictionary<string, string> None { get; } = new Dictionary<string, string>();

    /// <summary>Parameters as name, value pairs.</summary>
    public static IReadOnlyDictionary<string, string> With(params (string Name, object Value)[] values) =>
        values.ToDictionary(v => v.Name, v => Convert.ToString(v.Value, CultureInfo.InvariantCulture)!);

    /// <summary>The variant as a sweep over processor counts names it: <c>channel:cores=8</c>.</summary>
    public static VariantResult AtCores(this VariantResult variant, int cores) =>
        variant with
        {
            Name = $"{variant.Name}:cores={cores.ToString(CultureInfo.InvariantCulture)}",
            Parameters = new Dictionary<string, string>(variant.Parameters) { ["cores"] = cores.ToString(CultureInfo.InvariantCulture) },
        };

    /// <summary>The variant with <paramref name="metric"/> at <paramref name="value"/> in every trial, summarised again.</summary>
    public static VariantResult WithMetric(this VariantResult variant, Metric metric, double value) =>
        WithTrials(variant.Name, [.. variant.Trials.Select(t => t with { Metrics = new Dictionary<string, double>(t.Metrics) { [metric.Id] = value } })]) with { Parameters = variant.Parameters };

    /// <summary>The variant with <paramref name="metric"/> at one of <paramref name="values"/> in each trial, in order, summarised again.</summary>
    public static VariantResult WithMetricEach(this VariantResult variant, Metric metric, IReadOnlyList<double> values) =>
        WithTrials(variant.Name, [.. variant.Trials.Select((t, i) => t with { Metrics = new Dictionary<string, double>(t.Metrics) { [metric.Id] = values[i] } })]) with { Parameters = variant.Parameters };

    /// <summary>The variant with every trial carrying the account of a service it drove, with these metrics.</summary>
    public static VariantResult WithService(this VariantResult variant, params (Metric Metric, double Value)[] metrics) =>
        variant with
        {
            Trials = [.. variant.Trials.Select(t => t with { Service = new ServiceMeasurements { Name = "product", Metrics = metrics.ToDictionary(m => m.Metric.Id, m => m.Value) } })],
        };

    private static VariantResult WithTrials(string name, IReadOnlyList<TrialResult> trials) => new()
    {
        Name = name,
        Description = name,
        // The @N of a name, as hash (workers) and fanout (requests) record it.
        Parameters = name.Split('@') is [_, var n] ? new Dictionary<string, string> { ["workers"] = n.Split('-')[0], ["requests"] = n.Split('-')[0] } : new Dictionary<string, string>(),
        Status = Summarizer.VariantStatus(trials),
        Trials = trials,
        Summary = Summarizer.Summarise(trials, 0, null, []),
    };
}
