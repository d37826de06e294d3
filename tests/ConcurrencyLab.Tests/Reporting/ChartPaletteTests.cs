using ConcurrencyLab.Reporting;

namespace ConcurrencyLab.Tests.Reporting;

public class ChartPaletteTests
{
    [Fact]
    public void EveryTone_ReadsAgainstTheBackgroundItIsFor_AtLeast3To1()
    {
        var tones = ChartPalette.Series.Append(ChartPalette.Foreground).Append(ChartPalette.Muted).ToList();
        foreach (var tone in tones)
        {
            Assert.True(ChartPalette.Contrast(tone.Light, ChartPalette.LightBackground) >= 3, $"{tone.Light} on white");
            Assert.True(ChartPalette.Contrast(tone.Dark, ChartPalette.DarkBackground) >= 3, $"{tone.Dark} on the dark page");
            Assert.True(ChartPalette.Contrast(tone.File, ChartPalette.LightBackground) >= 3, $"file tone {tone.File} on white");
            Assert.True(ChartPalette.Contrast(tone.File, ChartPalette.DarkBackground) >= 3, $"file tone {tone.File} on a dark page");
        }
    }

    [Fact]
    public void FileText_HasTheMostContrastOneColourCanHave_OnBothBackgrounds()
    {
        // (L + 0.05)^2 = 1.05 x (L_dark + 0.05) balances the two ratios; their common value is the ceiling.
        var ceiling = Math.Sqrt(1.05 / (ChartPalette.Contrast(ChartPalette.DarkBackground, "#000000") * 0.05));
        foreach (var tone in new[] { ChartPalette.Foreground.File, ChartPalette.Muted.File })
        {
            Assert.True(ChartPalette.Contrast(tone, ChartPalette.LightBackground) >= ceiling - 0.05, $"{tone} on white, ceiling {ceiling:0.00}");
            Assert.True(ChartPalette.Contrast(tone, ChartPalette.DarkBackground) >= ceiling - 0.05, $"{tone} on the dark page, ceiling {ceiling:0.00}");
        }
    }

    [Fact]
    public void Contrast_MatchesKnownValues()
    {
        Assert.Equal(21, ChartPalette.Contrast("#000000", "#ffffff"), 3);
        Assert.Equal(1, ChartPalette.Contrast("#4e79a7", "#4e79a7"), 6);
        Assert.Throws<FormatException>(() => ChartPalette.Contrast("blue", "#ffffff"));
    }

    [Fact]
    public void ThirtySeries_AllLookDifferent_AndTheColoursThemselvesDiffer()
    {
        Assert.Equal(30, Enumerable.Range(0, 30).Select(ChartPalette.StyleOf).Distinct().Count());
        Assert.Equal(30, Enumerable.Range(0, 30).Select(ChartPalette.CssClasses).Distinct().Count());
        Assert.Equal(ChartPalette.Series.Count, ChartPalette.Series.Select(t => t.File).Distinct().Count());
        Assert.Equal("series-0", ChartPalette.CssClasses(0));
        Assert.Equal("series-5 dash-1", ChartPalette.CssClasses(15));
    }

    [Fact]
    public void TheIdeal_IsNotTheColourOfAnySeries()
    {
        Assert.DoesNotContain(ChartPalette.Series, s => s.File == ChartPalette.Ideal.File || s.Light == ChartPalette.Ideal.Light || s.Dark == ChartPalette.Ideal.Dark);
    }
}
