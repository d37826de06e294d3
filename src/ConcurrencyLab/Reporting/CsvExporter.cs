using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// <c>results.csv</c>: one row per trial, for spreadsheets and plotting scripts; a column per metric (the lab's
/// own, then each scenario's), headed by its id, empty where a trial did not record it. A load run's has a row per step.
/// </summary>
internal sealed class CsvExporter : IExporter
{
    /// <summary>The exporter: one row per measured trial, one column per metric.</summary>
    public static CsvExporter Default { get; } = new();

    /// <summary><c>results.csv</c>.</summary>
    public string FileName => "results.csv";

    /// <summary>Writes <paramref name="run"/>'s trials to <paramref name="writer"/> as CSV.</summary>
    public void Export(RunResult run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(writer);

        // A load run has steps, not trials: a row per step.
        if (run.Scenarios.Count > 0 && run.Scenarios.All(s => s.Load is not null))
        {
            ExportSteps(run, writer);
            return;
        }

        // The scenarios' own metrics as described, then any a trial holds that no description names (an older file).
        var own = run.Scenarios.SelectMany(s => s.Metrics.Select(m => m.Id))
            .Concat(run.Scenarios.SelectMany(s => s.Variants).SelectMany(v => v.Trials).SelectMany(t => t.Metrics.Keys))
            .Where(id => !StandardMetrics.All.Any(m => m.Id == id))
            .Distinct(StringComparer.Ordinal)
            .ToList();

        // A cell for each column, in the header's order: a trial's fields and its metrics come from one list.
        (string Header, Func<ScenarioResult, VariantResult, TrialResult, object?> Cell)[] columns =
        [
            ("scenario", (s, _, _) => s.Name),
            ("variant", (_, v, _) => v.Name),
            ("repeat", (_, _, t) => t.Repeat),
            ("status", (_, _, t) => t.Status.ToText()),
            .. StandardMetrics.All.Select(m => (m.Id, (Func<ScenarioResult, VariantResult, TrialResult, object?>)((_, _, t) => t.Value(m)))),
            ("itemsPlanned", (_, _, t) => t.ItemsPlanned),
            ("itemsCompleted", (_, _, t) => t.ItemsCompleted),
            ("itemsDuplicated", (_, _, t) => t.ItemsDuplicated),
            ("isolated", (_, _, t) => t.Isolated),
            ("error", (_, _, t) => t.Error),
            .. own.Select(id => (id, (Func<ScenarioResult, VariantResult, TrialResult, object?>)((_, _, t) => Metric(t, id)))),
        ];

        writer.WriteLine(string.Join(',', columns.Select(c => c.Header)));
        foreach (var scenario in run.Scenarios)
        {
            foreach (var variant in scenario.Variants)
            {
                foreach (var trial in variant.Trials)
                {
                    writer.WriteLine(string.Join(',', columns.Select(c => Cell(c.Cell(scenario, variant, trial)))));
                }
            }
        }
    }

    // One row per load step, each figure a column: the latencies' quantiles, the generator's and the service's CPU, and
    // how the step fared against its variant's SLO.
    private static void ExportSteps(RunResult run, TextWriter writer)
    {
        (string Header, Func<LoadVariant, LoadStep, object?> Cell)[] columns =
        [
            ("variant", (v, _) => v.Name),
            ("repeat", (_, s) => s.Repeat),
            ("offeredPerSecond", (_, s) => s.OfferedPerSecond),
            ("connections", (_, s) => s.Connections),
            ("sentPerSecond", (_, s) => s.SentPerSecond),
            ("completedPerSecond", (_, s) => s.CompletedPerSecond),
            ("planned", (_, s) => s.Planned),
            ("sent", (_, s) => s.Sent),
            ("completed", (_, s) => s.Completed),
            ("timedOut", (_, s) => s.TimedOut),
            ("failed", (_, s) => s.Failed.Sum(f => f.Value)),
            ("late", (_, s) => s.Late),
            ("p50Ms", (_, s) => s.Latency?.P50Ms),
            ("p90Ms", (_, s) => s.Latency?.P90Ms),
            ("p99Ms", (_, s) => s.Latency?.P99Ms),
            ("p999Ms", (_, s) => s.Latency?.P999Ms),
            ("maxMs", (_, s) => s.Latency?.MaxMs),
            ("serviceP50Ms", (_, s) => s.Service?.P50Ms),
            ("serviceP99Ms", (_, s) => s.Service?.P99Ms),
            ("lagP99Ms", (_, s) => s.Lag?.P99Ms),
            ("generatorCpuMs", (_, s) => s.GeneratorCpuMs),
            ("serviceCpuMs", (_, s) => s.ServiceCpuMs),
            ("stopped", (_, s) => s.Stopped),
            ("serviceExitCode", (_, s) => s.ServiceExitCode),
            ("sloMs", (v, _) => v.SloMs),
            ("outcome", (v, s) => Analysis.Saturation.Judge(s, v.SloMs).ToString()),
        ];
        writer.WriteLine("scenario," + string.Join(',', columns.Select(c => c.Header)));
        foreach (var scenario in run.Scenarios)
        {
            foreach (var variant in scenario.Load!.Variants)
            {
                foreach (var step in variant.Steps)
                {
                    writer.WriteLine(Cell(scenario.Name) + "," + string.Join(',', columns.Select(c => Cell(c.Cell(variant, step)))));
                }
            }
        }
    }

    private static double? Metric(TrialResult trial, string id) => trial.Metrics.TryGetValue(id, out var value) ? value : null;

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
