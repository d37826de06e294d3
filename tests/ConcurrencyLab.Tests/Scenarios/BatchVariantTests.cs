using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Experiments.Delay;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Scenarios;

/// <summary>Batch variants as the delay scenario reads and writes them: the one parser, and names printed from structure.</summary>
public sealed class BatchVariantTests
{
    private static readonly DelayScenario Delay = new();

    private static VariantSpace Space => Delay.Variants(ParameterValues.Create(Delay.Parameters, null, quick: false, out _));

    private static bool TryParse(string text, out BatchVariant variant, out string error)
    {
        variant = null!;
        if (!Space.TryParse(text, out var parsed, out error))
        {
            return false;
        }

        variant = BatchVariant.Of(parsed);
        return true;
    }

    [Theory]
    [InlineData("foreach-async@40", "foreach-async", WorkForm.Tap, 40)]
    [InlineData("parallel-for", "parallel-for", WorkForm.Sync, 0)]
    [InlineData("parallel-for@default-apm", "parallel-for", WorkForm.Apm, 0)]
    [InlineData("sequential-tap", "sequential", WorkForm.Tap, 0)]
    [InlineData("task-run-waitall", "task-run-waitall", WorkForm.Sync, 0)]
    [InlineData("Channel-Workers@4-SYNC", "channel-workers", WorkForm.Sync, 4)]
    public void TryParse_ValidName_GivesStrategyFormAndDegree(string text, string strategy, WorkForm form, int degree)
    {
        Assert.True(TryParse(text, out var variant, out var error), error);
        Assert.Equal(strategy, variant.Strategy.Id);
        Assert.Equal(form, variant.Form);
        Assert.Equal(degree, variant.Degree.Value);
    }

    [Theory]
    [InlineData("parallel-for", "parallel-for@default")]
    [InlineData("sequential-sync", "sequential")]
    [InlineData("dataflow@4-tap", "dataflow@4")]
    [InlineData("whenall-apm", "whenall-apm")]
    public void Name_IsCanonical(string text, string canonical)
    {
        Assert.True(Space.TryParse(text, out var variant, out _));
        Assert.Equal(canonical, variant.Name);
        Assert.True(Space.TryParse(variant.Name, out var again, out _));
        Assert.Equal(variant, again);
    }

    [Theory]
    [InlineData("whenall-sync", "cannot call items in the sync form")]
    [InlineData("foreach-async@4-sync", "cannot call items in the sync form")]
    [InlineData("nosuch", "unknown strategy")]
    [InlineData("threads@4", "takes no degree")]
    [InlineData("plinq@0", "positive whole number")]
    [InlineData("plinq@x", "positive whole number")]
    [InlineData("plinq@513", "plinq accepts a degree of at most 512")]
    [InlineData("foreach-async@4-xyz", "'xyz' is not a form")]
    [InlineData("foreach-async@4:gc=server", "'gc=server' is not a parameter of foreach-async")]
    [InlineData("", "must not be empty")]
    public void TryParse_InvalidName_SaysWhy(string text, string reason)
    {
        Assert.False(TryParse(text, out _, out var error));
        Assert.Contains(reason, error, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error);
    }

    [Fact]
    public void DelayDefaults_IncludeEveryNameTheIssueLists()
    {
        var parameters = ParameterValues.Create(Delay.Parameters, null, quick: false, out _);
        var names = Delay.DefaultVariants(parameters).Select(v => v.Name).ToHashSet();
        string[] expected =
        [
            "sequential", "threads", "threadpool", "task-run-waitall", "whenall", "channel", "channel-workers@4",
            "parallel-for@4", "foreach-async@4", "foreach-async@40", "foreach-async@default", "plinq@4", "dataflow@4", "semaphore@4",
        ];
        Assert.All(expected, name => Assert.Contains(name, names));
        Assert.All(names, name => Assert.True(Space.TryParse(name, out var v, out _) && v.Name == name));
    }

    [Fact]
    public void AVariant_CarriesItsStructure_AndItsNameIsPrintedFromIt()
    {
        var variant = Space.Create("parallel-for", WorkForm.Apm, "4");

        Assert.Equal("parallel-for@4-apm", variant.Name);
        Assert.Equal("parallel-for", variant.Family);
        Assert.Equal(WorkForm.Apm, variant.Form);
        Assert.Equal(4, variant.WholeNumber(BatchVariant.DegreeName));
        Assert.EndsWith("(N = 4); Begin/End calls", variant.Description, StringComparison.Ordinal);
        Assert.Equal(new BatchVariant(StrategyCatalog.Find("parallel-for")!, WorkForm.Apm, Degree.Of(4)), BatchVariant.Of(variant));
    }

    [Fact]
    public void Degree_Parse_AcceptsDefaultAndPositive()
    {
        Assert.True(Degree.TryParse("default", out var d) && d.IsDefault);
        Assert.True(Degree.TryParse("12", out d) && d.Value == 12);
        Assert.False(Degree.TryParse("-1", out _));
        Assert.Equal(7, Degree.Default.Or(7));
    }
}
