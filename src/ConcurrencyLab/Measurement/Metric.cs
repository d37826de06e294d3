using System.Globalization;
using System.Text.Json.Serialization;

namespace ConcurrencyLab.Measurement;

/// <summary>Which way a metric is better.</summary>
public enum MetricDirection
{
    /// <summary>Neither way: more is not better or worse in itself (pool polls, cores used).</summary>
    Neither,

    /// <summary>Less is better (time, threads, errors).</summary>
    LowerIsBetter,

    /// <summary>More is better (messages or MiB per second).</summary>
    HigherIsBetter,
}

/// <summary>How a metric's value is written in a table.</summary>
public enum MetricFormat
{
    /// <summary>The digits that matter at its size: 1234, 12.3, 1.23.</summary>
    Number,

    /// <summary>A count, with one decimal at most (a median of two counts can end in .5).</summary>
    Count,

    /// <summary>Milliseconds: 1234, 12.3, 1.23.</summary>
    Milliseconds,

    /// <summary>A number of bytes, written in whole KiB.</summary>
    Kibibytes,

    /// <summary>A ratio, to two decimals.</summary>
    Ratio,
}

/// <summary>Where a metric is shown. Every metric is written to <c>results.json</c> and <c>results.csv</c>.</summary>
public enum MetricVisibility
{
    /// <summary>Only in the data files.</summary>
    Data,

    /// <summary>Also as a column of the Markdown and HTML tables.</summary>
    Reports,

    /// <summary>Also as a column of the console table.</summary>
    Everywhere,
}

/// <summary>
/// A quantity each trial records, described once: its id (its key in <c>results.json</c> and its CSV column), what
/// a reader sees, its unit, which way is better, how to write it, where to show it, and whether a variant whose
/// median is not 0 is flagged. Every report reads metrics through their descriptors, so adding one is a
/// declaration: the lab's own are in <see cref="StandardMetrics"/>, a scenario's in
/// <see cref="Scenarios.Scenario.Metrics"/>. A variant's value is the median over its successful trials.
/// </summary>
public sealed record Metric
{
    /// <summary>A metric called <paramref name="id"/>, which tables head <paramref name="displayName"/>.</summary>
    public Metric(string id, string displayName)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(id);
        ArgumentException.ThrowIfNullOrWhiteSpace(displayName);
        Id = id;
        DisplayName = displayName;
    }

    /// <summary>The stable camelCase id: the key in a trial's <c>metrics</c> and in a summary's <c>medians</c>.</summary>
    public string Id { get; }

    /// <summary>What a reader sees as the column's header: <c>Pool threads</c>.</summary>
    public string DisplayName { get; }

    /// <summary>The unit the header shows, empty when it has none: <c>ms</c>, <c>KiB</c>.</summary>
    public string Unit { get; init; } = string.Empty;

    /// <summary>Which way is better.</summary>
    public MetricDirection Direction { get; init; }

    /// <summary>How a value is written in a table.</summary>
    public MetricFormat Format { get; init; }

    /// <summary>Where the metric is shown besides the data files.</summary>
    public MetricVisibility Visibility { get; init; }

    /// <summary>
    /// Whether a negative value means the thing timed never happened (a receiver that never kept up). Such a trial
    /// counts above every other in the median, and a median among them is stored as -1 and reads <c>never</c>.
    /// </summary>
    public bool NegativeMeansNever { get; init; }

    /// <summary>Whether the value should be 0, so that a variant whose median is not is flagged (hosts misclassified, errors).</summary>
    public bool FlagsWhenNotZero { get; init; }

    /// <summary>What the metric is and how it is read, in a line, for a reader of the data files.</summary>
    public string Description { get; init; } = string.Empty;

    /// <summary>How the meter's readings of a trial give this metric, for the lab's own metrics; null for a scenario's,
    /// which it sets itself.</summary>
    [JsonIgnore]
    internal Func<MeasuredTrial, double?>? Measure { get; init; }

    /// <summary>How a standard metric is read from the runtime's account of the trial (the runner's, after the trial); null for the others.</summary>
    [JsonIgnore]
    internal Func<Measurement.RuntimeAccount, double?>? Account { get; init; }

    /// <summary>The header with its unit: <c>CPU (ms)</c>.</summary>
    [JsonIgnore]
    internal string HeaderWithUnit => Unit.Length == 0 ? DisplayName : $"{DisplayName} ({Unit})";

    /// <summary><paramref name="value"/> as a table writes it; <c>never</c> for a negative value of a metric where that means never.</summary>
    public string Write(double value)
    {
        if (NegativeMeansNever && value < 0)
        {
            return "never";
        }

        var invariant = CultureInfo.InvariantCulture;
        return Format switch
        {
            MetricFormat.Count => value.ToString("0.#", invariant),
            MetricFormat.Kibibytes => (value / 1024).ToString("0", invariant),
            MetricFormat.Ratio => value.ToString("0.00", invariant),
            MetricFormat.Milliseconds => NumberText.Ms(value),
            _ => Math.Abs(value) switch
            {
                >= 100 => value.ToString("0", invariant),
                >= 10 => value.ToString("0.0", invariant),
                _ => value.ToString("0.##", invariant),
            },
        };
    }

    /// <summary>A count, lower is better unless said otherwise.</summary>
    public static Metric Count(string id, string displayName)
        => new(id, displayName) { Format = MetricFormat.Count, Direction = MetricDirection.LowerIsBetter };

    /// <summary>A time in milliseconds, lower is better.</summary>
    public static Metric Milliseconds(string id, string displayName)
        => new(id, displayName) { Unit = "ms", Format = MetricFormat.Milliseconds, Direction = MetricDirection.LowerIsBetter };

    /// <summary>A rate or other number, higher is better unless said otherwise.</summary>
    public static Metric Rate(string id, string displayName)
        => new(id, displayName) { Format = MetricFormat.Number, Direction = MetricDirection.HigherIsBetter };
}

/// <summary>What a trial's meter read, and the items' latencies: what the lab's own metrics are measured from.</summary>
/// <param name="Process">The meter's readings of the process over the measured region.</param>
/// <param name="Latency">Percentiles of the items' latencies; null when no item recorded one.</param>
/// <param name="LongestItemMs">The longest any item took alone, where items ran one after another; null elsewhere.</param>
/// <param name="CallerMs">The handing-over thread's time inside the items it started asynchronously; null where not timed.</param>
/// <param name="FirstItemMs">From the handover to the first item's call; null where not timed.</param>
/// <param name="InFlight">How many items were in flight at once over the region; null where not timed.</param>
internal sealed record MeasuredTrial(Measurements Process, LatencyPercentiles? Latency, double? LongestItemMs = null, double? CallerMs = null,
    double? FirstItemMs = null, ItemsInFlight? InFlight = null);
