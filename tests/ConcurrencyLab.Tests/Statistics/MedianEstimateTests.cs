using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Statistics;

namespace ConcurrencyLab.Tests.Statistics;

public sealed class MedianEstimateTests
{
    [Fact]
    public void Median_OddAndEvenCounts()
    {
        Assert.Equal(12, MedianEstimate.Of([50, 10, 13, 11, 12]).Median);
        Assert.Equal(11.5, MedianEstimate.Of([13, 10, 11, 12]).Median);
        Assert.Equal(7, MedianEstimate.Of([7]).Median);
    }

    [Fact]
    public void Interval_MatchesHandComputedHarrellDavisMaritzJarrett()
    {
        // Computed by hand (numeric Beta(5,5) integration): the Harrell-Davis weights of n=9 at p=0.5 are
        // {0.0014, 0.0289, 0.1145, 0.2207, 0.2690, 0.2207, 0.1145, 0.0289, 0.0014}; the HD median of {20..28}
        // is 24 by symmetry; SE = sqrt(sum w x^2 - 24^2) = 1.38712; t(0.975, df 8) = 2.30600; 24 -/+ 3.19871.
        var estimate = MedianEstimate.Of([28, 20, 21, 22, 23, 24, 25, 26, 27]);

        Assert.Equal(24, estimate.Median);
        Assert.Equal(20.8013, estimate.Low, 3);
        Assert.Equal(27.1987, estimate.High, 3);
    }

    [Fact]
    public void Interval_IsClampedToTheSampleRange()
    {
        // The unclamped interval of this skewed sample reaches below zero, which no wall time can.
        var estimate = MedianEstimate.Of([10, 11, 12, 13, 50]);

        Assert.Equal(10, estimate.Low);
        Assert.Equal(38.92, estimate.High, 1);
    }

    [Fact]
    public void Interval_OfIdenticalValues_IsThatValue()
    {
        var estimate = MedianEstimate.Of([5, 5, 5]);
        Assert.Equal((5.0, 5.0, 5.0), (estimate.Median, estimate.Low, estimate.High));
    }

    [Fact]
    public void Summarise_ComputesEfficiencyRatioAndSpread_FromOkTrialsOnly()
    {
        TrialResult[] trials =
        [
            Trial(100, threads: 10), Trial(120, threads: 14), Trial(110, threads: 12), Trial(105, threads: 11), Trial(130, threads: 20),
            Trial(1, threads: 99) with { Status = TrialStatus.Failed },
        ];

        var summary = Summarizer.Summarise(trials, idealMs: 55, baselineMedianMs: 220, scenarioMetrics: [])!;

        Assert.Equal(5, summary.Trials);
        Assert.Equal(110, summary.MedianWallMs);
        Assert.Equal(100, summary.MinWallMs);
        Assert.Equal(130, summary.MaxWallMs);
        Assert.Equal(0.5, summary.Efficiency!.Value, 10);
        Assert.Equal(0.5, summary.RatioToBaseline!.Value, 10);
        Assert.Equal(1.3, summary.Spread, 10);
        Assert.Equal(12, summary.Median(StandardMetrics.PeakThreads));
        Assert.InRange(summary.CiLowMs, 100, 110);
        Assert.InRange(summary.CiHighMs, 110, 130);
    }

    [Fact]
    public void Summarise_UnknownIdealOrBaseline_LeavesThemOut()
    {
        var summary = Summarizer.Summarise([Trial(10, 1)], idealMs: 0, baselineMedianMs: null, scenarioMetrics: [])!;
        Assert.Null(summary.Efficiency);
        Assert.Null(summary.RatioToBaseline);
    }

    [Fact]
    public void Summarise_NoOkTrial_GivesNull_AndStatusIsTheWorst()
    {
        TrialResult[] trials = [Trial(1, 1) with { Status = TrialStatus.Timeout }, Trial(1, 1) with { Status = TrialStatus.Failed }];
        Assert.Null(Summarizer.Summarise(trials, 1, 1, []));
        Assert.Equal(TrialStatus.Failed, Summarizer.VariantStatus(trials));
        Assert.Equal(TrialStatus.Timeout, Summarizer.VariantStatus([Trial(1, 1), Trial(1, 1) with { Status = TrialStatus.Timeout }]));
        Assert.Equal(TrialStatus.Ok, Summarizer.VariantStatus([Trial(1, 1)]));
    }

    private static TrialResult Trial(double wallMs, int threads) => new() { Metrics = Measured.Metrics(wallMs, (StandardMetrics.PeakThreads, threads)) };
}
