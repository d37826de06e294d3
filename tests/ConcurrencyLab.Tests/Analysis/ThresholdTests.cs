using ConcurrencyLab.Analysis;
using ConcurrencyLab.Tests.Reporting;

namespace ConcurrencyLab.Tests.Analysis;

/// <summary>Thresholds as --assert writes them: what they read, and what they find in a made-up run.</summary>
public class ThresholdTests
{
    private static Threshold Parse(string text)
    {
        Assert.True(Threshold.TryParse(text, out var threshold, out var error), error);
        return threshold!;
    }

    [Theory]
    [InlineData("whenall:median<=1.2ideal", null, "whenall", "median", ThresholdQuantity.Median, "<=", 1.2, true)]
    [InlineData(" delay/parallel-for@4 : peakPoolThreads < 8 ", "delay", "parallel-for@4", "peakPoolThreads", ThresholdQuantity.Metric, "<", 8, false)]
    [InlineData("*:lost==0", null, "*", "lost", ThresholdQuantity.Lost, "==", 0, false)]
    [InlineData("whenall-async@1000:efficiency>=0.8", null, "whenall-async@1000", "efficiency", ThresholdQuantity.Efficiency, ">=", 0.8, false)]
    [InlineData("x:ratio>2", null, "x", "ratio", ThresholdQuantity.Ratio, ">", 2, false)]
    [InlineData("x:failed==0", null, "x", "failed", ThresholdQuantity.Failed, "==", 0, false)]
    [InlineData("x:medianish==0", null, "x", "medianish", ThresholdQuantity.Metric, "==", 0, false)]
    public void ReadsWhatItSays(string text, string? scenario, string variant, string quantity, ThresholdQuantity measures, string op, double value, bool ofIdeal)
    {
        var threshold = Parse(text);
        Assert.Equal(
            (scenario, variant, quantity, measures, op, value, ofIdeal),
            (threshold.Scenario, threshold.Variant, threshold.Quantity, threshold.Measures, Threshold.Symbol(threshold.Operator), threshold.Value, threshold.OfIdeal));
    }

    [Theory]
    [InlineData("")]
    [InlineData("whenall")]
    [InlineData("whenall median 3")]
    [InlineData("whenall:median=<3")]
    [InlineData("whenall:median<=fast")]
    [InlineData("whenall:peakThreads<=2ideal")]
    [InlineData(":median<=3")]
    public void RefusesWhatItCannotRead_InOneLine(string text)
    {
        Assert.False(Threshold.TryParse(text, out var threshold, out var error));
        Assert.Null(threshold);
        Assert.DoesNotContain('\n', error!);
        Assert.StartsWith("--assert", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(120_000, '9')]
    [InlineData(50_000, ' ')]
    public void AThresholdLongerThanAnyRealOne_IsRefusedByItsLength(int length, char fill)
    {
        Assert.False(Threshold.TryParse("whenall:median<=" + new string(fill, length), out _, out var error));
        Assert.Contains($"at most {Threshold.MaxLength} characters", error, StringComparison.Ordinal);
    }

    [Fact]
    public void TheLongestThresholdRead_OfDigitsOrSpaces_IsReadWithoutBacktracking()
    {
        // At the limit the match is linear: these were quadratic before (10 KB of digits took 2 s).
        var digits = "w:median<=" + new string('9', Threshold.MaxLength - 10);
        var spaces = "w" + new string(' ', Threshold.MaxLength - 12) + ":median<=1";

        // Read through to its value, which no double holds.
        Assert.False(Threshold.TryParse(digits, out _, out var digitsError));
        Assert.EndsWith("is not a number.", digitsError, StringComparison.Ordinal);
        Assert.True(Threshold.TryParse(spaces, out var spaced, out var spacesError), spacesError);
        Assert.Equal("w", spaced!.Variant);
    }

    [Fact]
    public void AMisspeltQuantity_IsNamedWithTheClosestOneMeasured()
    {
        var threshold = Parse("whenall:medianWalMs<=100");

        Assert.Null(Parse("*:peakPoolThreads<=8").UnknownQuantity(["peakPoolThreads", "wallMs"]));
        Assert.Null(Parse("*:lost==0").UnknownQuantity([]));
        var error = threshold.UnknownQuantity(["peakPoolThreads", "wallMs", "p99Ms"]);
        Assert.Equal("--assert 'whenall:medianWalMs<=100': no quantity 'medianWalMs' is measured; did you mean 'median'? (median, efficiency, ratio, failed, lost or a metric's id)", error);
    }

    [Fact]
    public void ChecksEachVariantItNames_AgainstItsMediansAndTrials()
    {
        // The sample run: whenall at 51.5 ms against an ideal of 49 ms, 3 peak pool threads; broken failed its one trial.
        var run = ExporterTests.SampleRun();

        Assert.True(Parse("whenall:median<=1.1ideal").Check(run).Single().Met);
        var tooTight = Parse("whenall:median<=1.05ideal").Check(run).Single();
        Assert.False(tooTight.Met);
        Assert.Equal("delay/whenall: median 51.5, limit <= 1.05 x the ideal 49 = 51.45", tooTight.Message);

        Assert.True(Parse("delay/whenall:peakPoolThreads<=3").Check(run).Single().Met);
        Assert.False(Parse("whenall:peakPoolThreads<3").Check(run).Single().Met);
        Assert.Empty(Parse("scan/whenall:median<=1").Check(run));

        var everyVariant = Parse("*:failed==0").Check(run);
        Assert.Equal(["broken", "whenall"], everyVariant.Select(c => c.Variant));
        Assert.Equal([false, true], everyVariant.Select(c => c.Met));

        // A variant with no ok trial has no median: the threshold is not met, and says why.
        var none = Parse("broken:median<=100000").Check(run).Single();
        Assert.False(none.Met);
        Assert.Contains("no median to compare", none.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void NamesOnlyVariantsTheRunWillMeasure()
    {
        (string, string)[] planned = [("delay", "whenall"), ("delay", "channel")];
        Assert.True(Parse("whenall:median<=1").Names(planned));
        Assert.True(Parse("*:failed==0").Names(planned));
        Assert.False(Parse("whenal:median<=1").Names(planned));
        Assert.False(Parse("scan/whenall:median<=1").Names(planned));
    }
}
