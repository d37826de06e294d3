using ConcurrencyLab.Measurement;
using ConcurrencyLab.Charts;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using SkiaSharp;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>The PNG charts are decoded and their pixels counted: what a reader would see, not how it was drawn.</summary>
public class PngChartsTests
{
    [Fact]
    public void WallTimeChart_IsTheAdvertisedSize_Transparent_WithABarOfThePaletteColour()
    {
        var chart = WallTimeChart.From(ExporterTests.SampleRun().Scenarios[0]);
        Assert.NotNull(chart);

        using var image = Decode(PngCharts.Draw(chart));

        Assert.Equal(PngCharts.Width * PngCharts.Density, image.Width);
        Assert.Equal(1600, image.Width);
        Assert.Equal(0, image.GetPixel(0, 0).Alpha);
        Assert.Equal(0, image.GetPixel(image.Width - 1, image.Height - 1).Alpha);

        // One bar of 0.64 of a row over most of the plot's width: tens of thousands of pixels at 2x.
        Assert.True(Count(image, ChartPalette.Bar.File) > 20_000, $"bar pixels: {Count(image, ChartPalette.Bar.File)}");

        // Text and axes in the mid tone.
        Assert.True(Count(image, ChartPalette.Foreground.File) > 500, $"text pixels: {Count(image, ChartPalette.Foreground.File)}");
    }

    [Fact]
    public void AChartFile_CarriesATitleAboveAndACaptionBelow_InTheTextTone()
    {
        var run = ExporterTests.SampleRun();
        var chart = WallTimeChart.From(run.Scenarios[0])!;

        using var bare = Decode(PngCharts.Draw(chart));
        using var captioned = Decode(PngCharts.Draw(chart with { Caption = Chart.CaptionOf(run, run.Scenarios[0]) }));

        // 30 points of title and 22 of caption, at 2 pixels a point; both rows hold text in the mid tone.
        Assert.Equal(bare.Height + ((30 + 22) * PngCharts.Density), captioned.Height);
        Assert.True(CountRows(captioned, 0, 30 * PngCharts.Density, ChartPalette.Foreground.File) > 100, "no title");
        Assert.True(CountRows(captioned, captioned.Height - (22 * PngCharts.Density), captioned.Height, ChartPalette.Foreground.File) > 100, "no caption");
    }

    private static int CountRows(SKBitmap image, int top, int bottom, string colour)
    {
        var wanted = SKColor.Parse(colour);
        var count = 0;
        for (var y = top; y < bottom; y++)
        {
            for (var x = 0; x < image.Width; x++)
            {
                var pixel = image.GetPixel(x, y);
                count += pixel.Alpha > 200 && Math.Abs(pixel.Red - wanted.Red) < 40 && Math.Abs(pixel.Green - wanted.Green) < 40 && Math.Abs(pixel.Blue - wanted.Blue) < 40 ? 1 : 0;
            }
        }

        return count;
    }

    [Fact]
    public void ThreadChart_DrawsEverySeriesInItsOwnColour()
    {
        var run = ExporterTests.SampleRun();
        var template = run.Scenarios[0].Variants[1];
        VariantResult Variant(int i) => template with
        {
            Name = $"v{i}",
            Trials = [template.Trials[0] with { Samples = [.. Enumerable.Range(0, 20).Select(t => new Sample(t * 10, 10 + (i * 5), 2, 0, 0))] }],
        };
        var scenario = run.Scenarios[0] with { Variants = [.. Enumerable.Range(0, 4).Select(Variant)] };
        var chart = OverTimeChart.From(scenario, "os-threads", "OS threads", s => s.Threads);
        Assert.NotNull(chart);

        using var image = Decode(PngCharts.Draw(chart));

        Assert.Equal(1600, image.Width);
        for (var i = 0; i < 4; i++)
        {
            // A flat line across the plot, plus its legend swatch.
            var colour = ChartPalette.Series[i].File;
            Assert.True(Count(image, colour) > 1000, $"series {i} ({colour}): {Count(image, colour)} pixels");
        }

        Assert.True(Count(image, ChartPalette.Series[5].File) < 50, "a colour no series has is not drawn");
    }

    [Fact]
    public void ThreadStateChart_DrawsEachStateInItsColour_AndTheRaisesAsDots()
    {
        var chart = Chart.For(HtmlExporterTests.WithThreadStates()).OfType<ThreadStateChart>().Single();

        using var image = Decode(PngCharts.Draw(chart));

        var sleeping = ChartPalette.Series[ThreadStateChart.States[2].Colour].File;
        Assert.True(Count(image, sleeping) > 10_000, $"sleeping ({sleeping}): {Count(image, sleeping)} pixels");
        var waiting = Count(image, ChartPalette.Series[ThreadStateChart.States[1].Colour].File);
        Assert.True(waiting < 500, $"no thread waited, so no band of waiting, only its legend swatch: {waiting} pixels");
    }

    [Fact]
    public void InFlightChart_DrawsEachStripsArea_AndTheMostItAllows()
    {
        var chart = Chart.For(HtmlExporterTests.WithItemsInFlight()).OfType<InFlightChart>().Single();

        using var image = Decode(PngCharts.Draw(chart));

        // The area of the strip at its limit fills much of its band; the strip far below its limit, a sliver.
        Assert.True(Count(image, ChartPalette.Series[0].File) > 5_000, $"{Count(image, ChartPalette.Series[0].File)} pixels of the areas");
    }

    [Fact]
    public void DegreeSearchChart_DrawsAStrategysLine_AndRingsTheDegreeChosen()
    {
        var chart = Chart.For(HtmlExporterTests.WithSearches()).OfType<SweepChart>().Single(c => c.Kind == "degree-search");

        using var image = Decode(PngCharts.Draw(chart));

        Assert.True(Count(image, ChartPalette.Series[0].File) > 1000, "foreach-async's line");
        Assert.True(Count(image, ChartPalette.Series[1].File) > 1000, "parallel-for's line");

        // The same chart with no degree chosen among those drawn: no rings, no legend entry for them.
        var unringed = HtmlExporterTests.WithSearches();
        unringed = unringed with { DegreeSearches = [.. unringed.DegreeSearches.Select(d => d with { Chosen = 999 })] };
        using var plain = Decode(PngCharts.Draw(Chart.For(unringed).OfType<SweepChart>().Single(c => c.Kind == "degree-search")));
        var (ringed, bare) = (Count(image, ChartPalette.Foreground.File), Count(plain, ChartPalette.Foreground.File));
        Assert.True(ringed > bare + 300, $"rings: {ringed} pixels of the text colour against {bare} without them");
    }

    [Fact]
    public void SweepChart_DrawsALinePerFamily()
    {
        var run = ExporterTests.SampleRun();
        var template = run.Scenarios[0].Variants[1];
        var scenario = run.Scenarios[0] with
        {
            Variants = [HtmlExporterTests.Swept(template, "pool", 4, 90), HtmlExporterTests.Swept(template, "pool", 16, 60), HtmlExporterTests.Swept(template, "task", 4, 30), HtmlExporterTests.Swept(template, "task", 16, 35)],
        };
        var chart = SweepChart.From(scenario);
        Assert.NotNull(chart);

        using var image = Decode(PngCharts.Draw(chart));

        Assert.True(Count(image, ChartPalette.Series[0].File) > 1000);
        Assert.True(Count(image, ChartPalette.Series[1].File) > 1000);
    }

    [Fact]
    public void AVeryLongVariantName_IsCut_SoTheBarsStillHaveTheirRoom()
    {
        var run = ExporterTests.SampleRun();
        var scenario = run.Scenarios[0] with { Variants = [run.Scenarios[0].Variants[1] with { Name = new string('x', 400) }] };
        var chart = WallTimeChart.From(scenario);
        Assert.NotNull(chart);

        using var image = Decode(PngCharts.Draw(chart));

        Assert.True(Count(image, ChartPalette.Bar.File) > 20_000, $"bar pixels: {Count(image, ChartPalette.Bar.File)}");
        Assert.Equal(40, Chart.Label(new string('x', 400)).Length);
        Assert.Equal("whenall", Chart.Label("whenall"));
    }

    [Fact]
    public void ManySeries_EachGetALegendEntry_InRowsBelowThePlot()
    {
        var run = ExporterTests.SampleRun();
        var template = run.Scenarios[0].Variants[1];
        var chart = OverTimeChart.From(run.Scenarios[0] with { Variants = [.. Enumerable.Range(0, 60).Select(i => template with { Name = $"variant-{i}" })] }, "os-threads", "OS threads", s => s.Threads);
        Assert.NotNull(chart);

        using var image = Decode(PngCharts.Draw(chart));

        // "variant-59" and its swatch take over 100 points, so at most 7 fit in a row of 800: 60 entries need 9 rows or more.
        // (ScottPlot's own legend showed 5 to 7 rows of 3, and dropped the rest.)
        var legendTop = 340 * PngCharts.Density;
        Assert.True(TextRows(image, legendTop) >= 9, $"{TextRows(image, legendTop)} rows of legend text");
    }

    private static SKBitmap Decode(byte[] png) => SKBitmap.Decode(png) ?? throw new InvalidOperationException("not a PNG");

    /// <summary>Bands of pixel rows below <paramref name="top"/> that hold text in the ink colour, separated by rows that hold none.</summary>
    private static int TextRows(SKBitmap image, int top)
    {
        var (r, g, b) = ChartPalette.Rgb(ChartPalette.Foreground.File);
        var bands = 0;
        var inBand = false;
        for (var y = top; y < image.Height; y++)
        {
            var inked = false;
            for (var x = 0; x < image.Width && !inked; x++)
            {
                var pixel = image.GetPixel(x, y);
                inked = pixel.Alpha > 200 && Math.Abs(pixel.Red - r) + Math.Abs(pixel.Green - g) + Math.Abs(pixel.Blue - b) < 24;
            }

            bands += inked && !inBand ? 1 : 0;
            inBand = inked;
        }

        return bands;
    }

    /// <summary>Opaque pixels within a small distance of <paramref name="colour"/> (edges are blended).</summary>
    internal static int Count(SKBitmap image, string colour)
    {
        var (r, g, b) = ChartPalette.Rgb(colour);
        var count = 0;
        foreach (var pixel in image.Pixels)
        {
            if (pixel.Alpha > 230 && Math.Abs(pixel.Red - r) + Math.Abs(pixel.Green - g) + Math.Abs(pixel.Blue - b) < 24)
            {
                count++;
            }
        }

        return count;
    }
}
