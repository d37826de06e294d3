using System.Text.RegularExpressions;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Charts;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Reporting;

public sealed partial class HtmlExporterTests
{
    internal static string Html(RunResult run)
    {
        using var writer = new StringWriter { NewLine = "\n" };
        HtmlExporter.Default.Export(run, writer);
        return writer.ToString();
    }

    [Fact]
    public void Report_IsSelfContained_NoScriptNoNetwork()
    {
        var html = Html(ExporterTests.SampleRun());

        Assert.StartsWith("<!DOCTYPE html>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<script", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("<link", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("src=", html, StringComparison.OrdinalIgnoreCase);

        // The only address is the SVG namespace, which names and fetches nothing.
        Assert.All(AddressPattern().Matches(html), m => Assert.Equal("http://www.w3.org/2000/svg", m.Value));
    }

    [Fact]
    public void Report_OpensWithTheSummary_ThenChartsAndTheTable_AndEncodesText()
    {
        var html = Html(ExporterTests.SampleRun());

        var summary = html.IndexOf("<section id=\"summary\">", StringComparison.Ordinal);
        var chart = html.IndexOf("<svg", StringComparison.Ordinal);
        var table = html.IndexOf("<table class=\"results\">", StringComparison.Ordinal);
        Assert.True(summary > 0 && summary < chart && chart < table, $"summary {summary}, chart {chart}, table {table}");
        Assert.Contains("<td>whenall</td><td class=\"n\">51.5</td><td class=\"n\">0.95</td>", html, StringComparison.Ordinal);
        Assert.Contains("TestOS, .NET 10, 2 logical cores", html, StringComparison.Ordinal);

        // The failed trial's error is text, never markup.
        Assert.Contains("boom, &quot;quoted&quot; | piped", html, StringComparison.Ordinal);
    }

    [Fact]
    public void WallTimeChart_HasABarPerSuccessfulVariant_AndTheIdealLine()
    {
        var html = Html(ExporterTests.SampleRun());

        var bars = BarPattern().Matches(html).Select(m => m.Groups[1].Value).ToList();
        Assert.Equal(["whenall"], bars);
        Assert.Contains("class=\"ideal\"", html, StringComparison.Ordinal);
        Assert.Contains("ideal 49.0 ms", html, StringComparison.Ordinal);

        // Two samples in the trial: a line each for OS and pool threads.
        Assert.Equal(2, Regex.Count(html, "<polyline class=\"line series-0\" data-variant=\"whenall\""));
    }

    [Fact]
    public void ThreadChart_WithSixteenVariants_DrawsSixteenDifferentLines_AndTheirSwatches()
    {
        var run = ExporterTests.SampleRun();
        var template = run.Scenarios[0].Variants[1];
        var scenario = run.Scenarios[0] with { Variants = [.. Enumerable.Range(0, 16).Select(i => template with { Name = $"v{i}" })] };

        var chart = OverTimeChart.From(scenario, "os-threads", "OS threads", s => s.Threads);

        Assert.NotNull(chart);
        var svg = SvgCharts.Draw(chart);
        var lines = Regex.Matches(svg, "<polyline class=\"line ([^\"]+)\"").Select(m => m.Groups[1].Value).ToList();
        var swatches = Regex.Matches(svg, "<line class=\"swatch ([^\"]+)\"").Select(m => m.Groups[1].Value).ToList();
        Assert.Equal(16, lines.Distinct().Count());
        Assert.Equal(lines, swatches);
    }

    [Fact]
    public void AScenarioWithNoSuccessfulTrial_GetsNoChart_ButItsTableAndNotes()
    {
        var run = ExporterTests.SampleRun();
        var scenario = run.Scenarios[0];
        run = run with { Scenarios = [scenario with { Variants = [scenario.Variants[0]] }] };

        var html = Html(run);

        Assert.DoesNotContain("<svg", html, StringComparison.Ordinal);
        Assert.Contains("none succeeded", html, StringComparison.Ordinal);
        Assert.Contains("<table class=\"results\">", html, StringComparison.Ordinal);
    }

    [Fact]
    public void SweepChart_DrawsALinePerFamilyOfVariantsThatDifferOnlyInTheirNumber()
    {
        var run = ExporterTests.SampleRun();
        var template = run.Scenarios[0].Variants[1];
        var scenario = run.Scenarios[0] with { Variants = [Swept(template, "pool", 4, 90), Swept(template, "pool", 16, 60), Swept(template, "pool", 64, 55), Swept(template, "lonely", 8, 70), Swept(template, "whenall", null, 50)] };

        var chart = SweepChart.From(scenario);

        Assert.NotNull(chart);
        var svg = SvgCharts.Draw(chart);
        Assert.Equal(1, Regex.Count(svg, "<polyline class=\"line series-0\" data-family=\"pool\""));
        Assert.Equal(3, Regex.Count(svg, "<circle "));
        Assert.Contains("pool@16: median 60.0 ms", svg, StringComparison.Ordinal);
        Assert.DoesNotContain("lonely", svg, StringComparison.Ordinal);
        Assert.Null(SweepChart.From(scenario with { Variants = [Swept(template, "lonely", 8, 70), Swept(template, "whenall", null, 50)] }));
    }

    [Fact]
    public void SweepChart_GroupsByStructure_AFamilyInTwoFormsIsTwoLines_NamedByTheirForm()
    {
        var run = ExporterTests.SampleRun();
        var template = run.Scenarios[0].Variants[1];
        VariantResult Apm(int n, double ms) => Swept(template, "parallel-for", n, ms) with { Name = $"parallel-for@{n}-apm", Form = Workloads.WorkForm.Apm };
        var scenario = run.Scenarios[0] with
        {
            Variants = [Swept(template, "parallel-for", 4, 90) with { Form = Workloads.WorkForm.Sync }, Swept(template, "parallel-for", 40, 30) with { Form = Workloads.WorkForm.Sync }, Apm(4, 80), Apm(40, 20)],
        };

        var chart = SweepChart.From(scenario);

        Assert.NotNull(chart);
        Assert.Equal(["parallel-for-sync", "parallel-for-apm"], chart.Families.Select(f => f.Family));
        Assert.Equal("n", chart.AxisTitle);
        Assert.Contains("parallel-for@40-apm: median 20.0 ms", SvgCharts.Draw(chart), StringComparison.Ordinal);
    }

    [Fact]
    public void TwoSweptParameters_AreTwoCharts_EachTitledByItsOwn()
    {
        var run = ExporterTests.SampleRun();
        var template = run.Scenarios[0].Variants[1];
        VariantResult At(int requests, int minimum, double ms) => template with
        {
            Name = $"waitall@{requests}:min-threads={minimum}",
            Family = "waitall",
            Parameters = new Dictionary<string, string> { ["requests"] = $"{requests}", ["min-threads"] = $"{minimum}" },
            Summary = template.Summary! with { MedianWallMs = ms },
        };
        var scenario = run.Scenarios[0] with { Variants = [At(100, 64, 900), At(100, 400, 200), At(1000, 400, 2500)] };

        var charts = SweepChart.All(scenario);

        Assert.Equal(["sweep-min-threads", "sweep-requests"], charts.Select(c => c.Kind).Order(StringComparer.Ordinal));
        var byMinimum = charts.Single(c => c.AxisTitle == "min-threads");
        Assert.Equal([64, 400], byMinimum.Ns);
        Assert.Equal("waitall requests=100", Assert.Single(byMinimum.Families).Family);
        Assert.Equal([100, 1000], charts.Single(c => c.AxisTitle == "requests").Ns);
    }

    /// <summary>A variant of <paramref name="family"/> at <paramref name="n"/>, as a run records it: its structure and the name printed from it.</summary>
    internal static VariantResult Swept(VariantResult template, string family, int? n, double ms) => template with
    {
        Name = n is null ? family : $"{family}@{n}",
        Family = family,
        Parameters = n is null ? new Dictionary<string, string>() : new Dictionary<string, string> { ["n"] = n.Value.ToString(System.Globalization.CultureInfo.InvariantCulture) },
        Summary = template.Summary! with { MedianWallMs = ms },
    };

    [Fact]
    public void ChartFiles_AreWellFormedSvg_WithTheirColoursInside_AndAPngEach()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-charts-test-").FullName;
        try
        {
            var failures = Exporters.ExportAll(ExporterTests.SampleRun(), folder, [], [ChartFormat.Svg, PngChartFormat.Instance], out var written);

            Assert.Empty(failures);
            Assert.Equal(
                ["delay-os-threads.png", "delay-os-threads.svg", "delay-pool-threads.png", "delay-pool-threads.svg", "delay-wall-time.png", "delay-wall-time.svg"],
                written.Select(Path.GetFileName).Order(StringComparer.Ordinal));
            Assert.EndsWith($"and 3 charts as SVG and PNG in {Path.Combine(folder, "charts")}", Exporters.Describe(written), StringComparison.Ordinal);
            foreach (var path in written.Where(p => p.EndsWith(".png", StringComparison.Ordinal)))
            {
                Assert.Equal([0x89, (byte)'P', (byte)'N', (byte)'G'], File.ReadAllBytes(path)[..4]);
            }

            foreach (var path in written.Where(p => p.EndsWith(".svg", StringComparison.Ordinal)))
            {
                var svg = System.Xml.Linq.XDocument.Load(path).Root!;
                Assert.Equal("{http://www.w3.org/2000/svg}svg", svg.Name.ToString());
                Assert.Contains(".bar{fill:", svg.Element("{http://www.w3.org/2000/svg}style")!.Value, StringComparison.Ordinal);
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void ChartsDrawnSideBySide_AreWrittenAndTheirFailuresSaid_InTheChartsOrder_AFormatUnableHereOnce()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-charts-test-").FullName;
        try
        {
            var failures = Exporters.ExportAll(ExporterTests.SampleRun(), folder, [], [ChartFormat.Svg, new Failing("one", chart => chart.Kind == "pool-threads"), new Failing("none", _ => true, unable: true)], out var written);

            // delay's charts come in the order wall time, OS threads, pool threads; each written as it would be one at a time.
            Assert.Equal(
                ["delay-wall-time.svg", "delay-wall-time.one", "delay-os-threads.svg", "delay-os-threads.one", "delay-pool-threads.svg"],
                written.Select(Path.GetFileName));
            Assert.Equal(["NONE charts: nothing draws here", "delay-pool-threads.one: InvalidOperationException: pool-threads would not draw"], failures.Order(StringComparer.Ordinal));
            Assert.Equal("wall-time", File.ReadAllText(written[1]));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    // A format whose charts are their kinds' names, failing where told: for one chart, or (unable) for every chart.
    private sealed class Failing(string extension, Func<Chart, bool> fails, bool unable = false) : ChartFormat(extension)
    {
        internal override byte[] Draw(Chart chart) => !fails(chart) ? System.Text.Encoding.UTF8.GetBytes(chart.Kind)
            : unable ? throw new NotSupportedException("nothing draws here")
            : throw new InvalidOperationException($"{chart.Kind} would not draw");
    }

    [Fact]
    public void WithoutTheChartsPackage_TheChartsAreSvgOnly()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-charts-test-").FullName;
        try
        {
            var failures = Exporters.ExportAll(ExporterTests.SampleRun(), folder, [], out var written);

            Assert.Empty(failures);
            Assert.Equal(["delay-os-threads.svg", "delay-pool-threads.svg", "delay-wall-time.svg"], written.Select(Path.GetFileName).Order(StringComparer.Ordinal));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void Describe_SaysHowManyChartsInEachFormat_AndWhenSomeImagesAreMissing()
    {
        var charts = Path.Combine("out", "charts");
        string[] both = ["out/results.json", Path.Combine(charts, "a.svg"), Path.Combine(charts, "a.png"), Path.Combine(charts, "b.svg"), Path.Combine(charts, "b.png")];

        Assert.Equal($"out/results.json, and 2 charts as SVG and PNG in {charts}", Exporters.Describe(both));
        Assert.Equal($"out/results.json, and 2 charts as SVG and 1 as PNG in {charts}", Exporters.Describe(both[..4]));
        Assert.Equal("out/results.json", Exporters.Describe(both[..1]));
    }

    [Theory]
    [InlineData(49, new double[] { 0, 10, 20, 30, 40 })]
    [InlineData(13_834, new double[] { 0, 5000, 10_000 })]
    [InlineData(0.9, new double[] { 0, 0.2, 0.4, 0.6, 0.8 })]
    public void Ticks_AreRoundNumbers_UpToTheMaximum(double max, double[] expected)
    {
        Assert.Equal(expected, SvgCharts.Ticks(max));
    }

    /// <summary>The whole page for the sample run, against <c>Snapshots/report.html</c> (looked at in a browser before it was committed).</summary>
    [Fact]
    public void Snapshot_Page() => Snapshot.Matches("report.html", Html(ExporterTests.SampleRun()));

    [Fact]
    public void AScenarioThatDrivesAService_DrawsTheServicesThreads_AndTheClientsBeside()
    {
        var run = ExporterTests.SampleRun();
        var scenario = run.Scenarios[0];
        var trial = scenario.Variants[1].Trials[0] with
        {
            Service = new ServiceMeasurements { Name = "product", Samples = [new Sample(0, 30, 20, 0, 0), new Sample(10, 61, 46, 9, 3)] },
        };
        scenario = scenario with { Variants = [scenario.Variants[0], scenario.Variants[1] with { Trials = [trial] }] };

        var charts = Chart.For(scenario).OfType<OverTimeChart>().ToDictionary(c => c.Kind);

        Assert.Equal(["os-threads", "pool-threads", "client-os-threads"], charts.Keys);
        Assert.Equal("the product service's OS threads", charts["os-threads"].Quantity);
        Assert.Equal([30.0, 61.0], charts["os-threads"].Series.Single().Points.Select(p => p.Value));
        Assert.Equal([20.0, 46.0], charts["pool-threads"].Series.Single().Points.Select(p => p.Value));
        Assert.Equal([11.0, 12.0], charts["client-os-threads"].Series.Single().Points.Select(p => p.Value));
        Assert.StartsWith("The product service's pool threads over time", charts["pool-threads"].Description, StringComparison.Ordinal);
    }

    /// <summary>The sample run's scenario with two strategies' degrees searched, foreach-async's probes one of them NaN, as a file might have it.</summary>
    internal static ScenarioResult WithSearches(double? oddMedian = double.NaN) => ExporterTests.SampleRun().Scenarios[0] with
    {
        DegreeSearches =
        [
            new DegreeSearchResult { Family = "foreach-async", Variant = "foreach-async@32", Chosen = 32, AsFastFrom = 16, AsFastTo = 32, Noise = 0.05, Tried = [new(2, 3, 900), new(4, 3, 450), new(8, 3, 230), new(16, 3, 120), new(32, 3, 118), new(23, 3, oddMedian)] },
            new DegreeSearchResult { Family = "parallel-for", Variant = "parallel-for@8", Chosen = 8, AsFastFrom = 8, AsFastTo = 8, Noise = 0.05, Tried = [new(2, 3, 2000), new(4, 3, 1500), new(8, 3, 1400), new(16, 0, null)] },
        ],
    };

    [Fact]
    public void DegreeSearches_AreDrawnAsALinePerStrategy_WithTheChosenDegreeRinged_AndNoPointForAProbeWithoutAMedian()
    {
        var chart = Assert.Single(Chart.For(WithSearches()).OfType<SweepChart>(), c => c.Kind == "degree-search");

        Assert.Equal(["foreach-async", "parallel-for"], chart.Families.Select(f => f.Family));
        Assert.Equal([2, 4, 8, 16, 32], chart.Families[0].Points.Select(p => p.N));
        Assert.Equal([2, 4, 8], chart.Families[1].Points.Select(p => p.N));
        Assert.Equal([("foreach-async@32", 118.0), ("parallel-for@8", 1400.0)], chart.Chosen.Select(p => (p.Variant, p.Ms)));
        var svg = SvgCharts.Draw(chart);
        Assert.Equal(2, Regex.Count(svg, "<circle class=\"chosen\""));
        Assert.StartsWith("Median wall time of each degree probed before the", chart.Description, StringComparison.Ordinal);
        Assert.DoesNotContain(Chart.For(ExporterTests.SampleRun().Scenarios[0]).OfType<SweepChart>(), c => c.Kind == "degree-search");
    }

    [Fact]
    public void SearchesOfOneStrategyAtTwoSweepValues_AreLinesNamedByThoseValues_NotTwoLinesOfOneName()
    {
        var scenario = ExporterTests.SampleRun().Scenarios[0] with
        {
            DegreeSearches =
            [
                new DegreeSearchResult { Family = "foreach-async", Variant = "foreach-async@8:cores=2", Chosen = 8, AsFastFrom = 8, AsFastTo = 8, Noise = 0.05, Tried = [new(2, 3, 400), new(8, 3, 100)] },
                new DegreeSearchResult { Family = "foreach-async", Variant = "foreach-async@32:cores=8", Chosen = 32, AsFastFrom = 32, AsFastTo = 32, Noise = 0.05, Tried = [new(8, 3, 400), new(32, 3, 100)] },
            ],
        };

        var chart = Assert.Single(Chart.For(scenario).OfType<SweepChart>(), c => c.Kind == "degree-search");

        Assert.Equal(["foreach-async:cores=2", "foreach-async:cores=8"], chart.Families.Select(f => f.Family));
    }

    /// <summary>A sample run whose second variant's trial has thread states from stack samples and two raises for starvation.</summary>
    internal static ScenarioResult WithThreadStates(double binMs = 10)
    {
        var scenario = ExporterTests.SampleRun().Scenarios[0];
        var variant = scenario.Variants[1];
        var threads = new ThreadTime
        {
            IntervalMs = 1,
            Work = new ThreadStates(60, 0, 1140, 0),
            BinMs = binMs,
            Timeline = [.. Enumerable.Range(0, ThreadTime.Bins).Select(b => new ThreadCounts(0.1, 0, b < 30 ? 2 : 4, 0))],
            Sites = [new BlockingSite("sleeping", "Shop.Worker.Nap", "System.Threading.Thread.Sleep", 1140, 900) { File = "Worker.cs", Line = 42 }],
        };
        var runtime = new RuntimeAccount
        {
            PoolTargetAtStart = 2,
            PoolAdjustments = [new PoolAdjustment(100, 3, PoolAdjustmentReason.Starvation, 0), new PoolAdjustment(300, 4, PoolAdjustmentReason.Starvation, 0)],
            Threads = threads,
        };
        var trial = variant.Trials[0] with { Runtime = runtime };
        return scenario with { Variants = [scenario.Variants[0], variant with { Trials = [trial], Account = null }] };
    }

    [Fact]
    public void ThreadStates_AreDrawnAsAStripPerVariant_WithTheRaisesAsDots_AndWhereTheyBlocked()
    {
        var scenario = WithThreadStates();

        var chart = Assert.Single(Chart.For(scenario).OfType<ThreadStateChart>());
        var row = Assert.Single(chart.Rows);
        Assert.Equal((scenario.Variants[1].Name, 5.0, 2), (row.Name, row.Peak, row.Marks.Count));
        Assert.Equal(600, chart.MaxTimeMs);

        var svg = SvgCharts.Draw(chart);
        Assert.Contains("data-state=\"sleeping\"", svg, StringComparison.Ordinal);
        Assert.Contains("data-state=\"running\"", svg, StringComparison.Ordinal);
        Assert.DoesNotContain("data-state=\"waiting\"", svg, StringComparison.Ordinal);
        Assert.Equal(3, Regex.Count(svg, "<circle class=\"raise\"")); // two raises, and the legend's dot
        Assert.Contains("100% of the time not running at Worker.Nap (Worker.cs:42) -&gt; Thread.Sleep (sleeping)", svg, StringComparison.Ordinal);
        Assert.Contains(svg, Html(ExporterTests.SampleRun() with { Scenarios = [scenario] }), StringComparison.Ordinal);
    }

    [Fact]
    public void ThePoolsLowerings_AreRingsApartFromItsRaises_EachWithItsOwnLegend()
    {
        // Raised to 3 and 4 for blocking, then lowered to 3 when the blocking ended, then a hill-climbing move: two
        // dots, one ring, and nothing for hill climbing.
        var scenario = WithThreadStates();
        var trial = scenario.Variants[1].Trials[0];
        var runtime = trial.Runtime! with
        {
            PoolAdjustments =
            [
                new PoolAdjustment(100, 3, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(200, 4, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(300, 3, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(400, 5, PoolAdjustmentReason.ClimbingMove, 0),
            ],
        };
        scenario = scenario with { Variants = [scenario.Variants[0], scenario.Variants[1] with { Trials = [trial with { Runtime = runtime }] }] };

        var states = Assert.Single(Chart.For(scenario).OfType<ThreadStateChart>());
        Assert.Equal([false, false, true], Assert.Single(states.Rows).Marks.Select(m => m.Lowered));
        var svg = SvgCharts.Draw(states);
        Assert.Equal(3, Regex.Count(svg, "<circle class=\"raise\"")); // two raises, and the legend's dot
        Assert.Equal(2, Regex.Count(svg, "<circle class=\"lower\"")); // one lowering, and the legend's ring
        Assert.Contains("the pool took a thread back (", svg, StringComparison.Ordinal);
        Assert.Contains("a ring: it took one back", states.Title, StringComparison.Ordinal);

        // Without a lowering, no ring and no legend for one.
        Assert.DoesNotContain("<circle class=\"lower\"", SvgCharts.Draw(Assert.Single(Chart.For(WithThreadStates()).OfType<ThreadStateChart>())), StringComparison.Ordinal);
    }

    /// <summary>A sample run whose variants' trials counted their items in flight: the first ran 40 of 40, the second 3 of 32.</summary>
    internal static ScenarioResult WithItemsInFlight()
    {
        var scenario = ExporterTests.SampleRun().Scenarios[0];
        ItemsInFlight Counted(double level, int allowed) => new()
        {
            Mean = level,
            Peak = (int)Math.Ceiling(level),
            Allowed = allowed,
            AtAllowedShare = level >= allowed ? 1 : 0,
            BinMs = 10,
            Timeline = [.. Enumerable.Range(0, ItemsInFlight.Bins).Select(_ => level)],
        };
        VariantResult With(VariantResult v, ItemsInFlight f) => v with { Trials = [.. v.Trials.Select(t => t.Status == TrialStatus.Ok ? t with { InFlight = f } : t)] };
        return scenario with { Variants = [With(scenario.Variants[0], Counted(40, 40)), With(scenario.Variants[1], Counted(3, 32))] };
    }

    [Fact]
    public void ItemsInFlight_AreAStripPerVariant_WithTheMostItAllowsDashed_BesideTheThreadStates()
    {
        var scenario = WithItemsInFlight();

        var chart = Assert.Single(Chart.For(scenario).OfType<InFlightChart>());
        Assert.Equal(scenario.Variants.Count(v => v.Summary is not null), chart.Rows.Count);
        var few = chart.Rows.Single(r => r.Allowed == 32);
        Assert.Equal(("3.0 on average, peak 3, of the 32 it allows", 32.0), (few.Said, few.Top));
        var svg = SvgCharts.Draw(chart);
        Assert.Equal(chart.Rows.Count, Regex.Count(svg, "<line class=\"allowed\""));
        Assert.Contains("at most 32 allowed at once", svg, StringComparison.Ordinal);
        Assert.Contains(svg, Html(ExporterTests.SampleRun() with { Scenarios = [scenario] }), StringComparison.Ordinal);

        // Its place: just before the threads by state.
        var kinds = Chart.For(scenario with { Variants = WithThreadStates().Variants.Select((v, i) => v with { Trials = [.. v.Trials.Select(t => t with { InFlight = scenario.Variants[i].Trials[0].InFlight })] }).ToList() }).Select(c => c.Kind).ToList();
        Assert.Equal(kinds.IndexOf("in-flight") + 1, kinds.IndexOf("thread-states"));

        // None counted (a scenario that does not time its items, an older file): no chart.
        Assert.Empty(Chart.For(ExporterTests.SampleRun().Scenarios[0]).OfType<InFlightChart>());
    }

    [Theory]
    [InlineData(double.NaN)]
    [InlineData(-10)]
    [InlineData(0)]
    [InlineData(1e300)]
    public void ThreadStates_FromAFileWithSpansThatAreNoSpans_AreNotDrawn(double binMs) =>
        Assert.Empty(Chart.For(WithThreadStates(binMs)).OfType<ThreadStateChart>());

    /// <summary>The chart files of the sample run, as pasted in a post: with a title above and the scenario, machine and date below.</summary>
    [Theory]
    [InlineData("wall-time")]
    [InlineData("os-threads")]
    public void Snapshot_ChartFile(string kind)
    {
        var run = ExporterTests.SampleRun();
        var chart = Chart.For(run.Scenarios[0]).Single(c => c.Kind == kind) with { Caption = Chart.CaptionOf(run, run.Scenarios[0]) };
        var file = SvgCharts.Standalone(SvgCharts.Draw(chart), chart);

        Assert.Contains($"<text class=\"chart-title\" x=\"8\" y=\"18\">{System.Net.WebUtility.HtmlEncode(chart.Title)}</text>", file, StringComparison.Ordinal);
        Assert.Contains("conclab, delay: ", file, StringComparison.Ordinal);
        Snapshot.Matches($"delay-{kind}.svg", file);
    }

    [GeneratedRegex("https?://[^\"' )]+")]
    private static partial Regex AddressPattern();

    [GeneratedRegex("<rect class=\"bar\" data-variant=\"([^\"]+)\"")]
    private static partial Regex BarPattern();
}
