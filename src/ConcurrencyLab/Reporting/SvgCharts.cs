using System.Globalization;
using System.Net;
using System.Text;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// Charts as inline SVG, drawn from the results alone, so a report needs no script, no font and no network.
/// Colours come from CSS classes (<c>bar</c>, <c>axis</c>, <c>series-N</c>), so one chart reads on a light page
/// and a dark one. Output is deterministic: the same results give the same bytes.
/// </summary>
internal static class SvgCharts
{
    private const int Width = 760;
    private const int RowHeight = 22;
    private const int LabelWidth = 190;
    private const int RightMargin = 70;
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>Draws <paramref name="chart"/>.</summary>
    public static string Draw(Chart chart) => chart switch
    {
        BarChart bars => Draw(bars),
        SweepChart sweep => Draw(sweep),
        OverTimeChart lines => Draw(lines),
        ThreadStateChart states => Draw(states),
        InFlightChart inFlight => Draw(inFlight),
        _ => throw new ArgumentException($"no drawing for a {chart?.GetType().Name ?? "null"} chart", nameof(chart)),
    };

    /// <summary>
    /// A chart as a file of its own, to paste in a post: the same drawing with its colours inside it, mid
    /// tones on a transparent background, so it reads on a light page and a dark one; with the chart's
    /// <see cref="Chart.Caption"/>, a title above it and the caption (scenario, machine, date) below.
    /// </summary>
    public static string Standalone(string svg, Chart? chart = null)
    {
        ArgumentNullException.ThrowIfNull(svg);
        var end = svg.IndexOf('>', StringComparison.Ordinal) + 1;
        var open = svg[..end];
        var body = svg[end..];
        if (chart?.Caption is { } caption && Height(open) is { } height)
        {
            // The drawing moves down under its title; the caption goes under it, both inside the file's own size.
            var total = height + TitleHeight + CaptionHeight;
            open = open
                .Replace($"viewBox=\"0 0 {Width} {height}\"", $"viewBox=\"0 0 {Width} {total}\"", StringComparison.Ordinal)
                .Replace($"height=\"{height}\"", $"height=\"{total}\"", StringComparison.Ordinal);
            var inner = body[..body.LastIndexOf("</svg>", StringComparison.Ordinal)];
            body = string.Create(
                Invariant,
                $"<text class=\"chart-title\" x=\"8\" y=\"18\">{Encode(chart.Title)}</text><g transform=\"translate(0 " +
                    $"{TitleHeight})\">{inner}</g><text class=\"chart-caption\" x=\"8\" y=\"{total - 8}\">{Encode(caption)}</text></svg>");
        }

        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + open + "<style>" + StandaloneStyle + "</style>" + body + "\n";
    }

    private const int TitleHeight = 28;
    private const int CaptionHeight = 22;

    private static readonly string StandaloneStyle = "svg{font:12px " +
        "system-ui,sans-serif}.chart-title{font-size:14px;font-weight:600}.chart-caption{font-size:11px}"
        + ChartPalette.Css(t => t.File, string.Empty) + $".chart-title,.chart-caption{{fill:{ChartPalette.Foreground.File}}}";

    // The drawing's height, as Open wrote it.
    private static int? Height(string open)
    {
        var match = System.Text.RegularExpressions.Regex.Match(open, $"viewBox=\"0 0 {Width} (\\d+)\"");
        return match.Success ? int.Parse(match.Groups[1].Value, Invariant) : null;
    }

    /// <summary>Horizontal bars in the tables' order with their whiskers, and the ideal as a dashed line where the chart has one.</summary>
    private static string Draw(BarChart chart)
    {
        var (rows, max, ideal) = (chart.Rows, chart.Max, chart.Ideal);
        var top = 24;
        var height = top + (rows.Count * RowHeight) + 36;
        var plotWidth = Width - LabelWidth - RightMargin;

        double X(double value) => LabelWidth + (value / max * plotWidth);

        var svg = Open(chart is WallTimeChart ? "wall-time" : "metric", chart, height);
        for (var i = 0; i < rows.Count; i++)
        {
            var row = rows[i];
            var y = top + (i * RowHeight);
            svg.Append(
                Invariant, $"<text class=\"label\" x=\"{LabelWidth - 8}\" y=\"{y + 15}\" text-anchor=\"end\">{Encode(Chart.Label(row.Name))}</text>");
            svg.Append(
                Invariant, $"<rect class=\"bar\" data-variant=\"{Encode(row.Name)}\" x=\"{LabelWidth}\" y=\"{y + 4}\" " +
                    $"width=\"{Fmt(X(row.Value) - LabelWidth)}\" height=\"{RowHeight - 8}\"><title>{Encode(row.Tooltip)}</title></rect>");
            var middle = y + (RowHeight / 2);
            svg.Append(
                Invariant, $"<path class=\"whisker\" d=\"M{Fmt(X(row.Low))} {middle}H{Fmt(X(row.High))}M{Fmt(X(row.Low))} {middle - 4}v8M{Fmt(X(row.High))} {middle - 4}v8\"/>");

            svg.Append(
                Invariant, $"<text class=\"value\" x=\"{Fmt(X(Math.Max(row.High, row.Value)) + 6)}\" " +
                    $"y=\"{y + 15}\">{Encode(chart.Write(row.Value))}</text>");
        }

        var bottom = top + (rows.Count * RowHeight);
        if (ideal > 0)
        {
            svg.Append(
                Invariant, $"<line class=\"ideal\" x1=\"{Fmt(X(ideal))}\" y1=\"{top - 6}\" x2=\"{Fmt(X(ideal))}\" " +
                    $"y2=\"{bottom}\"><title>{Chart.IdealLabel(ideal)}</title></line>");
            svg.Append(
                Invariant, $"<text class=\"ideal-label\" x=\"{Fmt(X(ideal))}\" y=\"{top - 10}\" " +
                    $"text-anchor=\"middle\">{Chart.IdealLabel(ideal)}</text>");
        }

        Axis(svg, bottom, LabelWidth, LabelWidth + plotWidth, max, chart.AxisTitle, X);
        return svg.Append("</svg>").ToString();
    }

    /// <summary>One line per variant over its first successful trial.</summary>
    private static string Draw(OverTimeChart chart)
    {
        var (series, title) = (chart.Series, chart.Quantity);
        const int top = 16;
        const int plotHeight = 220;
        const int left = 56;
        var height = top + plotHeight + LegendHeight(series.Count);
        var plotWidth = Width - left - 20;
        var (maxTime, maxValue) = (chart.MaxTimeMs, chart.MaxValue);

        double X(double ms) => left + (ms / maxTime * plotWidth);
        double Y(double v) => top + plotHeight - (v / maxValue * plotHeight);

        var svg = Open("over-time", chart, height);
        Grid(svg, left, plotWidth, maxValue, Y);

        for (var i = 0; i < series.Count; i++)
        {
            var points = string.Join(' ', series[i].Points.Select(p => $"{Fmt(X(p.TimeMs))},{Fmt(Y(p.Value))}"));
            svg.Append(
                Invariant, $"<polyline class=\"line {ChartPalette.CssClasses(i)}\" data-variant=\"{Encode(series[i].Name)}\" " +
                    $"points=\"{points}\"><title>{Encode(series[i].Name)}: peak {Number(series[i].Points.Max(p => p.Value))}</title></polyline>");
        }

        // The pool's own reasons for its steps, on the line they explain.
        foreach (var mark in chart.Marks.Where(m => m.TimeMs >= 0 && m.TimeMs <= maxTime))
        {
            svg.Append(
                Invariant, $"<circle class=\"mark{(mark.Lowered ? " lower" : string.Empty)} {ChartPalette.CssClasses(mark.Series)}\" " +
                    $"cx=\"{Fmt(X(mark.TimeMs))}\" cy=\"{Fmt(Y(mark.Value))}\" r=\"3.5\"><title>{Encode(mark.Label)}</title></circle>");
        }

        Axis(svg, top + plotHeight, left, left + plotWidth, maxTime, chart.TimeTitle, X);
        VerticalTitle(svg, top + (plotHeight / 2), title);
        Legend(svg, series.Select(s => s.Name), left, plotWidth, top + plotHeight);

        return svg.Append("</svg>").ToString();
    }

    /// <summary>A strip per variant: its threads by state stacked over time, the pool's raises as dots, its top site above it.</summary>
    private static string Draw(ThreadStateChart chart)
    {
        var rows = chart.Rows;
        var strips = new Strips(rows.Count, chart.MaxTimeMs);
        var (left, bottom) = (Strips.Left, strips.Bottom);
        double X(double ms) => strips.X(ms);

        var svg = Open("thread-states", chart, bottom + 50 + 18);
        for (var r = 0; r < rows.Count; r++)
        {
            var row = rows[r];
            double Y(double threads) => Strips.Y(r, threads, row.Peak);
            svg.Append(
                Invariant, $"<text class=\"label\" x=\"{left}\" y=\"{Strips.LabelY(r)}\"><tspan " +
                    $"font-weight=\"600\">{Encode(Chart.Label(row.Name))}</tspan>");
            if (row.Site is { } site)
            {
                // Cut to the strip's width; the whole sentence is the strip's tooltip.
                var room = Math.Max(20, 104 - Chart.Label(row.Name).Length);
                var said = site.Length <= room ? site : string.Concat(site.AsSpan(0, room - 1), "\u2026");
                svg.Append(Invariant, $"<tspan class=\"tick\" dx=\"8\">{Encode(said)}<title>{Encode(site)}</title></tspan>");
            }

            svg.Append("</text>");
            Strips.Scale(svg, r, row.Peak);

            // Each state's band between the states below it and itself, as a stepped outline over the spans.
            var below = new double[row.Timeline.Count];
            for (var state = 0; state < ThreadStateChart.States.Count; state++)
            {
                var upper = row.Timeline.Select((b, i) => below[i] + Count(b, state)).ToArray();
                if (upper.SequenceEqual(below))
                {
                    continue;
                }

                var path = new StringBuilder();
                for (var i = 0; i < upper.Length; i++)
                {
                    path.Append(
                        Invariant, $"{(i == 0 ? "M" : "L")}{Fmt(X(i * row.BinMs))} {Fmt(Y(upper[i]))}L{Fmt(X((i + 1) * row.BinMs))} {Fmt(Y(upper[i]))}");
                }

                for (var i = upper.Length - 1; i >= 0; i--)
                {
                    path.Append(Invariant, $"L{Fmt(X((i + 1) * row.BinMs))} {Fmt(Y(below[i]))}L{Fmt(X(i * row.BinMs))} {Fmt(Y(below[i]))}");
                }

                var (name, colour) = ThreadStateChart.States[state];
                var total = row.Timeline.Sum(b => Count(b, state)) * row.BinMs;
                svg.Append(
                    Invariant, $"<path class=\"band series-{colour}\" data-variant=\"{Encode(row.Name)}\" data-state=\"{Encode(name)}\" " +
                        $"d=\"{path}Z\"><title>{Encode(row.Name)}: {Encode(name)}, {Number(Math.Round(total))} thread-ms</title></path>");
                below = upper;
            }

            foreach (var mark in row.Marks)
            {
                svg.Append(
                    Invariant, $"<circle class=\"{(mark.Lowered ? "lower" : "raise")}\" cx=\"{Fmt(X(mark.TimeMs))}\" " +
                        $"cy=\"{Fmt(Y(mark.Value))}\" r=\"3\"><title>{Encode(mark.Label)}</title></circle>");
            }
        }

        Axis(svg, bottom, left, left + Strips.PlotWidth, chart.MaxTimeMs, OverTimeChart.TimeAxis, X);
        var legendY = bottom + 56;
        for (var state = 0; state < ThreadStateChart.States.Count; state++)
        {
            var (name, colour) = ThreadStateChart.States[state];
            var x = left + (state * 120);
            svg.Append(
                Invariant, $"<rect class=\"band series-{colour}\" x=\"{x}\" y=\"{legendY - 10}\" width=\"14\" height=\"10\"/><text " +
                    $"class=\"label\" x=\"{x + 18}\" y=\"{legendY}\">{Encode(name)}</text>");
        }

        var dotX = left + (ThreadStateChart.States.Count * 120);
        svg.Append(
            Invariant, $"<circle class=\"raise\" cx=\"{dotX + 5}\" cy=\"{legendY - 4}\" r=\"3\"/><text class=\"label\" x=\"{dotX + 14}\" " +
                $"y=\"{legendY}\">{OverTimeChart.RaiseLegend}</text>");
        if (rows.Any(r => r.Marks.Any(m => m.Lowered)))
        {
            svg.Append(
                Invariant, $"<circle class=\"lower\" cx=\"{dotX + 5}\" cy=\"{legendY + 12}\" r=\"3\"/><text class=\"label\" " +
                    $"x=\"{dotX + 14}\" y=\"{legendY + 16}\">{OverTimeChart.LoweringLegend}</text>");
        }
        return svg.Append("</svg>").ToString();

        static double Count(Measurement.ThreadCounts b, int state) => state switch { 0 => b.Running, 1 => b.Waiting, 2 => b.Sleeping, _ => b.Io };
    }

    /// <summary>A strip per variant: its items in flight over time as a stepped area, a dashed line at the most it
    /// allows, its figures above it.</summary>
    private static string Draw(InFlightChart chart)
    {
        var rows = chart.Rows;
        var strips = new Strips(rows.Count, chart.MaxTimeMs);
        var (left, plotWidth, bottom) = (Strips.Left, Strips.PlotWidth, strips.Bottom);
        double X(double ms) => strips.X(ms);

        var svg = Open("in-flight", chart, bottom + 50);
        for (var r = 0; r < rows.Count; r++)
        {
            var row = rows[r];
            var floor = Strips.Floor(r);
            double Y(double items) => Strips.Y(r, items, row.Top);
            svg.Append(
                Invariant, $"<text class=\"label\" x=\"{left}\" y=\"{Strips.LabelY(r)}\"><tspan " +
                    $"font-weight=\"600\">{Encode(Chart.Label(row.Name))}</tspan><tspan class=\"tick\" dx=\"8\">{Encode(row.Said)}</tspan></text>");
            Strips.Scale(svg, r, row.Top);
            var path = new StringBuilder();
            path.Append(Invariant, $"M{Fmt(X(0))} {floor}");
            for (var i = 0; i < row.Timeline.Count; i++)
            {
                path.Append(Invariant, $"L{Fmt(X(i * row.BinMs))} {Fmt(Y(row.Timeline[i]))}L{Fmt(X((i + 1) * row.BinMs))} {Fmt(Y(row.Timeline[i]))}");
            }

            path.Append(Invariant, $"L{Fmt(X(row.Timeline.Count * row.BinMs))} {floor}Z");
            svg.Append(
                Invariant, $"<path class=\"in-flight {ChartPalette.CssClasses(0)}\" data-variant=\"{Encode(row.Name)}\" " +
                    $"d=\"{path}\"><title>{Encode(row.Name)}: {Encode(row.Said)}</title></path>");
            if (row.Allowed is { } allowed)
            {
                svg.Append(
                    Invariant, $"<line class=\"allowed\" x1=\"{left}\" y1=\"{Fmt(Y(allowed))}\" x2=\"{left + plotWidth}\" " +
                        $"y2=\"{Fmt(Y(allowed))}\"><title>{Encode(row.Name)}: at most {Number(allowed)} allowed at once</title></line>");
            }
        }

        Axis(svg, bottom, left, left + Strips.PlotWidth, chart.MaxTimeMs, OverTimeChart.TimeAxis, X);
        return svg.Append("</svg>").ToString();
    }

    /// <summary>
    /// Strips one above another, each a variant's on its own scale (the thread states, the items in flight): where each
    /// strip's label, floor and values go, and its scale drawn.
    /// </summary>
    private readonly record struct Strips(int Count, double MaxTimeMs)
    {
        public const int Left = 56;
        public const int PlotWidth = Width - Left - 20;
        private const int LabelRoom = 20;
        private const int Height = 46;
        private const int RowHeight = LabelRoom + Height + 12;

        /// <summary>The bottom of the last strip.</summary>
        public int Bottom => 8 + (Count * RowHeight);

        /// <summary>Where a time goes across.</summary>
        public double X(double ms) => Left + (Math.Min(ms, MaxTimeMs) / MaxTimeMs * PlotWidth);

        /// <summary>The baseline of strip <paramref name="r"/>'s label.</summary>
        public static int LabelY(int r) => 8 + (r * RowHeight) + 12;

        /// <summary>Strip <paramref name="r"/>'s zero.</summary>
        public static int Floor(int r) => 8 + (r * RowHeight) + LabelRoom + Height;

        /// <summary>Where <paramref name="value"/> goes up strip <paramref name="r"/>, whose scale ends at <paramref name="top"/>.</summary>
        public static double Y(int r, double value, double top) => Floor(r) - (value / top * Height);

        /// <summary>Strip <paramref name="r"/>'s axis, and its scale from 0 to <paramref name="top"/>.</summary>
        public static void Scale(StringBuilder svg, int r, double top)
        {
            var floor = Floor(r);
            svg.Append(Invariant, $"<line class=\"axis\" x1=\"{Left}\" y1=\"{floor}\" x2=\"{Left + PlotWidth}\" y2=\"{floor}\"/>");
            svg.Append(
                Invariant, $"<text class=\"tick\" x=\"{Left - 6}\" y=\"{Fmt(Y(r, top, top) + 4)}\" " +
                    $"text-anchor=\"end\">{Number(top)}</text><text class=\"tick\" x=\"{Left - 6}\" y=\"{floor + 4}\" text-anchor=\"end\">0</text>");
        }
    }

    /// <summary>A line per family against the swept number, on a log-2 axis, with the ideal as a dashed line.</summary>
    private static string Draw(SweepChart chart)
    {
        var (scenario, families, ns, maxMs) = (chart.Scenario, chart.Families, chart.Ns, chart.MaxMs);
        const int top = 16;
        const int plotHeight = 220;
        const int left = 64;
        var height = top + plotHeight + LegendHeight(families.Count);
        var plotWidth = Width - left - 20;
        var (minLog, maxLog) = (Math.Log2(ns[0]), Math.Log2(ns[^1]));
        double X(double n) => maxLog == minLog ? left + (plotWidth / 2.0) : left + ((Math.Log2(n) - minLog) / (maxLog - minLog) * plotWidth);
        var (logLow, logHigh) = (Math.Log10(Math.Max(chart.MinMs, 1e-6)), Math.Log10(maxMs));
        double Y(double ms) => chart.LogTime
            ? top + plotHeight - ((Math.Log10(Math.Max(ms, 1e-6)) - logLow) / Math.Max(logHigh - logLow, 1e-9) * plotHeight)
            : top + plotHeight - (ms / maxMs * plotHeight);

        var svg = Open("sweep", chart, height);
        Grid(svg, left, plotWidth, chart.LogTime ? DecadeTicks(chart.MinMs, maxMs) : Ticks(maxMs), Y);

        if (chart.IdealPoints.Count > 0)
        {
            svg.Append(
                Invariant, $"<polyline class=\"ideal\" fill=\"none\" " +
                    $"points=\"{string.Join(' ', chart.IdealPoints.Select(p => $"{Fmt(X(p.N))},{Fmt(Y(p.Ms))}"))}\"><title>{Encode(chart.IdealPointsLabel)}</title></polyline>");
        }
        else if (scenario.IdealMs > 0)
        {
            svg.Append(
                Invariant, $"<line class=\"ideal\" x1=\"{left}\" y1=\"{Fmt(Y(scenario.IdealMs))}\" x2=\"{left + plotWidth}\" " +
                    $"y2=\"{Fmt(Y(scenario.IdealMs))}\"><title>{Chart.IdealLabel(scenario.IdealMs)}</title></line>");
        }

        for (var i = 0; i < families.Count; i++)
        {
            var (family, points) = families[i];
            svg.Append(
                Invariant, $"<polyline class=\"line {ChartPalette.CssClasses(i)}\" data-family=\"{Encode(family)}\" " +
                    $"points=\"{string.Join(' ', points.Select(p => $"{Fmt(X(p.N))},{Fmt(Y(p.Ms))}"))}\"/>");
            foreach (var (n, ms, variant) in points)
            {
                svg.Append(
                    Invariant, $"<circle class=\"{ChartPalette.CssClasses(i)}\" cx=\"{Fmt(X(n))}\" cy=\"{Fmt(Y(ms))}\" " +
                        $"r=\"3\"><title>{Encode(variant)}: {chart.PointText.Word} {Chart.Ms(ms)} {chart.PointText.Unit}</title></circle>");
            }
        }

        // A search's chosen degrees, ringed.
        foreach (var (n, ms, variant) in chart.Chosen)
        {
            svg.Append(
                Invariant, $"<circle class=\"chosen\" cx=\"{Fmt(X(n))}\" cy=\"{Fmt(Y(ms))}\" r=\"7\"><title>{Encode(variant)}: chosen, " +
                    $"median {Chart.Ms(ms)} ms</title></circle>");
        }

        var bottom = top + plotHeight;
        svg.Append(Invariant, $"<line class=\"axis\" x1=\"{left}\" y1=\"{bottom}\" x2=\"{left + plotWidth}\" y2=\"{bottom}\"/>");
        foreach (var n in ns)
        {
            svg.Append(
                Invariant, $"<line class=\"axis\" x1=\"{Fmt(X(n))}\" y1=\"{bottom}\" x2=\"{Fmt(X(n))}\" y2=\"{bottom + 4}\"/><text " +
                    $"class=\"tick\" x=\"{Fmt(X(n))}\" y=\"{bottom + 16}\" text-anchor=\"middle\">{n}</text>");
        }

        svg.Append(
            Invariant, $"<text class=\"axis-title\" x=\"{left + (plotWidth / 2)}\" y=\"{bottom + 32}\" " +
                $"text-anchor=\"middle\">{Encode(chart.AxisTitle)}</text>");
        VerticalTitle(svg, top + (plotHeight / 2), chart.ValueAxis);
        Legend(svg, families.Select(f => f.Family), left, plotWidth, bottom);

        return svg.Append("</svg>").ToString();
    }

    /// <summary>The ticks of a logarithmic axis from <paramref name="min"/> to <paramref name="max"/>: 1, 2 and 5 times
    /// each power of 10 within it (powers of 10 alone when that is too many).</summary>
    internal static IEnumerable<double> DecadeTicks(double min, double max)
    {
        if (!(min > 0) || !(max > min) || !double.IsFinite(max))
        {
            yield break;
        }

        var decades = Math.Log10(max / min);
        double[] steps = decades > 3 ? [1] : [1, 2, 5];
        for (var power = Math.Floor(Math.Log10(min)); power <= Math.Ceiling(Math.Log10(max)); power++)
        {
            foreach (var step in steps)
            {
                var tick = step * Math.Pow(10, power);
                if (tick >= min && tick <= max)
                {
                    yield return tick;
                }
            }
        }
    }

    /// <summary>Audience below a plot for its axis, its title and a legend of <paramref name="entries"/> in rows of three.</summary>
    private static int LegendHeight(int entries) => 50 + ((entries + 2) / 3 * 18);

    /// <summary>Horizontal grid lines with their values at the left, at round ticks up to <paramref name="max"/>.</summary>
    private static void Grid(StringBuilder svg, int left, int plotWidth, double max, Func<double, double> y)
        => Grid(svg, left, plotWidth, Ticks(max), y);

    /// <summary>Horizontal grid lines with their values at the left, at <paramref name="ticks"/>.</summary>
    private static void Grid(StringBuilder svg, int left, int plotWidth, IEnumerable<double> ticks, Func<double, double> y)
    {
        foreach (var tick in ticks)
        {
            svg.Append(Invariant, $"<line class=\"grid\" x1=\"{left}\" y1=\"{Fmt(y(tick))}\" x2=\"{left + plotWidth}\" y2=\"{Fmt(y(tick))}\"/>");
            svg.Append(Invariant, $"<text class=\"tick\" x=\"{left - 6}\" y=\"{Fmt(y(tick) + 4)}\" text-anchor=\"end\">{Number(tick)}</text>");
        }
    }

    private static void VerticalTitle(StringBuilder svg, int middle, string title) =>
        svg.Append(
            Invariant, $"<text class=\"axis-title\" x=\"12\" y=\"{middle}\" transform=\"rotate(-90 12 {middle})\" " +
                $"text-anchor=\"middle\">{Encode(title)}</text>");

    /// <summary>A swatch and a name per series, three to a row, below the plot whose bottom is <paramref name="bottom"/>.</summary>
    private static void Legend(StringBuilder svg, IEnumerable<string> names, int left, int plotWidth, int bottom)
    {
        var i = 0;
        foreach (var name in names)
        {
            var x = left + (i % 3 * (plotWidth / 3));
            var y = bottom + 56 + (i / 3 * 18);
            svg.Append(
                Invariant, $"<line class=\"swatch {ChartPalette.CssClasses(i)}\" x1=\"{x}\" y1=\"{y - 4}\" x2=\"{x + 14}\" " +
                    $"y2=\"{y - 4}\"/><text class=\"label\" x=\"{x + 18}\" y=\"{y}\">{Encode(Chart.Label(name))}</text>");
            i++;
        }
    }

    private static StringBuilder Open(string kind, Chart chart, int height) =>
        new StringBuilder().Append(
            Invariant, $"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart {kind}\" data-scenario=\"{Encode(chart.Scenario.Name)}\" " +
                $"viewBox=\"0 0 {Width} {height}\" width=\"{Width}\" height=\"{height}\" role=\"img\" aria-label=\"{Encode(chart.Description)}\">");

    private static void Axis(StringBuilder svg, int y, int x1, int x2, double max, string title, Func<double, double> x)
    {
        svg.Append(Invariant, $"<line class=\"axis\" x1=\"{x1}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\"/>");
        foreach (var tick in Ticks(max))
        {
            svg.Append(
                Invariant, $"<line class=\"axis\" x1=\"{Fmt(x(tick))}\" y1=\"{y}\" x2=\"{Fmt(x(tick))}\" y2=\"{y + 4}\"/><text " +
                    $"class=\"tick\" x=\"{Fmt(x(tick))}\" y=\"{y + 16}\" text-anchor=\"middle\">{Number(tick)}</text>");
        }

        svg.Append(Invariant, $"<text class=\"axis-title\" x=\"{(x1 + x2) / 2}\" y=\"{y + 32}\" text-anchor=\"middle\">{Encode(title)}</text>");
    }

    /// <summary>Round tick values from 0 to <paramref name="max"/>, about five of them (1, 2 or 5 times a power of ten apart).</summary>
    internal static IEnumerable<double> Ticks(double max)
    {
        if (max <= 0 || !double.IsFinite(max))
        {
            yield break;
        }

        var raw = max / 5;
        var power = Math.Pow(10, Math.Floor(Math.Log10(raw)));
        var step = NiceSteps.Select(f => f * power).First(s => s >= raw);
        for (var tick = 0.0; tick <= max + (step / 1e6); tick += step)
        {
            yield return Math.Round(tick, 10);
        }
    }

    private static readonly double[] NiceSteps = [1, 2, 5, 10];

    private static string Fmt(double value) => value.ToString("0.#", Invariant);

    private static string Number(double value) => value.ToString(value >= 1000 ? "N0" : "0.##", Invariant);

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
