using System.Globalization;
using ScottPlot;
using ConcurrencyLab.Reporting;
using SkiaSharp;

namespace ConcurrencyLab.Charts;

/// <summary>
/// The charts as PNG images for a blog post or a slide, drawn with ScottPlot from the same <see cref="Chart"/>
/// data as the SVG ones: 800 points wide at twice the pixel density (1600 pixels), in the palette's mid tones
/// on a transparent background, so an image reads on a light page and a dark one.
/// </summary>
internal static class PngCharts
{
    /// <summary>The width in points; the image has <see cref="Density"/> pixels per point.</summary>
    public const int Width = 800;

    /// <summary>Pixels per point, for sharp images on high-density screens.</summary>
    public const int Density = 2;

    // A line chart's plot and axes; its legend below takes a row per few series.
    private const int LineChartPlotHeight = 340;
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
            var font = SansFont.Value;
            using var plot = new Plot();
            Style(plot, font);
            var (plotHeight, legend) = chart switch
            {
                BarChart bars => (Draw(plot, bars), (IReadOnlyList<LegendEntry>)[]),
                SweepChart sweep => (LineChartPlotHeight, Draw(plot, sweep)),
                OverTimeChart lines => (LineChartPlotHeight, Draw(plot, lines)),
                ThreadStateChart states => (60 + (states.Rows.Count * 84), Draw(plot, states)),
                InFlightChart inFlight => (60 + (inFlight.Rows.Count * 84), Draw(plot, inFlight)),
                _ => throw new ArgumentException($"no drawing for a {chart.GetType().Name} chart", nameof(chart)),
            };
            // The legend is laid out here, below the plot, rather than by ScottPlot: its bottom-edge legend is
            // sized from an earlier layout and cuts a long one (20 of 60 series) instead of growing the image.
            using var typeface = SKTypeface.FromFamilyName(font);
            using var text = new SKFont(typeface, LegendFontSize);
            var layout = Layout(legend, text);

            // A file with a caption carries a title above the plot and the caption below the legend, so a pasted
            // image says what it shows, and where and when it was measured.
            var title = chart.Caption is null ? 0 : TitleHeight;
            var caption = chart.Caption is null ? 0 : CaptionHeight;
            using var surface = SKSurface.Create(
                new SKImageInfo(Width * Density, (title + plotHeight + layout.Height + caption) * Density, SKColorType.Rgba8888, SKAlphaType.Premul))
                ?? throw new InvalidOperationException("SkiaSharp could not make a drawing surface");
            var canvas = surface.Canvas;
            canvas.Clear(SKColors.Transparent);

            // ScottPlot leaves its clip to the plot's rectangle on the canvas.
            var saved = canvas.Save();
            plot.Render(canvas, new PixelRect(0, Width * Density, (title + plotHeight) * Density, title * Density));
            canvas.RestoreToCount(saved);
            canvas.Scale(Density);
            DrawLegend(canvas, legend, layout, title + plotHeight, text);
            if (chart.Caption is { } captionText)
            {
                using var ink = new SKPaint { Color = SKColor.Parse(ChartPalette.Foreground.File), IsAntialias = true };
                using var heading = new SKFont(SKTypeface.FromFamilyName(font, SKFontStyle.Bold), TitleFontSize);
                using var small = new SKFont(typeface, CaptionFontSize);
                canvas.DrawText(chart.Title, 10, 20, SKTextAlign.Left, heading, ink);
                canvas.DrawText(captionText, 10, title + plotHeight + layout.Height + caption - 8, SKTextAlign.Left, small, ink);
            }
            using var image = surface.Snapshot();
            using var png = image.Encode(SKEncodedImageFormat.Png, 100);
            return png.ToArray();
        }
        catch (Exception ex) when (ex is DllNotFoundException or TypeInitializationException or BadImageFormatException
            or EntryPointNotFoundException)
        {
            throw new NotSupportedException($"PNG charts need SkiaSharp's native library, which did not load here: {ex.Message}", ex);
        }
    }

    private const float LegendFontSize = 12;
    private const float TitleFontSize = 14;
    private const float CaptionFontSize = 11;
    private const int TitleHeight = 30;
    private const int CaptionHeight = 22;
    private const float LegendRowHeight = 20;
    private const float SwatchWidth = 22;

    /// <summary>A series in the legend: its label, its colour and its dash pattern (null for solid), and whether its points have markers.</summary>
    private sealed record LegendEntry(string Label, string Colour, string? Dash, bool Marker)
    {
        /// <summary>Whether the marker is a ring (a lowering of the pool's target) rather than a dot.</summary>
        public bool Ring { get; init; }
    }

    /// <summary>Columns as wide as the widest entry, as many as fit, centred; rows as many as the entries need.</summary>
    private readonly record struct LegendLayout(int Columns, int Rows, float ColumnWidth, float Left)
    {
        public int Height => Rows == 0 ? 0 : (int)Math.Ceiling((Rows * LegendRowHeight) + 16);
    }

    private static LegendLayout Layout(IReadOnlyList<LegendEntry> legend, SKFont text)
    {
        if (legend.Count == 0)
        {
            return default;
        }

        var columnWidth = SwatchWidth + 6 + legend.Max(e => text.MeasureText(e.Label)) + 20;
        var columns = Math.Clamp((int)((Width - 80) / columnWidth), 1, legend.Count);
        var rows = (legend.Count + columns - 1) / columns;
        return new LegendLayout(columns, rows, columnWidth, Math.Max(8, (Width - (columns * columnWidth)) / 2));
    }

    private static void DrawLegend(SKCanvas canvas, IReadOnlyList<LegendEntry> legend, LegendLayout layout, int top, SKFont text)
    {
        using var ink = new SKPaint { Color = SKColor.Parse(ChartPalette.Foreground.File), IsAntialias = true };
        for (var i = 0; i < legend.Count; i++)
        {
            var entry = legend[i];
            var x = layout.Left + (i % layout.Columns * layout.ColumnWidth);
            var y = top + 8 + (i / layout.Columns * LegendRowHeight);
            using var line = new SKPaint { Color = SKColor.Parse(entry.Colour), StrokeWidth = 1.8f, IsAntialias = true, Style = SKPaintStyle.Stroke };
            using var dash = entry.Dash is null ? null : SKPathEffect.CreateDash(Dashes(entry.Dash), 0);
            line.PathEffect = dash;
            canvas.DrawLine(x, y + 10, x + SwatchWidth, y + 10, line);
            if (entry.Marker)
            {
                line.Style = entry.Ring ? SKPaintStyle.Stroke : SKPaintStyle.Fill;
                line.PathEffect = null;
                canvas.DrawCircle(x + (SwatchWidth / 2), y + 10, 3.5f, line);
            }

            canvas.DrawText(entry.Label, x + SwatchWidth + 6, y + 14, SKTextAlign.Left, text, ink);
        }
    }

    /// <summary>Draws the bars and returns the plot's height in points: a row per bar.</summary>
    private static int Draw(Plot plot, BarChart chart)
    {
        var n = chart.Rows.Count;
        var bar = File(ChartPalette.Bar);
        var ink = File(ChartPalette.Foreground);
        var ticks = new ScottPlot.TickGenerators.NumericManual();
        var bars = new List<Bar>();
        for (var i = 0; i < n; i++)
        {
            // The fastest at the top, as in the report.
            var row = chart.Rows[i];
            double y = n - 1 - i;
            bars.Add(new Bar { Position = y, Value = row.Value, Size = 0.64, FillColor = bar, LineWidth = 0, Orientation = Orientation.Horizontal });
            ticks.AddMajor(y, Chart.Label(row.Name));
            Whisker(plot, row.Low, row.High, y, ink);
            Label(plot, chart.Write(row.Value), Math.Max(row.High, row.Value), y, Alignment.MiddleLeft, ink);
        }

        plot.Add.Bars(bars);
        // The ideal as a dashed line with its value above the bars, as in the report.
        var top = n - 0.4;
        if (chart.Ideal > 0)
        {
            plot.Add.VerticalLine(chart.Ideal, 2, File(ChartPalette.Ideal), Pattern(ChartPalette.IdealDash));
            Label(plot, Chart.IdealLabel(chart.Ideal), chart.Ideal, top, Alignment.LowerLeft, File(ChartPalette.Ideal));
            top += 0.9;
        }

        plot.Axes.Left.TickGenerator = ticks;

        // Audience past the slowest interval for its printed median.
        plot.Axes.SetLimits(0, chart.Max * 1.1, -0.6, top);
        plot.XLabel(chart.AxisTitle);
        return 110 + (n * 26);
    }

    private static List<LegendEntry> Draw(Plot plot, SweepChart chart)
    {
        var legend = new List<LegendEntry>();
        for (var i = 0; i < chart.Families.Count; i++)
        {
            var (family, points) = chart.Families[i];
            var line = plot.Add.Scatter(points.Select(p => Math.Log2(p.N)).ToArray(), points.Select(p => Time(p.Ms)).ToArray());
            legend.Add(Series(line, family, i) with { Marker = true });
            line.MarkerSize = 7;
        }

        // On a growth's log-log chart, times are drawn as their logarithms, and ticked as times.
        double Time(double ms) => chart.LogTime ? Math.Log10(Math.Max(ms, 1e-6)) : ms;

        if (chart.Chosen.Count > 0)
        {
            plot.Add.Markers(chart.Chosen.Select(p => Math.Log2(p.N)).ToArray(), chart.Chosen.Select(p => p.Ms).ToArray(), MarkerShape.OpenCircle,
                16, File(ChartPalette.Foreground));
            legend.Add(new LegendEntry("the degree chosen", ChartPalette.Foreground.File, null, Marker: true));
        }

        if (chart.IdealPoints.Count > 0)
        {
            var ideal = plot.Add.ScatterLine(chart.IdealPoints.Select(p => Math.Log2(p.N)).ToArray(), chart.IdealPoints.Select(p => Time(p.Ms))
                .ToArray());
            ideal.Color = File(ChartPalette.Ideal);
            ideal.LineWidth = 2;
            ideal.LinePattern = Pattern(ChartPalette.IdealDash);
            legend.Add(new LegendEntry(chart.IdealPointsLabel, ChartPalette.Ideal.File, ChartPalette.IdealDash, Marker: false));
        }
        else if (chart.Scenario.IdealMs > 0)
        {
            plot.Add.HorizontalLine(chart.Scenario.IdealMs, 2, File(ChartPalette.Ideal), Pattern(ChartPalette.IdealDash));
            legend.Add(new LegendEntry(Chart.IdealLabel(chart.Scenario.IdealMs), ChartPalette.Ideal.File, ChartPalette.IdealDash, Marker: false));
        }

        var ticks = new ScottPlot.TickGenerators.NumericManual();
        foreach (var n in chart.Ns)
        {
            ticks.AddMajor(Math.Log2(n), n.ToString(Invariant));
        }

        plot.Axes.Bottom.TickGenerator = ticks;
        var (first, last) = (Math.Log2(chart.Ns[0]), Math.Log2(chart.Ns[^1]));
        var pad = Math.Max(0.25, (last - first) * 0.04);
        if (chart.LogTime)
        {
            var timeTicks = new ScottPlot.TickGenerators.NumericManual();
            foreach (var tick in SvgCharts.DecadeTicks(chart.MinMs, chart.MaxMs))
            {
                timeTicks.AddMajor(Math.Log10(tick), Chart.Ms(tick));
            }

            plot.Axes.Left.TickGenerator = timeTicks;
            plot.Axes.SetLimits(first - pad, last + pad, Time(chart.MinMs), Time(chart.MaxMs));
        }
        else
        {
            plot.Axes.SetLimits(first - pad, last + pad, 0, chart.MaxMs);
        }
        plot.XLabel(chart.AxisTitle);
        plot.YLabel(chart.ValueAxis);
        return legend;
    }

    private static List<LegendEntry> Draw(Plot plot, OverTimeChart chart)
    {
        var legend = new List<LegendEntry>();
        for (var i = 0; i < chart.Series.Count; i++)
        {
            var (name, points) = chart.Series[i];
            var line = plot.Add.ScatterLine(points.Select(p => p.TimeMs).ToArray(), points.Select(p => p.Value).ToArray());
            legend.Add(Series(line, name, i));
        }

        // The pool's own reasons for its steps, as dots (raises) and rings (lowerings) in their line's colour, as the SVG has them.
        foreach (var group in chart.Marks.GroupBy(m => (m.Series, m.Lowered)))
        {
            var (colour, _) = ChartPalette.StyleOf(group.Key.Series);
            plot.Add.Markers(group.Select(m => m.TimeMs).ToArray(), group.Select(m => m.Value).ToArray(), group.Key.Lowered ? MarkerShape.OpenCircle
                : MarkerShape.FilledCircle, 7, File(ChartPalette.Series[colour]));
        }

        if (chart.Marks.Any(m => !m.Lowered))
        {
            legend.Add(new LegendEntry(OverTimeChart.RaiseLegend, ChartPalette.Foreground.File, null, Marker: true));
        }

        if (chart.Marks.Any(m => m.Lowered))
        {
            legend.Add(new LegendEntry(OverTimeChart.LoweringLegend, ChartPalette.Foreground.File, null, Marker: true) { Ring = true });
        }

        plot.Axes.SetLimits(0, chart.MaxTimeMs, 0, chart.MaxValue);
        plot.XLabel(chart.TimeTitle);
        plot.YLabel(chart.Quantity);
        return legend;
    }

    // The most characters of a strip's label that fit the image's width at the legend's size.
    private const int LongestStripLabel = 112;

    // Strips one above another, each a variant's on its own scale: strip i spans [floor, floor + 1] of the vertical
    // axis, with a gap for its label above it.
    private const double StripGap = 0.55;

    private static double StripFloor(int r, int count) => (count - 1 - r) * (1 + StripGap);

    // A strip's label above it, cut to the image's width.
    private static void StripLabel(Plot plot, string text, double floor, Color ink) =>
        Label(plot, text.Length <= LongestStripLabel ? text : string.Concat(text.AsSpan(0, LongestStripLabel - 1), "\u2026"), 0, floor + 1
            + (StripGap / 2), Alignment.MiddleLeft, ink);

    // The axes of strips: time across, no ticks up (each strip has its own scale).
    private static void StripAxes(Plot plot, double maxTimeMs, int count)
    {
        plot.Axes.Left.TickGenerator = new ScottPlot.TickGenerators.NumericManual();
        plot.Axes.SetLimits(0, maxTimeMs, -0.05, (count * (1 + StripGap)) - 0.1);
    }

    // A strip per variant, each on its own scale: a strip's band i spans [base, base + 1] of the vertical axis.
    private static List<LegendEntry> Draw(Plot plot, ThreadStateChart chart)
    {
        var rows = chart.Rows;
        var ink = File(ChartPalette.Foreground);
        for (var r = 0; r < rows.Count; r++)
        {
            var row = rows[r];
            var floor = StripFloor(r, rows.Count);
            double Y(double threads) => floor + (threads / row.Peak);
            var below = new double[row.Timeline.Count];
            for (var state = 0; state < ThreadStateChart.States.Count; state++)
            {
                var upper = row.Timeline.Select((b, i) => below[i] + (state switch { 0 => b.Running, 1 => b.Waiting, 2 => b.Sleeping, _ => b.Io }))
                    .ToArray();
                if (!upper.SequenceEqual(below))
                {
                    var outline = new List<Coordinates>();
                    for (var i = 0; i < upper.Length; i++)
                    {
                        outline.Add(new Coordinates(i * row.BinMs, Y(upper[i])));
                        outline.Add(new Coordinates((i + 1) * row.BinMs, Y(upper[i])));
                    }

                    for (var i = upper.Length - 1; i >= 0; i--)
                    {
                        outline.Add(new Coordinates((i + 1) * row.BinMs, Y(below[i])));
                        outline.Add(new Coordinates(i * row.BinMs, Y(below[i])));
                    }

                    var band = plot.Add.Polygon([.. outline]);
                    band.FillColor = File(ChartPalette.Series[ThreadStateChart.States[state].Colour]);
                    band.LineWidth = 0;
                    below = upper;
                }
            }

            foreach (var group in row.Marks.GroupBy(m => m.Lowered))
            {
                plot.Add.Markers(group.Select(m => m.TimeMs).ToArray(), group.Select(m => Y(m.Value)).ToArray(), group.Key ? MarkerShape.OpenCircle
                    : MarkerShape.FilledCircle, 6, ink);
            }

            var text = row.Site is null
                ? $"{Chart.Label(row.Name)}  (peak {row.Peak.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture)})" : $"{Chart.Label(row.Name)}  (peak {row.Peak.ToString("0.#", System.Globalization.CultureInfo.InvariantCulture)}): {row.Site}";
            StripLabel(plot, text, floor, ink);
        }

        StripAxes(plot, chart.MaxTimeMs, rows.Count);
        plot.XLabel(OverTimeChart.TimeAxis);
        plot.YLabel("threads, each strip to its own peak");
        return
        [
            .. ThreadStateChart.States.Select(s => new LegendEntry(s.Name, ChartPalette.Series[s.Colour].File, null, Marker: false)),
            new LegendEntry(OverTimeChart.RaiseLegend, ChartPalette.Foreground.File, null, Marker: true),
            .. rows.Any(r => r.Marks.Any(m => m.Lowered))
                ? [new LegendEntry(OverTimeChart.LoweringLegend, ChartPalette.Foreground.File, null, Marker: true) { Ring = true }]
                    : Array.Empty<LegendEntry>(),
        ];
    }

    // A strip per variant, each on its own scale: its items in flight as a stepped area, the most it allows dashed.
    private static List<LegendEntry> Draw(Plot plot, InFlightChart chart)
    {
        var rows = chart.Rows;
        var ink = File(ChartPalette.Foreground);
        var (colour, _) = ChartPalette.StyleOf(0);
        for (var r = 0; r < rows.Count; r++)
        {
            var row = rows[r];
            var floor = StripFloor(r, rows.Count);
            double Y(double items) => floor + (items / row.Top);
            var outline = new List<Coordinates> { new(0, floor) };
            for (var i = 0; i < row.Timeline.Count; i++)
            {
                outline.Add(new Coordinates(i * row.BinMs, Y(row.Timeline[i])));
                outline.Add(new Coordinates((i + 1) * row.BinMs, Y(row.Timeline[i])));
            }

            outline.Add(new Coordinates(row.Timeline.Count * row.BinMs, floor));
            var area = plot.Add.Polygon([.. outline]);
            area.FillColor = File(ChartPalette.Series[colour]);
            area.LineWidth = 0;
            if (row.Allowed is { } allowed)
            {
                var line = plot.Add.Line(0, Y(allowed), chart.MaxTimeMs, Y(allowed));
                line.LineColor = ink;
                line.LineWidth = 1;
                line.LinePattern = Pattern("4 3");
                line.MarkerSize = 0;
            }

            var text = $"{Chart.Label(row.Name)}  {row.Said}";
            StripLabel(plot, text, floor, ink);
        }

        StripAxes(plot, chart.MaxTimeMs, rows.Count);
        plot.XLabel(OverTimeChart.TimeAxis);
        plot.YLabel("items in flight, each strip to its own scale");
        return
        [
            new LegendEntry("items in flight", ChartPalette.Series[colour].File, null, Marker: false),
            new LegendEntry("the most it allows", ChartPalette.Foreground.File, "4 3", Marker: false),
        ];
    }

    private static LegendEntry Series(ScottPlot.Plottables.Scatter line, string name, int index)
    {
        var (colour, dash) = ChartPalette.StyleOf(index);
        line.Color = File(ChartPalette.Series[colour]);
        line.LineWidth = 1.8f;
        line.LinePattern = Pattern(ChartPalette.DashPatterns[dash]);
        line.MarkerSize = 0;
        return new LegendEntry(Chart.Label(name), ChartPalette.Series[colour].File, ChartPalette.DashPatterns[dash], Marker: false);
    }

    /// <summary>Text at a point of the plot, just right of it, in the plot's font at the legend's size.</summary>
    private static void Label(Plot plot, string text, double x, double y, Alignment alignment, Color colour)
    {
        var label = plot.Add.Text(text, x, y);
        label.LabelStyle.Alignment = alignment;
        label.LabelStyle.OffsetX = 5;
        label.LabelStyle.ForeColor = colour;
        label.LabelStyle.FontSize = LegendFontSize;
        label.LabelStyle.FontName = plot.Axes.Bottom.TickLabelStyle.FontName;
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

    /// <summary>The first sans-serif family this machine has, for every text in every image: looked up once, not per chart.</summary>
    private static readonly Lazy<string> SansFont = new(() =>
    {
        var installed = SKFontManager.Default.GetFontFamilies();
        return SansFonts.FirstOrDefault(f => installed.Contains(f, StringComparer.OrdinalIgnoreCase))
            ?? throw new NotSupportedException($"PNG charts need a sans-serif font, and none of {string.Join(", ", SansFonts)} is installed " +
                $"(on Debian: apt-get install fonts-dejavu-core).");
    });

    /// <summary>Transparent backgrounds, mid-tone text and axes, a faint grid, and the given font.</summary>
    private static void Style(Plot plot, string font)
    {
        plot.Font.Set(font);
        plot.ScaleFactor = Density;
        var ink = File(ChartPalette.Foreground);
        plot.FigureBackground.Color = Colors.Transparent;
        plot.DataBackground.Color = Colors.Transparent;
        plot.Axes.Color(ink);
        plot.Grid.MajorLineColor = File(ChartPalette.Muted).WithOpacity(0.3);
    }

    private static Color File(ChartPalette.Tones tones) => Color.FromHex(tones.File);

    private static LinePattern Pattern(string? dashes) => dashes is null ? LinePattern.Solid : new LinePattern(Dashes(dashes), 0, dashes);

    /// <summary>An SVG <c>stroke-dasharray</c> ("7 4") as dash and gap lengths.</summary>
    private static float[] Dashes(string dashes) => [.. dashes.Split(' ').Select(d => float.Parse(d, Invariant))];
}

/// <summary>
/// The charts as PNG files beside the SVG ones: hand <see cref="Instance"/> to a run's chart formats (the
/// conclab tool does; a program of your own adds it to <c>LabProgramOptions.ChartFormats</c>).
/// </summary>
public sealed class PngChartFormat : ChartFormat
{
    private PngChartFormat()
        : base("png")
    {
    }

    /// <summary>The PNG format, 1600 pixels wide (800 points at twice the density), in mid tones on a transparent background.</summary>
    public static PngChartFormat Instance { get; } = new();

    internal override byte[] Draw(Chart chart) => PngCharts.Draw(chart);
}
