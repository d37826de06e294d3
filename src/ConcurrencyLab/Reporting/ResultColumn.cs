using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>A column of the results table: what it shows, its unit, which direction is better, and where it is shown.</summary>
/// <param name="Id">Stable identifier: a metric's id, or one of the table's own (<c>variant</c>, <c>status</c>, <c>flags</c>...).</param>
/// <param name="Header">What a reader sees.</param>
/// <param name="Unit">Unit of the value, empty when it has none.</param>
/// <param name="Direction">Which way is better.</param>
/// <param name="Visibility">Whether the console table shows it too, or only Markdown and HTML.</param>
/// <param name="Format">Renders the cell for a variant of a scenario; empty when there is nothing to show.</param>
internal sealed record ResultColumn(
    string Id,
    string Header,
    string Unit,
    MetricDirection Direction,
    MetricVisibility Visibility,
    Func<ScenarioResult, VariantResult, string> Format)
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The columns a table opens with: what ran, and its wall time against the ideal and the baseline.</summary>
    private static readonly ResultColumn[] Leading =
    [
        new("variant", "Variant", string.Empty, MetricDirection.Neither, MetricVisibility.Everywhere, (_, v) => v.Name),
        new("status", "Status", string.Empty, MetricDirection.Neither, MetricVisibility.Reports, (_, v) => v.Status.ToText()),
        new(
            "medianWallMs", "Median", StandardMetrics.WallTime.Unit, StandardMetrics.WallTime.Direction, MetricVisibility.Everywhere,
                (_, v) => Ms(v.Summary?.MedianWallMs)),
        new(
            "ci95Ms", "95% CI", StandardMetrics.WallTime.Unit, MetricDirection.Neither, MetricVisibility.Everywhere, (_, v) => v.Summary is { } s
                ? $"{Ms(s.CiLowMs)}-{Ms(s.CiHighMs)}" : string.Empty),
        new(
            "efficiency", "Efficiency", string.Empty, MetricDirection.HigherIsBetter, MetricVisibility.Everywhere,
                (_, v) => v.Summary?.ShownEfficiency is { } e ? e.ToString("0.00", Invariant) : string.Empty),
        new(
            "ratioToBaseline", "Ratio", string.Empty, MetricDirection.LowerIsBetter, MetricVisibility.Everywhere,
                (_, v) => v.Summary?.RatioToBaseline is { } r ? r.ToString("0.00", Invariant) : string.Empty),
        new(
            "spread", "Max/min", string.Empty, MetricDirection.LowerIsBetter, MetricVisibility.Reports, (_, v) => v.Summary is { } s
                ? s.Spread.ToString("0.00", Invariant) : string.Empty),
    ];

    /// <summary>The columns a table closes with: how many trials were ok, and what was flagged.</summary>
    private static readonly ResultColumn[] Trailing =
    [
        new(
            "trials", "Trials ok", string.Empty, MetricDirection.Neither, MetricVisibility.Everywhere,
                (_, v) => $"{v.Trials.Count(t => t.Status == TrialStatus.Ok)}/{v.Trials.Count}"),
        new("flags", "Flags", string.Empty, MetricDirection.LowerIsBetter, MetricVisibility.Everywhere, Flags),
    ];

    /// <summary>
    /// The columns of one scenario's table: what ran and its wall time, then every metric shown in reports (the
    /// lab's own, then the scenario's), then the trial count and the flags.
    /// </summary>
    public static IReadOnlyList<ResultColumn> For(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        // A metric no variant recorded (the runtime's account, with events off or in a file from before; the machine's,
        // off Linux or in a file from before; the items in flight, where the scenario does not time its items) has no column.
        return
        [
            .. Leading,
            .. MetricsOf(scenario)
                .Where(m => m.Visibility >= MetricVisibility.Reports
                    && ((m.Account is null && !StandardMetrics.WhereRecorded.Contains(m))
                        || scenario.Variants.Any(v => v.Summary?.Median(m) is not null))).Select(MetricColumn),
            .. Trailing,
        ];
    }

    /// <summary>Every metric a scenario's trials may hold: the lab's own, then the scenario's.</summary>
    public static IEnumerable<Metric> MetricsOf(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return scenario.AllMetrics();
    }

    /// <summary>A column showing a metric's median over a variant's ok trials (<c>never</c> where the metric says so).</summary>
    public static ResultColumn MetricColumn(Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        return new ResultColumn(metric.Id, metric.DisplayName, metric.Unit, metric.Direction, metric.Visibility, (_, v) =>
            v.Summary?.Median(metric) is { } median ? metric.Write(median) : string.Empty);
    }

    /// <summary>The header with its unit, such as <c>Median (ms)</c>.</summary>
    public string HeaderWithUnit => Unit.Length == 0 ? Header : $"{Header} ({Unit})";

    /// <summary>Variants ordered for a table: successful ones by median wall time, then the rest by name.</summary>
    public static IReadOnlyList<VariantResult> Order(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return
        [
            .. scenario.Variants.Where(v => v.Summary is not null).OrderBy(v => v.Summary!.MedianWallMs),
            .. scenario.Variants.Where(v => v.Summary is null).OrderBy(v => v.Name, StringComparer.Ordinal),
        ];
    }

    /// <summary>The variant with the lowest median wall time, if any succeeded.</summary>
    public static VariantResult? Best(ScenarioResult scenario) => Order(scenario).FirstOrDefault(v => v.Summary is not null);

    /// <summary>
    /// The metrics that should be 0 (such as hosts misclassified) and are not, in this variant's medians:
    /// <c>misclassified 7</c>.
    /// </summary>
    private static string Flags(ScenarioResult scenario, VariantResult variant) => string.Join(", ", scenario.WrongMetrics(variant)
        .Select(m => $"{m.Id} {variant.Summary!.Median(m)!.Value.ToString("0.#", Invariant)}"));

    private static string Ms(double? value) => value is { } ms ? StandardMetrics.WallTime.Write(ms) : string.Empty;
}
