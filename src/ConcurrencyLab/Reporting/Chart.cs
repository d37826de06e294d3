using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// What a chart shows, chosen from a scenario's results once, apart from how it is drawn: the report's inline
/// SVG, the SVG files and the PNG files all draw these, so they always show the same thing.
/// </summary>
internal abstract record Chart
{
    private protected Chart(ScenarioResult scenario) => Scenario = scenario;

    /// <summary>The scenario the chart belongs to.</summary>
    public ScenarioResult Scenario { get; }

    /// <summary>The most bars, lines or strips a chart draws: beyond them a picture is no longer read, and only costs
    /// time and memory to draw.</summary>
    public const int MaxRows = 60;

    /// <summary>The first <see cref="MaxRows"/> of <paramref name="all"/>, in the tables' order: what a chart draws of them.</summary>
    private protected static IReadOnlyList<T> FirstDrawn<T>(IReadOnlyList<T> all) => all.Count > MaxRows ? [.. all.Take(MaxRows)] : all;

    /// <summary>What a chart of <paramref name="total"/> variants leaves out, as a clause for its description; empty when nothing.</summary>
    private protected static string LeftOutClause(int total) =>
        total > MaxRows ? $" (the first {MaxRows} variants in the tables' order; {total - MaxRows} more are in results.md)" : string.Empty;

    /// <summary>The chart's kind, also the end of its file name: <c>wall-time</c>, <c>sweep</c>, <c>metric-</c> and an
    /// id, <c>os-threads</c>, <c>pool-threads</c>.</summary>
    public abstract string Kind { get; }

    /// <summary>One sentence saying what the chart shows, for readers who cannot see it.</summary>
    public abstract string Description { get; }

    /// <summary>A chart file's title, short enough for one line above it: its description unless said shorter.</summary>
    public virtual string Title => Description;

    /// <summary>
    /// The line a chart file carries under it so that a pasted image stands alone: the scenario, the machine and
    /// the date (<see cref="CaptionOf"/>); null in the report, whose page says all that already.
    /// </summary>
    public string? Caption { get; init; }

    /// <summary>A chart file's caption for a scenario of <paramref name="run"/>: "conclab, delay: Debian..., .NET
    /// 10.0.12, 2 logical cores, x64, GC workstation, concurrent; 2026-11-23".</summary>
    public static string CaptionOf(RunResult run, ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(scenario);
        var date = run.StartedAt.Length >= 10 ? run.StartedAt[..10] : run.StartedAt;
        return $"conclab, {scenario.Name}{(run.Settings.Quick ? " (quick scale)" : string.Empty)}: {RunDescription.Machine(run.Environment)}; {date}";
    }

    /// <summary>The title of an axis of median wall times.</summary>
    public const string WallTimeAxis = "median wall time (ms)";

    /// <summary>The longest name a chart prints in full; longer ones are cut, and kept whole in the SVG's tooltips.</summary>
    public const int LongestLabel = 40;

    /// <summary><paramref name="name"/> as a chart prints it: cut to <see cref="LongestLabel"/> characters with an ellipsis.</summary>
    public static string Label(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return name.Length <= LongestLabel ? name : string.Concat(name.AsSpan(0, LongestLabel - 1), "\u2026");
    }

    /// <summary>A time in milliseconds as a chart prints it, with the digits that matter at its size.</summary>
    public static string Ms(double value) => value.ToString(value >= 100 ? "0" : value >= 10 ? "0.0" : "0.00", CultureInfo.InvariantCulture);

    /// <summary>The ideal's label: <c>ideal 47.0 ms</c>.</summary>
    public static string IdealLabel(double idealMs) => $"ideal {Ms(idealMs)} ms";

    /// <summary>Every chart a scenario has data for, in the order a report shows them.</summary>
    public static IReadOnlyList<Chart> For(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);

        // A program watched has one window, not variants to compare: its threads' states over time are its chart.
        if (scenario.Watched is not null)
        {
            return [.. new Chart?[] { ThreadStateChart.From(scenario), OverTimeChart.FromWatch(scenario) }.OfType<Chart>()];
        }

        Chart?[] charts =
        [
            WallTimeChart.From(scenario),
            .. SweepChart.All(scenario),
            SweepChart.FromSearches(scenario),
            .. MetricChart.All(scenario),
            .. OverTime(scenario),
            InFlightChart.From(scenario),
            ThreadStateChart.From(scenario),
            .. SweepChart.FromLoad(scenario),
            OverTimeChart.FromLoad(scenario),
        ];
        return [.. charts.OfType<Chart>()];
    }

    // Threads over time, of the process where the variants run: a scenario whose trials drive a service of their
    // own (fanout's product service) draws the service's, and its client's OS threads beside them.
    private static IEnumerable<Chart?> OverTime(ScenarioResult scenario)
    {
        var service = scenario.Variants.SelectMany(v => v.Trials).Select(t => t.Service).FirstOrDefault(s => s is { Samples.Count: > 1 })?.Name;
        if (service is null)
        {
            yield return OverTimeChart.From(scenario, "os-threads", "OS threads", s => s.Threads);
            yield return OverTimeChart.From(scenario, "pool-threads", "pool threads", s => s.PoolThreads, markInjections: true);
            yield break;
        }

        yield return OverTimeChart.From(scenario, "os-threads", $"the {service} service's OS threads", s => s.Threads, ofService: true);
        yield return OverTimeChart.From(
            scenario, "pool-threads", $"the {service} service's pool threads", s => s.PoolThreads, markInjections: true, ofService: true);
        yield return OverTimeChart.From(scenario, "client-os-threads", "the load client's OS threads", s => s.Threads);
    }
}

/// <summary>A variant's bar: its value, the range drawn as whiskers around it, and what its tooltip says.</summary>
/// <param name="Name">The variant's name.</param>
/// <param name="Value">The bar's length: a median.</param>
/// <param name="Low">The whisker's low end.</param>
/// <param name="High">The whisker's high end.</param>
/// <param name="Tooltip">The bar's description for a reader who points at it.</param>
internal readonly record struct BarRow(string Name, double Value, double Low, double High, string Tooltip);

/// <summary>Horizontal bars, one per variant in the tables' order, with whiskers, and the ideal where the chart has one.</summary>
internal abstract record BarChart : Chart
{
    private protected BarChart(ScenarioResult scenario, IReadOnlyList<BarRow> rows, double max)
        : base(scenario) => (Rows, Total, Max) = (FirstDrawn(rows), rows.Count, max);

    /// <summary>A bar for each variant with a value, in the order of the tables (fastest first), the first <see cref="Chart.MaxRows"/>.</summary>
    public IReadOnlyList<BarRow> Rows { get; }

    /// <summary>Variants with a value, drawn or not (the tables have them all).</summary>
    public int Total { get; }

    /// <summary>The end of the value axis: a little past the longest whisker and the ideal.</summary>
    public double Max { get; }

    /// <summary>The value axis' title.</summary>
    public abstract string AxisTitle { get; }

    /// <summary>The ideal drawn across the bars, in the axis' unit; 0 for none.</summary>
    public virtual double Ideal => 0;

    /// <summary>A value as the chart prints it beside its bar.</summary>
    public abstract string Write(double value);

    private protected static double End(IReadOnlyList<BarRow> rows, double ideal) => Math.Max(rows.Max(r => Math.Max(r.High, r.Value)), ideal) * 1.05;
}

/// <summary>Median wall time per variant, fastest first, with its 95% confidence interval, against the ideal.</summary>
internal sealed record WallTimeChart : BarChart
{
    private WallTimeChart(ScenarioResult scenario, IReadOnlyList<BarRow> rows, double max)
        : base(scenario, rows, max)
    {
    }

    public override string Kind => "wall-time";

    public override string Description
        => $"Median wall time of each {Scenario.Name} variant, with 95% confidence intervals and the ideal{LeftOutClause(Total)}";

    public override string AxisTitle => WallTimeAxis;

    public override double Ideal => Scenario.IdealMs;

    public override string Write(double value) => Ms(value);

    /// <summary>Null when no variant has a successful trial, or the times cannot be drawn.</summary>
    public static WallTimeChart? From(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var rows = ResultColumn.Order(scenario)
            .Where(v => v.Summary is not null)
            .Select(
                v => new BarRow(
                    v.Name, v.Summary!.MedianWallMs, v.Summary.CiLowMs,
                        v.Summary.CiHighMs, $"{v.Name}: median {Ms(v.Summary.MedianWallMs)} ms, 95% CI " +
                            $"{Ms(v.Summary.CiLowMs)}-{Ms(v.Summary.CiHighMs)} ms"))
            .ToList();
        if (rows.Count == 0)
        {
            return null;
        }

        var max = End(rows, scenario.IdealMs);
        return max > 0 && double.IsFinite(max) ? new WallTimeChart(scenario, rows, max) : null;
    }
}

/// <summary>
/// A scenario's own metric that the console shows (<see cref="MetricVisibility.Everywhere"/>): its median per
/// variant as bars, in the tables' order, with the range of the variant's trials as whiskers. Drawn only where
/// the variants' medians differ, so a check that stayed 0 everywhere adds no picture of nothing.
/// </summary>
internal sealed record MetricChart : BarChart
{
    private MetricChart(ScenarioResult scenario, Metric metric, IReadOnlyList<BarRow> rows, double max)
        : base(scenario, rows, max) => Metric = metric;

    /// <summary>The metric drawn.</summary>
    public Metric Metric { get; }

    /// <summary><c>metric-</c> and the metric's id, in letters, digits and dashes only, since it ends a file name.</summary>
    public override string Kind => "metric-" + string.Concat(Metric.Id.Select(c => char.IsAsciiLetterOrDigit(c) || c == '-' ? c : '-'));

    public override string Description
        => $"Median {Metric.DisplayName} of each {Scenario.Name} variant, with the range over its trials{LeftOutClause(Total)}";

    public override string AxisTitle => "median " + Metric.HeaderWithUnit;

    public override string Write(double value) => Metric.Write(value / Scale(Metric));

    // Bars are drawn in the unit the table writes: a metric kept in bytes is drawn in KiB.
    private static double Scale(Metric metric) => metric.Format == MetricFormat.Kibibytes ? 1.0 / 1024 : 1;

    /// <summary>A chart for each of the scenario's own metrics shown everywhere whose medians differ between variants.</summary>
    public static IReadOnlyList<MetricChart> All(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var charts = new List<MetricChart>();

        // A metric whose negative values mean never has no length to draw; its table column says it.
        foreach (var metric in scenario.Metrics.Where(m => m.Visibility == MetricVisibility.Everywhere && !m.NegativeMeansNever))
        {
            var rows = new List<BarRow>();
            foreach (var variant in ResultColumn.Order(scenario))
            {
                if (variant.Summary?.Median(metric) is not { } median || !double.IsFinite(median) || median < 0)
                {
                    continue;
                }

                var values = variant.Trials.Where(t => t.Status == TrialStatus.Ok).Select(t => t.Value(metric)).OfType<double>()
                    .Where(double.IsFinite).ToList();
                var (low, high) = values.Count == 0 ? (median, median) : (values.Min(), values.Max());
                var scale = Scale(metric);
                rows.Add(
                    new BarRow(variant.Name, median * scale, low * scale,
                        high * scale, $"{variant.Name}: median {metric.Write(median)}{Unit(metric)}, trials " +
                            $"{metric.Write(low)}-{metric.Write(high)}{Unit(metric)}"));
            }

            var max = rows.Count == 0 ? 0 : End(rows, 0);
            if (rows.Select(r => r.Value).Distinct().Count() > 1 && max > 0 && double.IsFinite(max))
            {
                charts.Add(new MetricChart(scenario, metric, rows, max));
            }
        }

        return charts;

        static string Unit(Metric metric) => metric.Unit.Length == 0 ? string.Empty : " " + metric.Unit;
    }
}

/// <summary>
/// Where variants differ only in a swept number (<c>sync@16</c>, <c>sync@32</c>: a degree, workers, N): median
/// wall time against that number, one line per family, on a log-2 axis since sweeps double. Variants are
/// grouped by their recorded structure (family, form, other parameter values), never by their names; a
/// scenario that sweeps two parameters (requests, and a pool minimum) has a chart for each.
/// </summary>
internal sealed record SweepChart : Chart
{
    private SweepChart(ScenarioResult scenario, string kind, IReadOnlyList<(string Family, IReadOnlyList<SweepPoint> Points)> families,
        string axisTitle, double maxMs)
        : base(scenario) => (Kind, Families, AxisTitle, MaxMs) = (kind, families, axisTitle, maxMs);

    /// <summary>Each line with two or more points, its points in increasing N, named by its family (with its form or
    /// other values where the family has lines that differ in them).</summary>
    public IReadOnlyList<(string Family, IReadOnlyList<SweepPoint> Points)> Families { get; }

    /// <summary>Every swept number that has a point, in increasing order.</summary>
    public IReadOnlyList<int> Ns => [.. Families.SelectMany(f => f.Points.Select(p => p.N)).Distinct().Order()];

    /// <summary>The top of the time axis: a little above the slowest median and the ideal.</summary>
    public double MaxMs { get; }

    /// <summary><c>sweep</c>, or <c>sweep-</c> and the parameter's name where the scenario sweeps more than one.</summary>
    public override string Kind { get; }

    public override string Description => Said ?? (Chosen.Count > 0
        ? $"Median wall time of each degree probed before the {Scenario.Name} run (--dop auto), a line per strategy, the degree chosen ringed"
        : LogTime ? $"Median wall time against {AxisTitle} in each {Scenario.Name} variant (--grow), log-log"
        : $"Median wall time against {AxisTitle} in each {Scenario.Name} variant family");

    // The description of a chart that says its own (a load run's), instead of a sweep's.
    private string? Said { get; init; }

    /// <summary>
    /// A load run's two charts over offered rate, log-log: the corrected p99 and p50 of each variant (<c>load-latency</c>),
    /// and its completions a second against the rate offered, with the offered rate as the line to reach (<c>load-throughput</c>).
    /// At each rate, the median over the repeats that ran it; a variant needs two rates for a line.
    /// </summary>
    public static IReadOnlyList<SweepChart> FromLoad(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (scenario.Load is not { } load)
        {
            return [];
        }

        static double Median(IEnumerable<double> values)
        {
            var sorted = values.Order().ToList();
            return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
        }

        IReadOnlyList<SweepPoint> Points(LoadVariant variant, Func<LoadStep, double?> value) =>
        [
            .. variant.Steps.Where(s => !s.Stopped && s.OfferedPerSecond >= 1 && value(s) is > 0 and < 1e12)
                .GroupBy(s => (int)Math.Round(s.OfferedPerSecond))
                .OrderBy(g => g.Key)
                .Select(g => new SweepPoint(g.Key, Median(g.Select(s => value(s)!.Value)), variant.Name)),
        ];
        var charts = new List<SweepChart>();
        var latency = load.Variants
            .SelectMany(
                v => new[] { (Family: $"{v.Name} p99", Points: Points(v, s => s.Latency?.P99Ms)),
                    (Family: $"{v.Name} p50", Points: Points(v, s => s.Latency?.P50Ms)) })
            .Where(f => f.Points.Count >= 2)
            .ToList();
        if (latency.Count > 0)
        {
            var values = latency.SelectMany(f => f.Points).Select(p => p.Ms).ToList();
            charts.Add(new SweepChart(scenario, "latency", latency, "offered rate (requests/s)", values.Max() * 1.25)
            {
                LogTime = true,
                MinMs = values.Min() / 1.25,
                ValueAxis = "latency from the intended send (ms)",
                PointText = ("corrected", "ms"),
                Said = $"Corrected p99 and p50 latency against the offered rate, each {scenario.Name} variant, log-log",
            });
        }

        var done = load.Variants.Select(v => (Family: v.Name, Points: Points(v, s => s.CompletedPerSecond))).Where(f => f.Points.Count >= 2).ToList();
        if (done.Count > 0)
        {
            var offered = done.SelectMany(f => f.Points.Select(p => p.N)).Distinct().Order().Select(n => new SweepPoint(n, n, "offered")).ToList();
            var values = done.SelectMany(f => f.Points).Concat(offered).Select(p => p.Ms).ToList();
            charts.Add(new SweepChart(scenario, "throughput", done, "offered rate (requests/s)", values.Max() * 1.25)
            {
                LogTime = true,
                MinMs = values.Min() / 1.25,
                IdealPoints = offered,
                IdealPointsLabel = "the rate offered",
                ValueAxis = "completed (requests/s)",
                PointText = ("completed", "/s"),
                Said = $"Requests completed a second against the rate offered, each {scenario.Name} variant, log-log: a variant that keeps " +
                    $"up is on the dashed line",
            });
        }

        return charts;
    }

    /// <summary>The vertical axis' title: median wall time unless said otherwise (a load run's p99, or completions a second).</summary>
    public string ValueAxis { get; private init; } = WallTimeAxis;

    /// <summary>What a point's tooltip calls its value, with its unit after the figure: <c>median</c> and <c>ms</c>.</summary>
    public (string Word, string Unit) PointText { get; private init; } = ("median", "ms");

    /// <summary>The legend's words for <see cref="IdealPoints"/>.</summary>
    public string IdealPointsLabel { get; private init; } = "the ideal at each size";

    /// <summary>Whether the time axis is logarithmic too (a growth's chart, whose times span decades).</summary>
    public bool LogTime { get; private init; }

    /// <summary>The bottom of a logarithmic time axis: a little below the fastest median and the ideal.</summary>
    public double MinMs { get; private init; }

    /// <summary>The ideal at each size, for a growth's chart; empty elsewhere (the scenario's ideal is then a flat line).</summary>
    public IReadOnlyList<SweepPoint> IdealPoints { get; private init; } = [];

    /// <inheritdoc/>
    public override string Title
        => Chosen.Count > 0 ? $"Degrees probed before the {Scenario.Name} run, each strategy (ringed: the one chosen)" : base.Title;

    /// <summary>The points a search chose (<see cref="FromSearches"/>), ringed; empty on a sweep's chart.</summary>
    public IReadOnlyList<SweepPoint> Chosen { get; private init; } = [];

    /// <summary>
    /// The scenario's degree searches (<c>--dop auto</c>) as a chart of their own, <c>degree-search</c>: each
    /// strategy's probes, median against degree on a log-2 axis, the chosen degree ringed, the ideal as a line;
    /// null when no degree was searched.
    /// </summary>
    public static SweepChart? FromSearches(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var searches = scenario.DegreeSearches
            .Select(s => (Search: s, Points: (IReadOnlyList<SweepPoint>)[.. s.Tried
                .Where(t => t.Degree >= 1 && t.MedianMs is > 0 and < 1e12)
                .OrderBy(t => t.Degree)
                .Select(t => new SweepPoint(t.Degree, t.MedianMs!.Value, $"{s.Family}@{t.Degree}"))]))
            .Where(s => s.Points.Count > 0)
            .ToList();
        if (searches.Count == 0)
        {
            return null;
        }

        var forms = searches.Select(s => s.Search.Form).Distinct().Count();
        var families = searches.Select(
            s => (Family: forms > 1 && s.Search.Form is { } form ? $"{s.Search.Family}-{form.ToSuffix()}" : s.Search.Family, s.Points)).ToList();

        // Searches of one strategy at several sweep values (--cores 2,8, --grow) are told apart by those values:
        // the variant found, without its degree (foreach-async:cores=8).
        if (families.Select(f => f.Family).Distinct(StringComparer.Ordinal).Count() < families.Count)
        {
            families = [.. searches.Select(
                s => (Family: s.Search.Variant.Replace($"@{s.Search.Chosen.ToString(CultureInfo.InvariantCulture)}", string.Empty,
                    StringComparison.Ordinal), s.Points))];
        }
        var chosen = searches.SelectMany(s => s.Points.Where(p => p.N == s.Search.Chosen)).ToList();
        var maxMs = Math.Max(families.Max(f => f.Points.Max(p => p.Ms)), scenario.IdealMs) * 1.1;
        return maxMs > 0 && double.IsFinite(maxMs) ? new SweepChart(scenario, "degree-search", families, "degree", maxMs) { Chosen = chosen } : null;
    }

    /// <summary>The horizontal axis' title: the swept parameter, such as <c>degree</c> or <c>workers</c>.</summary>
    public string AxisTitle { get; }

    /// <summary>The scenario's first sweep chart; null when no family has two or more points.</summary>
    public static SweepChart? From(ScenarioResult scenario) => All(scenario) is [var first, ..] ? first : null;

    /// <summary>A chart for each parameter some family was run at two or more values of; none when there is no such family.</summary>
    public static IReadOnlyList<SweepChart> All(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);

        // A point for each variant and each of its whole-number parameters, on the line of the variants that
        // share everything else: family, form and the other parameters' values.
        var groups = scenario.Variants
            .Where(v => v.Summary is not null && v.Family is not null)
            .SelectMany(v => v.Parameters.Keys.Where(k => v.WholeNumber(k) is > 0).Select(swept => (Variant: v, Swept: swept)))
            .GroupBy(p => new Line(p.Variant.Family!, p.Variant.Form, p.Swept, Others(p.Variant, p.Swept)))
            .Select(
                g => (g.Key, Points: (IReadOnlyList<SweepPoint>)[.. g.Select(
                    p => new SweepPoint(p.Variant.WholeNumber(p.Swept)!.Value, p.Variant.Summary!.MedianWallMs, p.Variant.Name)).OrderBy(p => p.N)]))
            .ToList();
        var lines = groups.Where(l => l.Points.Count >= 2).ToList();
        var swept = lines.Select(l => l.Key.Swept).Distinct().ToList();
        var charts = new List<SweepChart>();

        // A grown parameter has the growth's own chart, drawn from its lines as the report says them.
        if (scenario.Growth is { } growth && Grown(scenario, growth) is { } grown)
        {
            charts.Add(grown);
        }

        foreach (var parameter in swept.Where(p => p != scenario.Growth?.Parameter))
        {
            // A line is named by its family, and by what tells it from the family's other variants, if it has any
            // (drawn or not: parallel-for@4 alone has no line, but parallel-for@4-apm's line must not pass for it).
            var families = lines.Where(l => l.Key.Swept == parameter).Select(l =>
            {
                var kin = groups.Select(o => o.Key).Where(o => o.Family == l.Key.Family && o.Swept == parameter).ToList();
                var name = l.Key.Family;
                name += kin.Select(k => k.Form).Distinct().Count() > 1 && l.Key.Form is { } form ? "-" + form.ToSuffix() : string.Empty;
                name += kin.Select(k => k.Others).Distinct().Count() > 1 && l.Key.Others.Length > 0 ? " " + l.Key.Others : string.Empty;
                return (Family: name, l.Points);
            }).ToList();
            var maxMs = Math.Max(families.Max(f => f.Points.Max(p => p.Ms)), scenario.IdealMs) * 1.1;
            if (maxMs > 0 && double.IsFinite(maxMs))
            {
                charts.Add(new SweepChart(scenario, swept.Count == 1 ? "sweep" : "sweep-" + parameter, families, parameter, maxMs));
            }
        }

        return charts;

        // Log-log: each line's medians by size, and the ideal at each size as a line of its own; null with no line of two points.
        static SweepChart? Grown(ScenarioResult scenario, GrowthResult growth)
        {
            var lines = growth.Lines
                .Select(
                    l => (Family: l.Line, Points: (IReadOnlyList<SweepPoint>)[.. growth.Sizes.Select(
                        (size, i) => (size, Ms: l.MediansMs.ElementAtOrDefault(i))).Where(p => p.Ms is > 0 && double.IsFinite(p.Ms.Value))
                            .Select(p => new SweepPoint(p.size, p.Ms!.Value, l.Line))]))
                .Where(l => l.Points.Count >= 2)
                .ToList();
            var ideals = growth.Sizes.Select((size, i) => new SweepPoint(size, growth.IdealsMs.ElementAtOrDefault(i), "the ideal"))
                .Where(p => p.Ms > 0 && double.IsFinite(p.Ms)).ToList();
            var times = lines.SelectMany(l => l.Points).Concat(ideals).Select(p => p.Ms).ToList();
            return lines.Count == 0 ? null
                : new SweepChart(scenario, "growth", lines, growth.Parameter, times.Max() * 1.25) { LogTime = true, MinMs = times.Min() / 1.25,
                    IdealPoints = ideals };
        }

        static string Others(VariantResult variant, string swept) =>
            string.Join(
                ' ', variant.Parameters.Where(p => p.Key != swept).OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}={p.Value}"));
    }

    private sealed record Line(string Family, WorkForm? Form, string Swept, string Others);
}

/// <summary>A variant on a sweep chart: its swept number, its median wall time, and its name for a tooltip.</summary>
/// <param name="N">The swept number.</param>
/// <param name="Ms">Median wall time.</param>
/// <param name="Variant">The variant's name.</param>
internal readonly record struct SweepPoint(int N, double Ms, string Variant);

/// <summary>A quantity the sampler read (OS threads, pool threads) over each variant's first successful trial, a line per variant.</summary>
internal sealed record OverTimeChart : Chart
{
    // A line per variant, the first in the tables' order: past a few dozen lines the picture is not read.
    private OverTimeChart(ScenarioResult scenario, string kind, string quantity,
        IReadOnlyList<(string Name, IReadOnlyList<(double TimeMs, double Value)> Points)> series)
        : base(scenario) => (Kind, Quantity, Series, Total) = (kind, quantity, FirstDrawn(series), series.Count);

    /// <summary>Variants with a line, drawn or not.</summary>
    public int Total { get; }

    public override string Kind { get; }

    /// <summary>The horizontal axis' title.</summary>
    public const string TimeAxis = "time in the trial (ms)";

    /// <summary>This chart's horizontal axis' title: <see cref="TimeAxis"/> unless said otherwise.</summary>
    public string TimeTitle { get; private init; } = TimeAxis;

    /// <summary>
    /// A load run's started service, its pool's thread target over each variant's first repeat (from the runtime's
    /// account of each step, so only the measured parts of steps are drawn), a dot where it added a thread for
    /// starvation or blocking; null without an account that moved the pool.
    /// </summary>
    public static OverTimeChart? FromLoad(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (scenario.Load is not { } load)
        {
            return null;
        }

        var series = new List<(string Name, IReadOnlyList<(double TimeMs, double Value)> Points)>();
        var marks = new List<ChartMark>();
        foreach (var variant in load.Variants)
        {
            var points = new List<(double TimeMs, double Value)>();
            var steps = variant.Steps.Where(s => s.Repeat == 0 && s.Runtime is not null).OrderBy(s => s.StartMs).ToList();
            foreach (var step in steps)
            {
                var runtime = step.Runtime!;
                if (runtime.PoolTargetAtStart is { } start)
                {
                    points.Add((step.StartMs, start));
                }

                points.AddRange(runtime.PoolAdjustments.Where(a => a.TimeMs >= 0).Select(a => (step.StartMs + a.TimeMs, (double)a.Threads)));
                marks.AddRange(runtime.InjectionMoves()
                    .Where(m => m.Adjustment.TimeMs >= 0)
                    .Select(m => Mark(series.Count, m, step.StartMs, $"{variant.Name} at {NumberText.Count(step.OfferedPerSecond)}/s")));
            }

            if (points.Count >= 2 && points.All(p => double.IsFinite(p.TimeMs) && double.IsFinite(p.Value)))
            {
                series.Add((variant.Name, points));
            }
            else
            {
                marks.RemoveAll(m => m.Series == series.Count);
            }
        }

        if (series.Count == 0)
        {
            return null;
        }

        var chart = new OverTimeChart(scenario, "pool-threads", "the service's pool thread target", series) { Marks = marks,
            TimeTitle = "time since the service started (ms)" };
        return double.IsFinite(chart.MaxValue) && double.IsFinite(chart.MaxTimeMs) ? chart : null;
    }

    /// <summary>
    /// A watched program's pool over the window (<c>conclab why</c>): its thread target from the runtime's decisions, a dot
    /// where it added a thread for starvation or blocking, and its queue's length as the runtime's meter read it; null
    /// with neither two decisions nor two readings.
    /// </summary>
    public static OverTimeChart? FromWatch(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var runtime = scenario.Variants.SelectMany(v => v.Trials).Select(t => t.Runtime).FirstOrDefault(r => r is not null);
        if (scenario.Watched is null || runtime is null)
        {
            return null;
        }

        var series = new List<(string Name, IReadOnlyList<(double TimeMs, double Value)> Points)>();
        var target = new List<(double TimeMs, double Value)>();
        if (runtime.PoolTargetAtStart is { } start)
        {
            target.Add((0, start));
        }

        target.AddRange(runtime.PoolAdjustments.Where(a => a.TimeMs >= 0).Select(a => (a.TimeMs, (double)a.Threads)));
        var marks = new List<ChartMark>();
        if (target.Count >= 2)
        {
            // Held to the window's end, so the line says where the target stayed.
            target.Add((Math.Max(target[^1].TimeMs, scenario.Watched.WindowMs), target[^1].Value));
            series.Add(("thread target", target));
            marks.AddRange(runtime.InjectionMoves().Where(m => m.Adjustment.TimeMs >= 0).Select(m => Mark(0, m, 0, "the program")));
        }

        if (runtime.PoolQueue is { Lengths.Count: >= 2 } queue)
        {
            series.Add(("work items queued", [.. queue.Lengths.Select(l => (l.TimeMs, (double)l.Length))]));
        }

        if (series.Count == 0 || series.Any(s => s.Points.Any(p => !double.IsFinite(p.TimeMs) || !double.IsFinite(p.Value))))
        {
            return null;
        }

        var chart = new OverTimeChart(scenario, "pool", "the pool's thread target and queue", series) { Marks = marks,
            TimeTitle = "time in the window watched (ms)", Over = "the window watched" };
        return double.IsFinite(chart.MaxValue) && double.IsFinite(chart.MaxTimeMs) ? chart : null;
    }

    /// <summary>What the chart's time spans, said in its description and title; null: each variant's first successful trial.</summary>
    public string? Over { get; private init; }

    /// <summary>What the vertical axis counts, for example "OS threads".</summary>
    public string Quantity { get; }

    /// <summary>Each variant that has a successful trial with two or more samples.</summary>
    public IReadOnlyList<(string Name, IReadOnlyList<(double TimeMs, double Value)> Points)> Series { get; }

    /// <summary>The end of the time axis: the longest series' last sample.</summary>
    public double MaxTimeMs => Math.Max(1, Series.Max(s => s.Points.Max(p => p.TimeMs)));

    /// <summary>The top of the value axis, a little above the highest reading or mark.</summary>
    public double MaxValue
        => Math.Max(1, Math.Max(Series.Max(s => s.Points.Max(p => p.Value)), Marks.Count == 0 ? 0 : Marks.Max(m => m.Value))) * 1.1;

    public override string Description
        => $"{char.ToUpperInvariant(Quantity[0])}{Quantity[1..]} over time in {Over ?? $"each {Scenario.Name} variant's first successful trial"}"
            + (Marks.Count > 0 ? ", a dot where the runtime says the pool added a thread for starvation or blocking and a ring " +
            "where it took one back, at its new thread target (which the running threads follow, or not)" : string.Empty) + LeftOutClause(Total);

    /// <inheritdoc/>
    public override string Title
        => Over is not null ? $"{char.ToUpperInvariant(Quantity[0])}{Quantity[1..]} over {Over}"
            : $"{char.ToUpperInvariant(Quantity[0])}{Quantity[1..]} over time, each {Scenario.Name} variant" + (Marks.Count > 0
            ? $" (a dot: {RaiseLegend}{(Marks.Any(m => m.Lowered) ? "; a ring: it took one back" : string.Empty)})" : string.Empty);

    /// <summary>
    /// Where the pool added a thread by the runtime's own account (starvation, or a pool thread blocking on a
    /// task), on each series' trial: drawn as dots on the pool-threads chart, so its steps say why.
    /// </summary>
    public IReadOnlyList<ChartMark> Marks { get; private init => field = [.. value.Where(m => m.Series < Series.Count)]; } = [];

    /// <summary>
    /// Null when no trial has samples, or they cannot be drawn. With <paramref name="markInjections"/>, the
    /// pool's injections in the same trials are <see cref="Marks"/>. With <paramref name="ofService"/>, the
    /// samples and the runtime's account are those of the trial's service process, over the same region.
    /// </summary>
    public static OverTimeChart? From(
        ScenarioResult scenario,
        string kind,
        string quantity,
        Func<Measurement.Sample, double> value,
        bool markInjections = false,
        bool ofService = false)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(value);
        IReadOnlyList<Measurement.Sample> Samples(TrialResult t) => ofService ? t.Service?.Samples ?? [] : t.Samples;
        var trials = ResultColumn.Order(scenario)
            .Select(v => (v.Name, Trial: v.Trials.FirstOrDefault(t => t.Status == TrialStatus.Ok && Samples(t).Count > 1)))
            .Where(s => s.Trial is not null)
            .ToList();
        var series = trials
            .Select(s => (s.Name, Points: (IReadOnlyList<(double TimeMs, double Value)>)[.. Samples(s.Trial!).Select(p => (p.TimeMs, value(p)))]))
            .ToList();
        if (series.Count == 0)
        {
            return null;
        }

        var marks = !markInjections ? [] : trials
            .SelectMany(
                (s, i) => ((ofService ? s.Trial!.Service?.Runtime : s.Trial!.Runtime)?.InjectionMoves() ?? []).Select(m => Mark(i, m, 0, s.Name)))
            .ToList();
        var chart = new OverTimeChart(scenario, kind, quantity, series) { Marks = marks };
        return double.IsFinite(chart.MaxValue) && double.IsFinite(chart.MaxTimeMs) ? chart : null;
    }

    /// <summary>
    /// The pool's move for starvation or blocking as a mark on series <paramref name="series"/>, <paramref name="offsetMs"/>
    /// later than the account's own clock: a dot for a raise, a ring for a lowering, each saying which.
    /// </summary>
    internal static ChartMark Mark(int series, (PoolAdjustment Adjustment, bool Raised) move, double offsetMs, string who)
    {
        var (a, raised) = move;
        var what = raised ? "added a thread" : "took a thread back";
        return new ChartMark(series, offsetMs
            + a.TimeMs, a.Threads, $"{who}: at {Ms(offsetMs + a.TimeMs)} ms the pool {what} ({a.Reason.ToText()}), target {a.Threads}",
                Lowered: !raised);
    }

    /// <summary>The legend of a raise's dot.</summary>
    public const string RaiseLegend = "the pool added a thread";

    /// <summary>The legend of a lowering's ring.</summary>
    public const string LoweringLegend = "the pool took one back";
}

/// <summary>A dot on an over-time chart: on series <paramref name="Series"/>, at a time and a value, with what it marks.</summary>
/// <param name="Series">The index of the series it belongs to.</param>
/// <param name="TimeMs">When, in the trial.</param>
/// <param name="Value">Where, on the chart's vertical axis.</param>
/// <param name="Label">What it marks, for a tooltip.</param>
/// <param name="Lowered">Whether the mark is a lowering of the pool's target (a ring) rather than a raise (a dot).</param>
internal readonly record struct ChartMark(int Series, double TimeMs, double Value, string Label, bool Lowered = false);

/// <summary>
/// The work's threads by state over each variant's median trial, from the runtime's stack samples (<c>--events
/// stacks</c>): a strip per variant, running, waiting, sleeping and in I/O stacked, a dot where the pool raised its
/// thread target for starvation or blocking (at the new target), and where the threads were most often not running.
/// Of the service's process where the variants drive one, as the other over-time charts.
/// </summary>
internal sealed record ThreadStateChart : Chart
{
    private ThreadStateChart(ScenarioResult scenario, string? service, IReadOnlyList<ThreadStateRow> rows)
        : base(scenario) => (Service, Rows) = (service, rows);

    /// <summary>The states, bottom to top, with the series colour each is drawn in.</summary>
    public static IReadOnlyList<(string Name, int Colour)> States { get; } = [("running", 2), ("waiting", 3), ("sleeping", 5), ("in I/O", 0)];

    /// <summary>The service whose threads are drawn; null for the trial's own process.</summary>
    public string? Service { get; }

    /// <summary>A strip per variant whose median trial has a timeline, in the tables' order.</summary>
    public IReadOnlyList<ThreadStateRow> Rows { get; }

    /// <summary>The end of the time axis: the longest timeline's end.</summary>
    public double MaxTimeMs => Math.Max(1, Rows.Max(r => r.BinMs * r.Timeline.Count));

    public override string Kind => Service is null ? "thread-states" : "service-thread-states";

    private string Whose => Service is null ? "the work's threads" : $"the {Service} service's threads";

    public override string Description =>
        $"{char.ToUpperInvariant(Whose[0])}{Whose[1..]} by state over each {Scenario.Name} variant's median trial, from the runtime's stack " +
            $"samples: running, waiting, sleeping and in I/O calls stacked, a dot where the pool raised its thread target for starvation or " +
            $"blocking and a ring where it lowered it, and the call site where they were most often not running";

    public override string Title
        => $"{char.ToUpperInvariant(Whose[0])}{Whose[1..]} by state, each {Scenario.Name} variant (a dot: " +
            $"{OverTimeChart.RaiseLegend}{(Rows.Any(r => r.Marks.Any(m => m.Lowered)) ? "; a ring: it took one back" : string.Empty)})";

    /// <summary>Null when no variant's median trial has a timeline of thread states (the run was not made with stacks).</summary>
    public static ThreadStateChart? From(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var ofService = scenario.Variants.SelectMany(v => v.Trials).Any(t => t.Service?.Runtime?.Threads is { Timeline.Count: > 0 });
        string? service = null;
        var rows = new List<ThreadStateRow>();
        foreach (var variant in ResultColumn.Order(scenario))
        {
            if (Analysis.Accounts.Of(variant) is not { } summary || summary.Trial < 0 || summary.Trial >= variant.Trials.Count)
            {
                continue;
            }

            var trial = variant.Trials[summary.Trial];
            var account = ofService ? trial.Service?.Runtime : trial.Runtime;
            service ??= ofService ? trial.Service?.Name : null;
            if (account?.Threads is not { Timeline.Count: > 0, BinMs: > 0 and < 1e9 } threads
                || threads.Timeline.Count > ThreadTime.Bins
                || threads.Timeline.Any(b => new[] { b.Running, b.Waiting, b.Sleeping, b.Io }.Any(n => !(n is >= 0 and < 1e6))))
            {
                continue;
            }

            var marks = account.InjectionMoves()
                .Where(m => m.Adjustment.TimeMs >= 0 && m.Adjustment.TimeMs <= threads.BinMs * threads.Timeline.Count)
                .Select(m => OverTimeChart.Mark(rows.Count, m, 0, variant.Name))
                .ToList();
            var site = threads.Top is var (top, share)
                ? $"{Math.Round(100 * share)}% of the time not running at {RuntimeAccountText.Where(top).Text} ({top.State})" : null;
            var peak = Math.Max(threads.Timeline.Max(b => b.Total), marks.Count == 0 ? 0 : marks.Max(m => m.Value));
            rows.Add(new ThreadStateRow(variant.Name, threads.BinMs, threads.Timeline, Math.Max(1, Math.Ceiling(peak)), marks, site));
        }

        // A strip per variant, the first in the tables' order: past a few dozen strips the picture is not read.
        return rows.Count == 0 ? null : new ThreadStateChart(scenario, service, FirstDrawn(rows));
    }
}

/// <summary>A variant's strip on the thread-state chart.</summary>
/// <param name="Name">The variant.</param>
/// <param name="BinMs">Each span's length.</param>
/// <param name="Timeline">The mean threads in each state over each span.</param>
/// <param name="Peak">The top of the strip's scale: the most threads in a span, or the highest target a dot marks.</param>
/// <param name="Marks">The pool's raises, at their time and new target.</param>
/// <param name="Site">Where the threads were most often not running, as a sentence; null with no site.</param>
internal sealed record ThreadStateRow(string Name, double BinMs, IReadOnlyList<ThreadCounts> Timeline, double Peak,
    IReadOnlyList<ChartMark> Marks, string? Site);
/// <summary>
/// The items in flight over each variant's median trial: a strip per variant, how many items were under way at once
/// in each span (counted from each item's start and end), and a dashed line at the most its strategy allows, so that
/// a variant that ran far fewer than it allows shows it at a glance; beside the threads by state.
/// </summary>
internal sealed record InFlightChart : Chart
{
    private InFlightChart(ScenarioResult scenario, IReadOnlyList<InFlightRow> rows, int total)
        : base(scenario) => (Rows, Total) = (rows, total);

    /// <summary>A strip per variant whose median trial counted its items, in the tables' order, the first <see cref="Chart.MaxRows"/>.</summary>
    public IReadOnlyList<InFlightRow> Rows { get; }

    /// <summary>Variants with a strip, drawn or not.</summary>
    public int Total { get; }

    /// <summary>The end of the time axis: the longest timeline's end.</summary>
    public double MaxTimeMs => Math.Max(1, Rows.Max(r => r.BinMs * r.Timeline.Count));

    public override string Kind => "in-flight";

    public override string Description =>
        $"Items in flight over each {Scenario.Name} variant's median trial: how many were under way at once, counted from each item's start " +
            $"and end, with a dashed line at the most its strategy allows; each strip to its own scale" + LeftOutClause(Total);

    public override string Title => $"Items in flight, each {Scenario.Name} variant (dashed: the most it allows)";

    /// <summary>Null when no variant's trials counted their items in flight (a scenario that does not time its items, an older file).</summary>
    public static InFlightChart? From(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var rows = new List<InFlightRow>();
        foreach (var variant in ResultColumn.Order(scenario))
        {
            // The median of the ok trials that counted them, by wall time, as the thread states' trial is.
            var counted = variant.Trials
                .Where(t => t.Status == TrialStatus.Ok && t.InFlight is { Timeline.Count: > 0 and <= ItemsInFlight.Bins, BinMs: > 0 and < 1e9 } f
                    && f.Timeline.All(n => n is >= 0 and < 1e6))
                .OrderBy(t => t.WallMs)
                .ToList();
            if (counted.Count == 0)
            {
                continue;
            }

            var inFlight = counted[(counted.Count - 1) / 2].InFlight!;
            var allowed = inFlight.Allowed is > 0 and < 1_000_000 and var most ? most : (int?)null;
            var top = Math.Max(1, Math.Max(inFlight.Timeline.Max(), allowed ?? 0));
            rows.Add(new InFlightRow(variant.Name, inFlight.BinMs, inFlight.Timeline, allowed, inFlight.Mean, inFlight.Peak, Math.Ceiling(top)));
        }

        return rows.Count == 0 ? null : new InFlightChart(scenario, FirstDrawn(rows), rows.Count);
    }
}

/// <summary>A variant's strip on the items-in-flight chart.</summary>
/// <param name="Name">The variant.</param>
/// <param name="BinMs">Each span's length.</param>
/// <param name="Timeline">The mean items in flight over each span.</param>
/// <param name="Allowed">The most its strategy allows at once; null where not known.</param>
/// <param name="Mean">The trial's mean items in flight.</param>
/// <param name="Peak">The trial's most items in flight at once.</param>
/// <param name="Top">The top of the strip's scale: the most in a span, or the most allowed.</param>
internal sealed record InFlightRow(string Name, double BinMs, IReadOnlyList<double> Timeline, int? Allowed, double Mean, int Peak, double Top)
{
    /// <summary>What the strip's label says after the name: "3.9 on average, peak 5, of the 128 it allows".</summary>
    public string Said
        => string.Create(
            CultureInfo.InvariantCulture, $"{NumberText.AtOnce(Mean)} on average, peak " +
                $"{Peak}{(Allowed is { } a ? $", of the {a} it allows" : string.Empty)}");
}
