using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary><c>results.csv</c>: one row per trial, for spreadsheets and plotting scripts.</summary>
public sealed class CsvExporter : IExporter
{
    public static CsvExporter Default { get; } = new();

    private static readonly string[] Header =
    [
        "scenario", "variant", "repeat", "status", "wallMs", "cpuMs", "userCpuMs", "systemCpuMs",
        "threadsAtStart", "peakThreads", "finalThreads", "peakPoolThreads", "peakQueueLength",
        "completedWorkItems", "lockContentions", "allocatedBytes", "gen0", "gen1", "gen2", "peakWorkingSetBytes",
        "itemsPlanned", "itemsCompleted", "itemsDuplicated", "p50Ms", "p95Ms", "p99Ms", "maxMs", "isolated", "error", "checks",
    ];

    public string FileName => "results.csv";

    public void Export(RunResult run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteLine(string.Join(',', Header));
        foreach (var scenario in run.Scenarios)
        {
            foreach (var variant in scenario.Variants)
            {
                foreach (var t in variant.Trials)
                {
                    object?[] cells =
                    [
                        scenario.Name, variant.Name, t.Repeat, t.Status.ToText(), t.WallMs, t.CpuMs, t.UserCpuMs, t.SystemCpuMs,
                        t.ThreadsAtStart, t.PeakThreads, t.FinalThreads, t.PeakPoolThreads, t.PeakQueueLength,
                        t.CompletedWorkItems, t.LockContentions, t.AllocatedBytes, t.Gc.Gen0, t.Gc.Gen1, t.Gc.Gen2, t.PeakWorkingSetBytes,
                        t.ItemsPlanned, t.ItemsCompleted, t.ItemsDuplicated, t.Latency.P50Ms, t.Latency.P95Ms, t.Latency.P99Ms, t.Latency.MaxMs,
                        t.Isolated, t.Error, Checks(t),
                    ];
                    writer.WriteLine(string.Join(',', cells.Select(Cell)));
                }
            }
        }
    }

    // A scenario's own counts (misclassified, lost...) in one cell, name=value;..., in name order.
    private static string Checks(TrialResult trial) => trial.Checks is null
        ? string.Empty
        : string.Join(';', trial.Checks.OrderBy(c => c.Key, StringComparer.Ordinal).Select(c => $"{c.Key}={c.Value.ToString("0.###", CultureInfo.InvariantCulture)}"));

    private static string Cell(object? value)
    {
        var text = value switch
        {
            null => string.Empty,
            double d => d.ToString("0.###", CultureInfo.InvariantCulture),
            bool b => b ? "true" : "false",
            IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
            _ => value.ToString() ?? string.Empty,
        };

        // RFC 4180: quote cells holding a separator, a quote or a line break; double the quotes.
        return text.AsSpan().IndexOfAny(",\"\r\n") >= 0 ? $"\"{text.Replace("\"", "\"\"", StringComparison.Ordinal)}\"" : text;
    }
}
