using System.Text.RegularExpressions;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Charts;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using SkiaSharp;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>A scenario's own console metric gets a chart of its medians, where there is a difference to see.</summary>
public partial class MetricChartTests
{
    private static readonly Metric PeakInFlight = Metric.Count("peak-in-flight", "Peak in flight") with { Visibility = MetricVisibility.Everywhere };
    private static readonly Metric Errors = Metric.Count("errors", "Errors") with { Visibility = MetricVisibility.Everywhere, FlagsWhenNotZero = true };
    private static readonly Metric Hidden = Metric.Count("hidden", "Hidden") with { Visibility = MetricVisibility.Reports };
    private static readonly Metric Steady = Metric.Milliseconds("steady", "Steady") with { Visibility = MetricVisibility.Everywhere, NegativeMeansNever = true };

    /// <summary>Three variants, each with two trials: peak in flight 40/3/1 (with a spread in the first), errors 0 everywhere.</summary>
    private static ScenarioResult Scenario(params Metric[] metrics) => ScenarioWith(PeakInFlight, metrics);

    private static ScenarioResult ScenarioWith(Metric inFlightMetric, params Metric[] metrics)
    {
        var template = ExporterTests.SampleRun().Scenarios[0];
        VariantResult Variant(string name, double wallMs, double inFlightLow, double inFlightHigh)
        {
            TrialResult Trial(double inFlight) => new()
            {
                Metrics = Measured.Metrics(wallMs, (inFlightMetric, inFlight), (Errors, 0), (Hidden, inFlight), (Steady, inFlight)),
                ItemsPlanned = 40,
                ItemsCompleted = 40,
            };
            List<TrialResult> trials = [Trial(inFlightLow), Trial(inFlightHigh)];
            return new VariantResult
            {
                Name = name,
                Description = name,
                Status = TrialStatus.Ok,
                Trials = trials,
                Summary = new VariantSummary { Trials = 2, MedianWallMs = wallMs, MinWallMs = wallMs, MaxWallMs = wallMs, CiLowMs = wallMs, CiHighMs = wallMs, Medians = VariantSummary.MediansOf(trials, metrics) },
            };
        }

        return template with
        {
            Variants = [Variant("sequential", 1381, 1, 1), Variant("whenall", 138, 38, 42), Variant("parallel-for@8", 540, 3, 3)],
            Metrics = metrics,
        };
    }

    [Fact]
    public void AConsoleMetric_IsChartedPerVariant_InTheTablesOrder_WithItsTrialsRange()
    {
        var chart = Assert.Single(Chart.For(Scenario(PeakInFlight)).OfType<MetricChart>());

        Assert.Equal("metric-peak-in-flight", chart.Kind);
        Assert.Equal(["whenall", "parallel-for@8", "sequential"], chart.Rows.Select(r => r.Name));
        Assert.Equal([40, 3, 1], chart.Rows.Select(r => r.Value));
        Assert.Equal((38, 42), (chart.Rows[0].Low, chart.Rows[0].High));
        Assert.Equal("median Peak in flight", chart.AxisTitle);

        var svg = SvgCharts.Draw(chart);
        Assert.Equal(["whenall", "parallel-for@8", "sequential"], BarPattern().Matches(svg).Select(m => m.Groups[1].Value));
        Assert.DoesNotContain("class=\"ideal\"", svg, StringComparison.Ordinal);
        Assert.Contains("whenall: median 40, trials 38-42", svg, StringComparison.Ordinal);
    }

    [Fact]
    public void NoChart_ForAMetricThatIsTheSameEverywhere_NotOnTheConsole_OrNegativeMeaningNever()
    {
        Assert.Empty(Chart.For(Scenario(Errors, Hidden, Steady)).OfType<MetricChart>());
    }

    [Fact]
    public void TheMetricsChart_IsInTheReport_AndItsFileNameIsSafe()
    {
        var odd = new Metric("in/flight", "Peak in flight") { Visibility = MetricVisibility.Everywhere };
        var scenario = ScenarioWith(odd, odd);
        var chart = Assert.Single(Chart.For(scenario).OfType<MetricChart>());
        Assert.Equal("metric-in-flight", chart.Kind);

        var run = ExporterTests.SampleRun() with { Scenarios = [scenario] };
        var html = HtmlExporterTests.Html(run);
        Assert.Contains("aria-label=\"Median Peak in flight of each delay variant, with the range over its trials\"", html, StringComparison.Ordinal);
    }

    [Fact]
    public void ThePng_DrawsABarPerVariant()
    {
        var chart = Assert.Single(Chart.For(Scenario(PeakInFlight)).OfType<MetricChart>());

        using var image = SKBitmap.Decode(PngCharts.Draw(chart));

        Assert.Equal(1600, image.Width);
        var pixels = PngChartsTests.Count(image, ChartPalette.Bar.File);

        // Three bars of 40, 3 and 1 over most of the plot's width: the longest alone is tens of thousands of pixels.
        Assert.True(pixels > 20_000, $"bar pixels: {pixels}");
    }

    [GeneratedRegex("<rect class=\"bar\" data-variant=\"([^\"]+)\"")]
    private static partial Regex BarPattern();
}
