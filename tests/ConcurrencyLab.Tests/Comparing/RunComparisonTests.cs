using ConcurrencyLab.Comparing;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Comparing;

public sealed class RunComparisonTests
{
    /// <summary>A run of one scenario whose variants had the given ok trials' wall times.</summary>
    internal static RunResult Run(string items, params (string Variant, double[] Walls)[] variants) => new()
    {
        StartedAt = "2026-11-23T00:00:00.0000000+00:00",
        Environment = new EnvironmentInfo { Os = "TestOS", Runtime = ".NET 10", ProcessorCount = 2, MachineName = "lab", GcMode = "workstation", Architecture = "x64" },
        Settings = new RunSettings { Repeat = 5, Seed = 42 },
        Scenarios =
        [
            new ScenarioResult
            {
                Name = "delay",
                Parameters = new Dictionary<string, string> { ["items"] = items },
                IdealMs = 50,
                IdealReason = "test",
                Baseline = variants[0].Variant,
                Variants = [.. variants.Select(v => new VariantResult
                {
                    Name = v.Variant,
                    Description = v.Variant,
                    Status = TrialStatus.Ok,
                    Trials = [.. v.Walls.Select((w, i) => new TrialResult { Metrics = Measured.Metrics(w), Repeat = i })],
                })],
            },
        ],
    };

    private static readonly double[] Fast = [100, 101, 102, 103, 104];
    private static readonly double[] Slow = [150, 151, 152, 153, 154];

    [Theory]
    [InlineData("0.80", "0.8", true)]
    [InlineData("4,40", "4, 40", true)]
    [InlineData("precise", "precise", true)]
    [InlineData("0.8", "0.81", false)]
    [InlineData("4,40", "4,40,64", false)]
    [InlineData("cold", "warm", false)]
    [InlineData("1", null, false)]
    public void ParameterValues_AreComparedByWhatTheyMean_NotHowTheyWereWritten(string a, string? b, bool same)
    {
        Assert.Equal(same, RunComparison.SameSetting(a, b));
        // Only a real change of a parameter earns the note that the rows compare different workloads.
        Assert.Equal(same, RunComparison.Of(Run(a, ("a", Fast)), Run(b ?? "(none)", ("a", Fast))).Notes.Count == 0);
    }

    [Fact]
    public void AKnownDifference_IsSignificant_InTheRightDirection()
    {
        var comparison = RunComparison.Of(Run("100", ("a", Fast), ("b", Slow)), Run("100", ("a", Slow), ("b", Fast)));

        var a = comparison.Rows.Single(r => r.Variant == "a");
        var b = comparison.Rows.Single(r => r.Variant == "b");
        Assert.Equal(ComparisonVerdict.Slower, a.Verdict);
        Assert.Equal(152.0 / 102, a.Ratio!.Value, 6);
        Assert.True(a.PValue < 0.05, $"p = {a.PValue}");
        Assert.Equal(ComparisonVerdict.Faster, b.Verdict);
        Assert.True(comparison.AnySlower);
        Assert.Empty(comparison.Notes);
    }

    [Fact]
    public void NoDifference_IsNotSignificant_AndNothingIsSlower()
    {
        var comparison = RunComparison.Of(Run("100", ("a", Fast)), Run("100", ("a", [104, 100, 103, 101, 102])));

        var row = Assert.Single(comparison.Rows);
        Assert.Equal(ComparisonVerdict.Same, row.Verdict);
        Assert.Equal(1, row.Ratio);
        Assert.True(row.PValue > 0.5, $"p = {row.PValue}");
        Assert.False(comparison.AnySlower);
    }

    [Fact]
    public void OverlappingNoisyTrials_AreNotCalledSlower_OnTheirMedianAlone()
    {
        // Medians 10% apart, but the trials interleave: a fixed threshold would call this slower.
        var comparison = RunComparison.Of(Run("100", ("a", [100, 130, 95, 140, 105])), Run("100", ("a", [115, 98, 145, 110, 135])));

        Assert.Equal(ComparisonVerdict.Same, Assert.Single(comparison.Rows).Verdict);
    }

    [Fact]
    public void ThreeTrialsAgainstThree_AreTooFewToTell_HoweverFarApart()
    {
        var comparison = RunComparison.Of(Run("100", ("a", [100, 101, 102])), Run("100", ("a", [500, 501, 502])));

        var row = Assert.Single(comparison.Rows);
        Assert.Equal(ComparisonVerdict.TooFewTrials, row.Verdict);
        Assert.Null(row.PValue);
        Assert.False(comparison.AnySlower);
    }

    [Fact]
    public void VariantsInOneRunOnly_AreListed_AndOtherParametersAreNoted()
    {
        var comparison = RunComparison.Of(Run("100", ("a", Fast), ("gone", Fast)), Run("40", ("a", Fast), ("new", Fast)));

        Assert.Equal(ComparisonVerdict.OnlyInOld, comparison.Rows.Single(r => r.Variant == "gone").Verdict);
        Assert.Equal(ComparisonVerdict.OnlyInNew, comparison.Rows.Single(r => r.Variant == "new").Verdict);
        Assert.Contains(comparison.Notes, n => n.Contains("--items 100 -> 40", StringComparison.Ordinal));
    }

    [Fact]
    public void ManyVariantsTested_SaysHowManyWouldDifferByChance()
    {
        var variants = Enumerable.Range(0, 10).Select(i => ($"v{i}", Fast)).ToArray();

        var comparison = RunComparison.Of(Run("100", variants), Run("100", variants));

        Assert.Contains(comparison.Notes, n => n.StartsWith("10 variants were tested at 5%: about 0.5 of them", StringComparison.Ordinal));
    }

    [Fact]
    public void TheDirection_ComesFromTheTrials_EvenWhenTheMediansTie()
    {
        // Both medians are 100, but below it the new trials sit just under 100 where the old sit near 1, and
        // above it at 200 where the old sit near 101: the new run is slower, though the ratio is 1.
        var comparison = RunComparison.Of(
            Run("100", ("a", [1, 2, 3, 4, 5, 6, 7, 100, 101, 102, 103, 104, 105, 106, 107])),
            Run("100", ("a", [93, 94, 95, 96, 97, 98, 99, 100, 200, 201, 202, 203, 204, 205, 206])));

        var row = Assert.Single(comparison.Rows);
        Assert.Equal(1, row.Ratio);
        Assert.True(row.PValue < 0.05, $"p = {row.PValue}");
        Assert.Equal(ComparisonVerdict.Slower, row.Verdict);
    }

    [Fact]
    public void AVariantWithNoOkTrialInEitherRun_SaysSo()
    {
        var comparison = RunComparison.Of(Run("100", ("a", [])), Run("100", ("a", [])));

        Assert.Equal(ComparisonVerdict.NoOkTrials, Assert.Single(comparison.Rows).Verdict);
    }

    [Fact]
    public void Markdown_EscapesPipesInNames()
    {
        var comparison = RunComparison.Of(Run("100", ("a|b", Fast)), Run("100", ("a|b", Fast)));
        using var writer = new StringWriter();

        ComparisonText.WriteMarkdown(comparison, writer);

        Assert.Contains("`a\\|b`", writer.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(3, 3, 0.1)]
    [InlineData(4, 4, 2.0 / 70)]
    [InlineData(3, 5, 2.0 / 56)]
    [InlineData(1, 9, 0.2)]
    public void SmallestPValue_IsTwoOverTheWaysToSplitTheRanks(int n, int m, double expected)
    {
        Assert.Equal(expected, RunComparison.SmallestPValue(n, m), 9);
    }

    [Fact]
    public void Markdown_Snapshot()
    {
        var comparison = RunComparison.Of(Run("100", ("a", Fast), ("b", Fast), ("gone", Fast)), Run("100", ("a", Slow), ("b", [104, 100, 103, 101, 102])));
        using var writer = new StringWriter { NewLine = "\n" };

        ComparisonText.WriteMarkdown(comparison, writer);

        Assert.Equal(
            """
            | Scenario | Variant | Old median (ms) | New median (ms) | Ratio | p | Trials (old, new) | Verdict |
            | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |
            | delay | `a` | 102 | 152 | 1.49x | 0.008 | 5, 5 | **slower** |
            | delay | `b` | 102 | 102 | 1.00x | 1.000 | 5, 5 | no significant difference |
            | delay | `gone` | 102 | - | - | - | 5, 0 | only in the old run |

            Ratio is the new median wall time over the old. A difference is significant when a two-sided Mann-Whitney U test on the ok trials' wall times gives p < 0.05; with fewer than 4 and 4 trials (or 3 and 5) no outcome can be.

            """.Replace("\r", string.Empty, StringComparison.Ordinal),
            writer.ToString());
    }
}
