using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>A column of the results table: what it shows, its unit, and which direction is better.</summary>
/// <param name="Id">Stable identifier, used as the CSV header.</param>
/// <param name="Header">What a reader sees.</param>
/// <param name="Unit">Unit of the value, empty when it has none.</param>
/// <param name="HigherIsBetter">Whether a larger value is better; null when neither is.</param>
/// <param name="Format">Renders the cell for a variant of a scenario; empty when there is nothing to show.</param>
public sealed record ResultColumn(string Id, string Header, string Unit, bool? HigherIsBetter, Func<ScenarioResult, VariantResult, string> Format)
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The columns every table shows, in order.</summary>
    public static IReadOnlyList<ResultColumn> Standard { get; } =
    [
        new("variant", "Variant", string.Empty, null, (_, v) => v.Name),
        new("status", "Status", string.Empty, null, (_, v) => v.Status.ToText()),
        new("medianWallMs", "Median", "ms", false, (_, v) => Ms(v.Summary?.MedianWallMs)),
        new("ci95Ms", "95% CI", "ms", null, (_, v) => v.Summary is { } s ? $"{Ms(s.CiLowMs)}-{Ms(s.CiHighMs)}" : string.Empty),
        new("efficiency", "Efficiency", string.Empty, true, (_, v) => v.Summary?.Efficiency is { } e ? e.ToString("0.00", Invariant) : string.Empty),
        new("ratioToBaseline", "Ratio", string.Empty, false, (_, v) => v.Summary?.RatioToBaseline is { } r ? r.ToString("0.00", Invariant) : string.Empty),
        new("spread", "Max/min", string.Empty, false, (_, v) => v.Summary is { } s ? s.Spread.ToString("0.00", Invariant) : string.Empty),
        new("medianPeakThreads", "Threads", string.Empty, false, (_, v) => Count(v.Summary?.MedianPeakThreads)),
        new("medianPeakPoolThreads", "Pool threads", string.Empty, false, (_, v) => Count(v.Summary?.MedianPeakPoolThreads)),
        new("medianPeakQueueLength", "Peak queue", string.Empty, false, (_, v) => Count(v.Summary?.MedianPeakQueueLength)),
        new("medianCpuMs", "CPU", "ms", false, (_, v) => Ms(v.Summary?.MedianCpuMs)),
        new("medianP99Ms", "p99 item", "ms", false, (_, v) => Ms(v.Summary?.MedianP99Ms)),
        new("medianAllocatedBytes", "Allocated", "KiB", false, (_, v) => v.Summary is { } s ? (s.MedianAllocatedBytes / 1024).ToString("0", Invariant) : string.Empty),
        new("trials", "Trials ok", string.Empty, null, (_, v) => $"{v.Trials.Count(t => t.Status == TrialStatus.Ok)}/{v.Trials.Count}"),
        new("flags", "Flags", string.Empty, false, Flags),
    ];

    /// <summary>
    /// The columns of one scenario's table: the standard ones with the scenario's reported checks (such as
    /// messages per second) before the trial count.
    /// </summary>
    public static IReadOnlyList<ResultColumn> For(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (scenario.ReportedChecks.Count == 0)
        {
            return Standard;
        }

        var columns = Standard.ToList();
        columns.InsertRange(columns.FindIndex(c => c.Id == "trials"), scenario.ReportedChecks.Select(CheckColumn));
        return columns;
    }

    /// <summary>A column showing a trial check's median over a variant's ok trials.</summary>
    public static ResultColumn CheckColumn(ReportedCheck check)
    {
        ArgumentNullException.ThrowIfNull(check);
        return new ResultColumn("check:" + check.Name, check.Header, check.Unit, check.HigherIsBetter, (_, v) => CheckMedian(v, check) switch
        {
            null => string.Empty,
            double.PositiveInfinity => "never",
            var median => Number(median.Value),
        });
    }

    /// <summary>
    /// The median of a check over a variant's ok trials that recorded it; null when none did. Where
    /// negative means never, those trials count as infinitely late, and an infinite median means never.
    /// </summary>
    public static double? CheckMedian(VariantResult variant, ReportedCheck check)
    {
        ArgumentNullException.ThrowIfNull(variant);
        ArgumentNullException.ThrowIfNull(check);
        var values = variant.Trials
            .Where(t => t.Status == TrialStatus.Ok && t.Checks is not null && t.Checks.ContainsKey(check.Name))
            .Select(t => t.Checks![check.Name])
            .Select(value => check.NegativeMeansNever && value < 0 ? double.PositiveInfinity : value)
            .ToList();
        return values.Count == 0 ? null : Statistics.MedianEstimate.MedianOf(values);
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
    /// The scenario's flagged checks (counts that should be 0, such as hosts misclassified) that are not 0
    /// in this variant's ok trials, as their medians: <c>misclassified 7</c>.
    /// </summary>
    private static string Flags(ScenarioResult scenario, VariantResult variant)
    {
        var ok = variant.Trials.Where(t => t.Status == TrialStatus.Ok && t.Checks is not null).ToList();
        var flags = new List<string>();
        foreach (var check in scenario.FlaggedChecks)
        {
            var values = ok.Where(t => t.Checks!.ContainsKey(check)).Select(t => t.Checks![check]).ToList();
            var median = Statistics.MedianEstimate.MedianOf(values);
            if (median != 0)
            {
                flags.Add($"{check} {median.ToString("0.#", Invariant)}");
            }
        }

        return string.Join(", ", flags);
    }

    private static string Ms(double? value) => value switch
    {
        null => string.Empty,
        >= 100 => value.Value.ToString("0", Invariant),
        >= 10 => value.Value.ToString("0.0", Invariant),
        _ => value.Value.ToString("0.00", Invariant),
    };

    private static string Number(double value) => Math.Abs(value) switch
    {
        >= 100 => value.ToString("0", Invariant),
        >= 10 => value.ToString("0.0", Invariant),
        _ => value.ToString("0.##", Invariant),
    };

    private static string Count(double? value) => value?.ToString("0.#", Invariant) ?? string.Empty;
}
