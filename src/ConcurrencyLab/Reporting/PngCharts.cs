using System.Globalization;
using ScottPlot;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// The charts as PNG images for a blog post or a slide, drawn with ScottPlot from the same <see cref="Chart"/>
/// data as the SVG ones: 800 points wide at twice the pixel density (1600 pixels), in the palette's mid tones
/// on a transparent background, so an image reads on a light page and a dark one.
/// </summary>
public static class PngCharts
{
    /// <summary>The width in points; the image has <see cref="Density"/> pixels per point.</summary>
    public const int Width = 800;

    /// <summary>Pixels per point, for sharp images on high-density screens.</summary>
    public const int Density = 2;

    private const int LineChartHeight = 440;
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    // Families a machine is likely to have, in order of preference; the first one installed is used.
    private static readonly string[] SansFonts = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial", "Helvetica", "Segoe UI"];

    /// <summary>
    /// Draws <paramref name="chart"/> as PNG bytes. Throws <see cref="NotSupportedException"/> with a sentence
    /// saying why when this machine cannot draw text or load the drawing library.
    /// </summary>
    public static byte[] Draw(Chart chart)
    {
        ArgumentNullException.ThrowIfNull(chart);
        try
        {
            using var plot = new Plot();
            Style(plot);
            var height = chart switch
            {
                WallTimeChart bars => Draw(plot, bars),
                SweepChart sweep => Draw(plot, sweep),
                OverTimeChart lines => Draw(plot, lines),
                _ => throw new ArgumentException($"no drawing for a {chart.GetType().Name} chart", nameof(chart)),
            };
            return plot.GetImageBytes(Width * Density, height * Density, ImageFormat.Png);
        }
        catch (Exception ex) when (ex is DllNotFoundException or TypeInitializationException or BadImageFormatException)
        {
            throw new NotSupportedException($"PNG charts need SkiaSharp's native library, which did not load here: {ex.Message}", ex);
        }
    }

    /// <summary>The image's size in pixels for <paramref name="chart"/>.</summary>
    public static (int Width, int Height) PixelSize(Chart chart) => chart switch
    {
        WallTimeChart bars => (Width * Density, BarsHeight(bars.Rows.Count) * Density),
        _ => (Width * Density, LineChartHeight * Density),
    };

    private static int BarsHeight(int rows) => 110 + (rows * 26);

    private static int Draw(Plot plot, WallTimeChart chart)
    {
        var n = chart.Rows.Count;
        var bar = File(ChartPalette.Bar);
        var ink = File(ChartPalette.Foreground);
        var ticks = new ScottPlot.TickGenerators.NumericManual();
        var bars = new List<Bar>();
        for (var i = 0; i < n; i++)
        {
            // The fastest at the top, as in the report.
            var (name, summary) = chart.Rows[i];
            double y = n - 1 - i;
            bars.Add(new Bar { Position = y, Value = summary.MedianWallMs, Size = 0.64, FillColor = bar, LineWidth = 0, Orientation = Orientation.Horizontal });
            ticks.AddMajor(y, name);
            Whisker(plot, summary.CiLowMs, summary.CiHighMs, y, ink);
            var value = plot.Add.Text(SvgCharts.Ms(summary.MedianWallMs), summary.CiHighMs, y);
            value.LabelStyle.Alignment = Alignment.MiddleLeft;
            value.LabelStyle.OffsetX = 5;
            value.LabelStyle.ForeColor = ink;
            value.LabelStyle.FontSize = 12;
            value.LabelStyle.FontName = plot.Axes.Bottom.TickLabelStyle.FontName;
        }

        plot.Add.Bars(bars);
        // The ideal as a dashed line with its value above the bars, as in the report.
        var top = n - 0.4;
        if (chart.Scenario.IdealMs > 0)
        {
            plot.Add.VerticalLine(chart.Scenario.IdealMs, 2, File(ChartPalette.Ideal), LinePattern.Dashed);
            var label = plot.Add.Text($"ideal {SvgCharts.Ms(chart.Scenario.IdealMs)} ms", chart.Scenario.IdealMs, top);
            label.LabelStyle.Alignment = Alignment.LowerLeft;
            label.LabelStyle.OffsetX = 4;
            label.LabelStyle.ForeColor = File(ChartPalette.Ideal);
            label.LabelStyle.FontSize = 12;
            label.LabelStyle.FontName = plot.Axes.Bottom.TickLabelStyle.FontName;
            top += 0.9;
        }

        plot.Axes.Left.TickGenerator = ticks;

        // Room past the slowest interval for its printed median.
        plot.Axes.SetLimits(0, chart.Max * 1.1, -0.6, top);
        plot.XLabel("median wall time (ms), with its 95% confidence interval");
        return BarsHeight(n);
    }

    private static int Draw(Plot plot, SweepChart chart)
    {
        for (var i = 0; i < chart.Families.Count; i++)
        {
            var (family, points) = chart.Families[i];
            var line = plot.Add.Scatter(points.Select(p => Math.Log2(p.N)).ToArray(), points.Select(p => p.Ms).ToArray());
            Series(line, family, i);
            line.MarkerSize = 7;
        }

        if (chart.Scenario.IdealMs > 0)
        {
            var ideal = plot.Add.HorizontalLine(chart.Scenario.IdealMs, 2, File(ChartPalette.Ideal), LinePattern.Dashed);
            ideal.LegendText = $"ideal {SvgCharts.Ms(chart.Scenario.IdealMs)} ms";
        }

        var ticks = new ScottPlot.TickGenerators.NumericManual();
        foreach (var n in chart.Ns)
        {
            ticks.AddMajor(Math.Log2(n), n.ToString(Invariant));
        }

        plot.Axes.Bottom.TickGenerator = ticks;
        var (first, last) = (Math.Log2(chart.Ns[0]), Math.Log2(chart.Ns[^1]));
        var pad = Math.Max(0.25, (last - first) * 0.04);
        plot.Axes.SetLimits(first - pad, last + pad, 0, chart.MaxMs);
        plot.XLabel(SweepChart.AxisTitle);
        plot.YLabel("median wall time (ms)");
        plot.ShowLegend(Edge.Bottom);
        return LineChartHeight;
    }

    private static int Draw(Plot plot, OverTimeChart chart)
    {
        for (var i = 0; i < chart.Series.Count; i++)
        {
            var (name, points) = chart.Series[i];
            var line = plot.Add.ScatterLine(points.Select(p => p.TimeMs).ToArray(), points.Select(p => p.Value).ToArray());
            Series(line, name, i);
        }

        plot.Axes.SetLimits(0, chart.MaxTimeMs, 0, chart.MaxValue);
        plot.XLabel("time in the trial (ms)");
        plot.YLabel(chart.Quantity);
        plot.ShowLegend(Edge.Bottom);
        return LineChartHeight;
    }

    private static void Series(ScottPlot.Plottables.Scatter line, string name, int index)
    {
        var (colour, dash) = ChartPalette.StyleOf(index);
        line.LegendText = name;
        line.Color = File(ChartPalette.Series[colour]);
        line.LineWidth = 1.8f;
        line.LinePattern = Pattern(ChartPalette.DashPatterns[dash]);
        line.MarkerSize = 0;
    }

    private static void Whisker(Plot plot, double low, double high, double y, Color colour)
    {
        foreach (var (x1, y1, x2, y2) in new[] { (low, y, high, y), (low, y - 0.16, low, y + 0.16), (high, y - 0.16, high, y + 0.16) })
        {
            var segment = plot.Add.Line(x1, y1, x2, y2);
            segment.LineColor = colour;
            segment.LineWidth = 1.2f;
            segment.MarkerSize = 0;
        }
    }

    /// <summary>Transparent backgrounds, mid-tone text and axes, a faint grid, a legend without a box, and a sans-serif font.</summary>
    private static void Style(Plot plot)
    {
        var installed = SkiaSharp.SKFontManager.Default.GetFontFamilies();
        var font = SansFonts.FirstOrDefault(f => installed.Contains(f, StringComparer.OrdinalIgnoreCase))
            ?? throw new NotSupportedException($"PNG charts need a sans-serif font, and none of {string.Join(", ", SansFonts)} is installed (on Debian: apt-get install fonts-dejavu-core).");
        plot.Font.Set(font);
        plot.ScaleFactor = Density;
        var ink = File(ChartPalette.Foreground);
        plot.FigureBackground.Color = Colors.Transparent;
        plot.DataBackground.Color = Colors.Transparent;
        plot.Axes.Color(ink);
        plot.Grid.MajorLineColor = File(ChartPalette.Muted).WithOpacity(0.3);
        plot.Legend.BackgroundColor = Colors.Transparent;
        plot.Legend.OutlineColor = Colors.Transparent;
        plot.Legend.ShadowColor = Colors.Transparent;
        plot.Legend.FontColor = ink;
        plot.Legend.FontSize = 12;
    }

    private static Color File(ChartPalette.Tones tones) => Color.FromHex(tones.File);

    private static LinePattern Pattern(string? dashes) => dashes is null
        ? LinePattern.Solid
        : new LinePattern([.. dashes.Split(' ').Select(d => float.Parse(d, Invariant))], 0, dashes);
}
