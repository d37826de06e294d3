using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>The ready-made exporters, and writing several of them to a folder.</summary>
public static class Exporters
{
    /// <summary><c>results.json</c>, <c>results.md</c>, <c>results.csv</c> and <c>report.html</c>.</summary>
    public static IReadOnlyList<IExporter> Default { get; } = [JsonExporter.Default, MarkdownExporter.GitHub, CsvExporter.Default, HtmlExporter.Default];

    /// <summary>The default output folder: <c>conclab-results/&lt;UTC timestamp&gt;</c>.</summary>
    public static string DefaultFolder(TimeProvider? time = null) =>
        Path.Combine("conclab-results", (time ?? TimeProvider.System).GetUtcNow().ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture));

    /// <summary>
    /// Writes every exporter's file into <paramref name="folder"/>, then every scenario's charts as SVG files
    /// of their own into <paramref name="folder"/>/charts (<c>hash-wall-time.svg</c>, ...), for a post or a
    /// review. One file's failure does not stop the others; each failure comes back as a line.
    /// </summary>
    public static IReadOnlyList<string> ExportAll(RunResult run, string folder, IEnumerable<IExporter> exporters, out IReadOnlyList<string> written)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(exporters);
        var failures = new List<string>();
        var paths = new List<string>();
        void Write(string path, Action<TextWriter> write)
        {
            try
            {
                WriteAtomically(path, write);
                paths.Add(path);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException or NotSupportedException or ArgumentException)
            {
                failures.Add($"{Path.GetFileName(path)}: {ex.Message}");
            }
        }

        foreach (var exporter in exporters)
        {
            Write(Path.Combine(folder, exporter.FileName), writer => exporter.Export(run, writer));
        }

        foreach (var scenario in run.Scenarios)
        {
            // A scenario's name is only text in the results: it never chooses where a file goes.
            var safe = string.Concat(scenario.Name.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? c : '-'));
            foreach (var chart in Chart.For(scenario))
            {
                Write(Path.Combine(folder, ChartsFolder, $"{safe}-{chart.Kind}.svg"), writer => writer.Write(SvgCharts.Standalone(SvgCharts.Draw(chart))));
            }
        }

        written = paths;
        return failures;
    }

    /// <summary>The subfolder of an output folder that holds the chart files.</summary>
    public const string ChartsFolder = "charts";

    /// <summary>What was written, for a person: the reports by path, and the charts by their count and folder.</summary>
    public static string Describe(IReadOnlyList<string> written)
    {
        ArgumentNullException.ThrowIfNull(written);
        var charts = written.Where(p => p.EndsWith(".svg", StringComparison.Ordinal)).ToList();
        var reports = string.Join(", ", written.Except(charts));
        return charts.Count == 0 ? reports : $"{reports}, and {charts.Count} charts in {Path.GetDirectoryName(charts[0])}";
    }

    /// <summary>Writes one exporter's output to <paramref name="path"/>, through a temporary file so a reader never sees half of it.</summary>
    public static void WriteFile(RunResult run, IExporter exporter, string path)
    {
        ArgumentNullException.ThrowIfNull(exporter);
        WriteAtomically(path, writer => exporter.Export(run, writer));
    }

    private static void WriteAtomically(string path, Action<TextWriter> write)
    {
        var directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (!string.IsNullOrEmpty(directory))
        {
            Directory.CreateDirectory(directory);
        }

        var temporary = path + ".tmp";
        using (var writer = new StreamWriter(temporary, append: false, new System.Text.UTF8Encoding(false)))
        {
            writer.NewLine = "\n";
            write(writer);
        }

        File.Move(temporary, path, overwrite: true);
    }
}
