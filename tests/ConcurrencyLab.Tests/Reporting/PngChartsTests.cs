using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using SkiaSharp;
using Xunit;

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

        Assert.Equal(PngCharts.PixelSize(chart), (image.Width, image.Height));
        Assert.Equal(1600, image.Width);
        Assert.Equal(0, image.GetPixel(0, 0).Alpha);
        Assert.Equal(0, image.GetPixel(image.Width - 1, image.Height - 1).Alpha);

        // One bar of 0.64 of a row over most of the plot's width: tens of thousands of pixels at 2x.
        Assert.True(Count(image, ChartPalette.Bar.File) > 20_000, $"bar pixels: {Count(image, ChartPalette.Bar.File)}");

        // Text and axes in the mid tone.
        Assert.True(Count(image, ChartPalette.Foreground.File) > 500, $"text pixels: {Count(image, ChartPalette.Foreground.File)}");
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

        Assert.Equal(PngCharts.PixelSize(chart), (image.Width, image.Height));
        for (var i = 0; i < 4; i++)
        {
            // A flat line across the plot, plus its legend swatch.
            var colour = ChartPalette.Series[i].File;
            Assert.True(Count(image, colour) > 1000, $"series {i} ({colour}): {Count(image, colour)} pixels");
        }

        Assert.True(Count(image, ChartPalette.Series[5].File) < 50, "a colour no series has is not drawn");
    }

    [Fact]
    public void SweepChart_DrawsALinePerFamily()
    {
        var run = ExporterTests.SampleRun();
        var template = run.Scenarios[0].Variants[1];
        VariantResult Variant(string name, double ms) => template with { Name = name, Summary = template.Summary! with { MedianWallMs = ms } };
        var scenario = run.Scenarios[0] with { Variants = [Variant("pool@4", 90), Variant("pool@16", 60), Variant("task@4", 30), Variant("task@16", 35)] };
        var chart = SweepChart.From(scenario);
        Assert.NotNull(chart);

        using var image = Decode(PngCharts.Draw(chart));

        Assert.True(Count(image, ChartPalette.Series[0].File) > 1000);
        Assert.True(Count(image, ChartPalette.Series[1].File) > 1000);
    }

    private static SKBitmap Decode(byte[] png) => SKBitmap.Decode(png) ?? throw new InvalidOperationException("not a PNG");

    /// <summary>Opaque pixels within a small distance of <paramref name="colour"/> (edges are blended).</summary>
    private static int Count(SKBitmap image, string colour)
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
