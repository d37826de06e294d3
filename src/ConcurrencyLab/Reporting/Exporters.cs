using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>The ready-made exporters, and writing several of them to a folder.</summary>
internal static class Exporters
{
    /// <summary><c>results.json</c>, <c>results.md</c>, <c>results.csv</c> and <c>report.html</c>.</summary>
    public static IReadOnlyList<IExporter> Default { get; } = [JsonExporter.Default, MarkdownExporter.GitHub, CsvExporter.Default,
        HtmlExporter.Default];

    /// <summary>The parent of the default output folders, in the working folder.</summary>
    public const string DefaultParent = "conclab-results";

    /// <summary>A new output folder, <c>conclab-results/&lt;UTC timestamp&gt;</c>, made now so no other run takes it.</summary>
    public static string DefaultFolder(TimeProvider? time = null) => OutputTargets.NewFolder(DefaultParent, time);

    /// <summary>Writes every exporter's file into <paramref name="folder"/>, and the charts as SVG files; see the
    /// overload that takes chart formats.</summary>
    public static IReadOnlyList<string> ExportAll(RunResult run, string folder, IEnumerable<IExporter> exporters, out IReadOnlyList<string> written)
        =>
        ExportAll(run, folder, exporters, [ChartFormat.Svg], out written);

    /// <summary>
    /// Writes every exporter's file into <paramref name="folder"/>, then every scenario's charts in each of
    /// <paramref name="chartFormats"/> into <paramref name="folder"/>/charts (<c>hash-wall-time.svg</c>,
    /// <c>hash-wall-time.png</c>, ...), for a post or a review. One file's failure does not stop the others;
    /// each failure comes back as a line, and a machine that cannot draw a format at all costs one line, not one per chart.
    /// </summary>
    public static IReadOnlyList<string> ExportAll(RunResult run, string folder, IEnumerable<IExporter> exporters,
        IEnumerable<ChartFormat> chartFormats, out IReadOnlyList<string> written) =>
        ExportAll(run, folder, exporters, chartFormats, out written, CancellationToken.None);

    /// <summary>The overload that takes chart formats, stopping between files once <paramref name="cancellationToken"/>
    /// is cancelled (each file written is whole).</summary>
    internal static IReadOnlyList<string> ExportAll(
        RunResult run,
        string folder,
        IEnumerable<IExporter> exporters,
        IEnumerable<ChartFormat> chartFormats,
        out IReadOnlyList<string> written,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(exporters);
        ArgumentNullException.ThrowIfNull(chartFormats);
        var failures = new List<string>();
        var paths = new List<string>();
        var root = Path.GetFullPath(folder);
        void Write(string path, Action<Stream> write)
        {
            if (cancellationToken.IsCancellationRequested)
            {
                return;
            }

            try
            {
                // Every file inside the output folder, links resolved: a link planted there never carries a write elsewhere.
                if (Path.GetDirectoryName(path) is { } parent)
                {
                    Directory.CreateDirectory(parent);
                }

                if (!FileSystem.SafeName.IsInside(root, path))
                {
                    failures.Add($"{Path.GetFileName(path)}: not written, since it would land outside {root}");
                    return;
                }

                WriteAtomically(path, write);
                paths.Add(path);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException
                or NotSupportedException or ArgumentException)
            {
                failures.Add($"{Path.GetFileName(path)}: {ex.Message}");
            }
        }

        foreach (var exporter in exporters)
        {
            Write(Path.Combine(folder, exporter.FileName), stream => Text(stream, writer => exporter.Export(run, writer)));
        }

        var taken = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var charts = new List<(string Path, Chart Chart)>();
        foreach (var scenario in run.Scenarios)
        {
            // A scenario's name, a parameter key in a chart's kind: only text in the results, never where a file goes.
            var caption = Chart.CaptionOf(run, scenario);
            charts.AddRange(Chart.For(scenario)
                .Select(
                    c => (Path.Combine(
                        folder, ChartsFolder, FileSystem.SafeName.Unique($"{scenario.Name}-{c.Kind}", taken)), c with { Caption = caption })));
        }

        // Each format's images are drawn on every core (a PNG took 90 ms, and 22 of them 1.9-2.2 s of a run's end on one
        // core), then written and their failures said in the charts' order, as one at a time would. A machine unable to
        // draw a format at all says so once, and the other formats go on.
        var formats = chartFormats.DistinctBy(f => f.Extension).ToList();
        List<Chart> toDraw = [.. charts.Select(c => c.Chart)];
        var drawn = formats.Select(format => DrawAll(format, toDraw, cancellationToken)).ToList();
        failures.AddRange(formats.Zip(drawn).Where(d => d.Second.Unable is not null)
            .Select(d => $"{d.First.Extension.ToUpperInvariant()} charts: {d.Second.Unable}"));
        for (var i = 0; i < charts.Count && !cancellationToken.IsCancellationRequested; i++)
        {
            for (var f = 0; f < formats.Count; f++)
            {
                switch (drawn[f].Charts[i])
                {
                    case { Bytes: { } bytes }:
                        Write($"{charts[i].Path}.{formats[f].Extension}", stream => stream.Write(bytes));
                        break;
                    case { Error: { } error }:
                        failures.Add($"{Path.GetFileName(charts[i].Path)}.{formats[f].Extension}: {error}");
                        break;
                }
            }
        }

        written = paths;
        return failures;
    }

    // A chart drawn in one format: its bytes, or why it could not be drawn.
    private readonly record struct Drawing(byte[]? Bytes, string? Error);

    // Every chart in one format, side by side; none at all where the machine cannot draw the format (Unable says why).
    private static (Drawing[] Charts, string? Unable) DrawAll(ChartFormat format, List<Chart> charts, CancellationToken cancellationToken)
    {
        var drawn = new Drawing[charts.Count];
        string? unable = null;
        try
        {
            Parallel.For(0, charts.Count,
                new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount, CancellationToken = cancellationToken }, (i, loop) =>
            {
                try
                {
                    drawn[i] = new Drawing(format.Draw(charts[i]), null);
                }
                catch (NotSupportedException ex)
                {
                    // No chart of this format can be drawn here: the first to find out says why, and the rest stop.
                    Interlocked.CompareExchange(ref unable, ex.Message, null);
                    loop.Stop();
                }
#pragma warning disable CA1031 // A chart the drawing library chokes on costs its image, never the other files or the run.
                catch (Exception ex) when (ex is not OutOfMemoryException)
#pragma warning restore CA1031
                {
                    drawn[i] = new Drawing(null, $"{ex.GetType().Name}: {ex.Message}");
                }
            });
        }
        catch (OperationCanceledException)
        {
            // Cancelled between charts: the caller writes none of them.
        }

        return unable is null ? (drawn, null) : (new Drawing[charts.Count], unable);
    }

    /// <summary>The subfolder of an output folder that holds the chart files.</summary>
    public const string ChartsFolder = "charts";

    /// <summary>What was written, for a person: the reports by path, and the charts by their count, formats and folder.</summary>
    public static string Describe(IReadOnlyList<string> written)
    {
        ArgumentNullException.ThrowIfNull(written);
        var charts = written.Where(p => Path.GetFileName(Path.GetDirectoryName(p)) == ChartsFolder && Path.GetExtension(p) is ".svg" or ".png")
            .ToList();
        var reports = string.Join(", ", written.Except(charts));
        if (charts.Count == 0)
        {
            return reports;
        }

        var byFormat = charts.GroupBy(p => Path.GetExtension(p)[1..].ToUpperInvariant()).OrderByDescending(g => g.Key, StringComparer.Ordinal)
            .Select(g => (Format: g.Key, Count: g.Count())).ToList();
        var formats = byFormat.Select(f => f.Count).Distinct().Count() == 1
            ? $"{byFormat[0].Count} charts as {string.Join(" and ", byFormat.Select(f => f.Format))}"
            : $"{byFormat[0].Count} charts as {byFormat[0].Format} and " + string.Join(
                " and ", byFormat.Skip(1).Select(f => $"{f.Count} as {f.Format}"));
        return $"{reports}, and {formats} in {Path.GetDirectoryName(charts[0])}";
    }

    /// <summary>Writes one exporter's output to <paramref name="path"/>, through a temporary file so a reader never sees half of it.</summary>
    public static void WriteFile(RunResult run, IExporter exporter, string path)
    {
        ArgumentNullException.ThrowIfNull(exporter);
        WriteText(path, writer => exporter.Export(run, writer));
    }

    /// <summary>
    /// Writes text to <paramref name="path"/> as UTF-8 with <c>\n</c> line ends, making its folder if need be,
    /// through a temporary file so a reader never sees half of it.
    /// </summary>
    public static void WriteText(string path, Action<TextWriter> write) => WriteAtomically(path, stream => Text(stream, write));

    private static void Text(Stream stream, Action<TextWriter> write)
    {
        using var writer = new StreamWriter(stream, new System.Text.UTF8Encoding(false), leaveOpen: true);
        writer.NewLine = "\n";
        write(writer);
    }

    // Never half a file for a reader, and never a device or a link replaced by a regular file.
    private static void WriteAtomically(string path, Action<Stream> write) => FileSystem.OutputFile.Write(path, write);
}
