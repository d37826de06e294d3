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
    /// Writes every exporter's file into <paramref name="folder"/>. One exporter's failure does not stop the
    /// others; each failure comes back as a line.
    /// </summary>
    public static IReadOnlyList<string> ExportAll(RunResult run, string folder, IEnumerable<IExporter> exporters, out IReadOnlyList<string> written)
    {
        ArgumentNullException.ThrowIfNull(exporters);
        var failures = new List<string>();
        var paths = new List<string>();
        foreach (var exporter in exporters)
        {
            var path = Path.Combine(folder, exporter.FileName);
            try
            {
                WriteFile(run, exporter, path);
                paths.Add(path);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException or NotSupportedException)
            {
                failures.Add($"{exporter.FileName}: {ex.Message}");
            }
        }

        written = paths;
        return failures;
    }

    /// <summary>
    /// Writes every scenario's charts as SVG files of their own into <paramref name="folder"/>/charts
    /// (<c>hash-wall-time.svg</c>, ...), for a post or a review; each failure comes back as a line.
    /// </summary>
    public static IReadOnlyList<string> ExportCharts(RunResult run, string folder, out IReadOnlyList<string> written)
    {
        ArgumentNullException.ThrowIfNull(run);
        var failures = new List<string>();
        var paths = new List<string>();
        foreach (var scenario in run.Scenarios)
        {
            foreach (var (kind, svg) in SvgCharts.For(scenario))
            {
                // A scenario's name is only text in the results: it never chooses where a file goes.
                var safe = string.Concat(scenario.Name.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? c : '-'));
                var path = Path.Combine(folder, "charts", $"{safe}-{kind}.svg");
                try
                {
                    Directory.CreateDirectory(Path.GetDirectoryName(path)!);
                    File.WriteAllText(path + ".tmp", SvgCharts.Standalone(svg));
                    File.Move(path + ".tmp", path, overwrite: true);
                    paths.Add(path);
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or NotSupportedException or ArgumentException)
                {
                    failures.Add($"{Path.GetFileName(path)}: {ex.Message}");
                }
            }
        }

        written = paths;
        return failures;
    }

    /// <summary>Writes one exporter's output to <paramref name="path"/>, through a temporary file so a reader never sees half of it.</summary>
    public static void WriteFile(RunResult run, IExporter exporter, string path)
    {
        ArgumentNullException.ThrowIfNull(exporter);
        var directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (!string.IsNullOrEmpty(directory))
        {
            Directory.CreateDirectory(directory);
        }

        var temporary = path + ".tmp";
        using (var writer = new StreamWriter(temporary, append: false, new System.Text.UTF8Encoding(false)))
        {
            writer.NewLine = "\n";
            exporter.Export(run, writer);
        }

        File.Move(temporary, path, overwrite: true);
    }
}
