using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// <c>results.csv</c>: one row per trial, for spreadsheets and plotting scripts; a column per metric (the lab's
/// own, then each scenario's), headed by its id, empty where a trial did not record it.
/// </summary>
public sealed class CsvExporter : IExporter
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
