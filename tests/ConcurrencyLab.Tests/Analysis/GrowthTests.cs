using CsCheck;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Reporting;

namespace ConcurrencyLab.Tests.Analysis;

/// <summary>How each line of variants grew with <c>--grow</c>'s sizes: the log-log fit, its interval, and where a line stopped keeping up.</summary>
public sealed class GrowthTests
{
    [Fact]
    public void APowerLawWithoutNoise_IsFittedToItsExponent_ForAnyExponentAndScale()
    {
        Gen.Select(Gen.Double[-1, 2], Gen.Double[0.01, 1000], Gen.Int[2, 6]).Sample((exponent, scale, count) =>
        {
            var sizes = Enumerable.Range(0, count).Select(i => (int)Math.Pow(10, 1 + i)).ToList();
            var points = sizes.SelectMany(s => Enumerable.Repeat((s, scale * Math.Pow(s, exponent)), 3)).ToList();

            var (fitted, low, high) = Growth.Fit(points);

            Assert.Equal(exponent, fitted!.Value, 1e-9);
            Assert.InRange(exponent, low!.Value - 1e-9, high!.Value + 1e-9);
        });
    }

    [Fact]
    public void OneSize_HasNoExponent_AndTwoPoints_NoInterval()
    {
        Assert.Null(Growth.Fit([(100, 5.0), (100, 6.0)]).Exponent);
        var (exponent, low, high) = Growth.Fit([(100, 5.0), (1000, 50.0)]);
        Assert.Equal(1, exponent!.Value, 1e-9);
        Assert.Null(low);
        Assert.Null(high);
    }

    [Fact]
    public void NoisyTrials_WidenTheInterval_AroundTheSlope()
    {
        List<(int, double)> noisy = [(100, 50), (100, 60), (1000, 500), (1000, 650), (10000, 4800), (10000, 6100)];

        var (exponent, low, high) = Growth.Fit(noisy);

        Assert.InRange(exponent!.Value, 0.95, 1.05);
        Assert.True(low < exponent && exponent < high);
        Assert.True(high - low > 0.01);
    }

    [Fact]
    public void ALineFlatWhileTheIdealIs_ThenLinear_StopsKeepingUpWhereItTurns_AndTheFlatOneKeepsUp()
    {
        var scenario = ExporterTests.SampleRun().Scenarios[0] with
        {
            Variants =
            [
                V("channel:items=100", 100, 51), V("channel:items=1000", 1000, 53), V("channel:items=10000", 10000, 58),
                V("parallel-for@4:items=100", 100, 52), V("parallel-for@4:items=1000", 1000, 60), V("parallel-for@4:items=10000", 10000, 600),
            ],
        };

        var growth = Growth.Of(scenario, "items", [100, 1000, 10000], new Dictionary<int, double> { [100] = 50, [1000] = 50, [10000] = 50 });

        Assert.Equal(0, growth.IdealExponent!.Value, 1e-9);
        Assert.Equal(["channel", "parallel-for@4"], growth.Lines.Select(l => l.Line));
        Assert.Null(growth.Lines[0].StopsKeepingUpAt);
        Assert.Equal(10000, growth.Lines[1].StopsKeepingUpAt);
        Assert.Equal([52.0, 60.0, 600.0], growth.Lines[1].MediansMs);
    }

    [Fact]
    public void AnIdealThatGrowsLinearly_IsWhatALineIsHeldTo_NotFlatness()
    {
        // CPU-bound work: the ideal grows with the items, and so may the best line without falling behind it.
        var scenario = ExporterTests.SampleRun().Scenarios[0] with
        {
            Variants = [V("plinq:items=100", 100, 110), V("plinq:items=1000", 1000, 1050), V("plinq:items=10000", 10000, 10400)],
        };

        var growth = Growth.Of(scenario, "items", [100, 1000, 10000], new Dictionary<int, double> { [100] = 100, [1000] = 1000, [10000] = 10000 });

        Assert.Equal(1, growth.IdealExponent!.Value, 1e-9);
        Assert.Null(Assert.Single(growth.Lines).StopsKeepingUpAt);
    }

    [Theory]
    [InlineData("parallel-for@4:items=1000", "parallel-for@4")]
    [InlineData("whenall:items=10:cores=2", "whenall:cores=2")]
    [InlineData("whenall:cores=2", "whenall:cores=2")]
    public void ALinesName_IsTheVariantsWithoutItsSize(string variant, string line) => Assert.Equal(line, Growth.LineOf(variant, "items"));

    private static VariantResult V(string name, int size, double ms) => new()
    {
        Name = name,
        Description = name,
        Status = TrialStatus.Ok,
        Parameters = new Dictionary<string, string> { ["items"] = size.ToString(System.Globalization.CultureInfo.InvariantCulture) },
        Trials = [new TrialResult { Metrics = new Dictionary<string, double> { [StandardMetrics.WallTime.Id] = ms } }],
        Summary = new VariantSummary { Trials = 1, MedianWallMs = ms, CiLowMs = ms, CiHighMs = ms },
    };
}
