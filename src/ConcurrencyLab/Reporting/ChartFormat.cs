namespace ConcurrencyLab.Reporting;

/// <summary>
/// A file format the charts are written in, beside the reports, in the output folder's <c>charts/</c>: SVG
/// always (<see cref="Svg"/>, drawn by the lab itself), and PNG where the <c>ConcurrencyLab.Charts</c> package
/// is referenced (its <c>PngChartFormat.Instance</c>), which brings a drawing library and its native assets.
/// </summary>
public abstract class ChartFormat
{
    private protected ChartFormat(string extension)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(extension);
        Extension = extension;
    }

    /// <summary>The SVG files, drawn without any package.</summary>
    public static ChartFormat Svg { get; } = new SvgFormat();

    /// <summary>The file name extension, without its dot: <c>svg</c>, <c>png</c>.</summary>
    public string Extension { get; }

    /// <summary>
    /// The chart as the file's bytes. Throws <see cref="NotSupportedException"/> with a sentence saying why when
    /// this machine cannot draw in the format at all (then no later chart is tried in it).
    /// </summary>
    internal abstract byte[] Draw(Chart chart);

    private sealed class SvgFormat() : ChartFormat("svg")
    {
        internal override byte[] Draw(Chart chart) =>
            new System.Text.UTF8Encoding(false).GetBytes(SvgCharts.Standalone(SvgCharts.Draw(chart), chart));
    }
}
