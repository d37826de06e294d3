using CsCheck;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Strategies;
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

        var growth = Growth.Of(scenario, Space, "items", [100, 1000, 10000], new Dictionary<int, double> { [100] = 50, [1000] = 50, [10000] = 50 });

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

        var growth = Growth.Of(scenario, Space, "items", [100, 1000, 10000], new Dictionary<int, double> { [100] = 100, [1000] = 1000, [10000] = 10000 });

        Assert.Equal(1, growth.IdealExponent!.Value, 1e-9);
        Assert.Null(Assert.Single(growth.Lines).StopsKeepingUpAt);
    }

    [Theory]
    [InlineData("parallel-for@4:items=1000:cores=2", "parallel-for@4:cores=2")]
    [InlineData("whenall:items=10:cores=2", "whenall:cores=2")]
    [InlineData("parallel-for@default-apm:items=10:cores=8", "parallel-for@default-apm:cores=8")]
    public void ALinesName_IsTheVariantsWithoutItsSize(string variant, string line)
    {
        Assert.True(SweptSpace.TryParse(variant, out var parsed, out var problem), problem);
        Assert.Equal(line, SweptSpace.NameOf(Growth.LineOf(parsed.Key, "items")));
    }

    [Fact]
    public void ASearchedDegree_IsOneLineAcrossSizes_NamedAuto_AndTheBaselinesLineIsRecorded()
    {
        // The search found 8 at 100 items and 32 at 1000: one strategy, one line, whatever degree each size found.
        var scenario = ExporterTests.SampleRun().Scenarios[0] with
        {
            Baseline = "parallel-for@4:items=100",
            DegreeSearches =
            [
                new DegreeSearchResult { Family = "foreach-async", Variant = "foreach-async@8:items=100", Chosen = 8 },
                new DegreeSearchResult { Family = "foreach-async", Variant = "foreach-async@32:items=1000", Chosen = 32 },
            ],
            Variants =
            [
                V("foreach-async@8:items=100", 100, 51), V("foreach-async@32:items=1000", 1000, 53),
                V("parallel-for@4:items=100", 100, 52), V("parallel-for@4:items=1000", 1000, 60),
            ],
        };

        var growth = Growth.Of(scenario, Space, "items", [100, 1000], new Dictionary<int, double> { [100] = 50, [1000] = 50 });

        Assert.Equal(["foreach-async@auto", "parallel-for@4"], growth.Lines.Select(l => l.Line).Order(StringComparer.Ordinal));
        Assert.Equal([51.0, 53.0], growth.Lines.Single(l => l.Line == "foreach-async@auto").MediansMs);
        Assert.Equal("parallel-for@4", growth.BaselineLine);
    }

    // The variants of a batch scenario whose items are swept; and the same at the processor counts 2 and 8 too.
    private static readonly VariantSpace Space = new VariantSpace("batch", "strategy", [.. StrategyCatalog.All.Select(BatchVariant.Family)])
        .WithSweeps([(new VariantParameter("items", "how many items", 1, 100_000) { ChangesWork = true }, [100, 1000, 10000])]);

    private static readonly VariantSpace SweptSpace = Space.WithSweeps([(RuntimeSettings.Cores.Parameter, [2, 8])]);

    // The variant of that name, whose size must be the one given: the name says it, the test states it.
    private static VariantResult V(string name, int size, double ms) => Space.TryParse(name, out var variant, out var problem) && variant.WholeNumber("items") == size ? new()
    {
        Name = variant.Name,
        Family = variant.Family,
        Form = variant.Form,
        Description = name,
        Status = TrialStatus.Ok,
        Parameters = variant.Parameters,
        Trials = [new TrialResult { Metrics = new Dictionary<string, double> { [StandardMetrics.WallTime.Id] = ms } }],
        Summary = new VariantSummary { Trials = 1, MedianWallMs = ms, CiLowMs = ms, CiHighMs = ms },
    } : throw new ArgumentException(problem.Length > 0 ? problem : $"{name} is not at items={size}");
}
