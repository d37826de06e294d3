using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Scenarios.Delay;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Scenarios;

public sealed class BatchVariantTests
{
    [Theory]
    [InlineData("foreach-async@40", "foreach-async", WorkForm.Tap, 40)]
    [InlineData("parallel-for", "parallel-for", WorkForm.Sync, 0)]
    [InlineData("parallel-for@default-apm", "parallel-for", WorkForm.Apm, 0)]
    [InlineData("sequential-tap", "sequential", WorkForm.Tap, 0)]
    [InlineData("task-run-waitall", "task-run-waitall", WorkForm.Sync, 0)]
    [InlineData("Channel-Workers@4-SYNC", "channel-workers", WorkForm.Sync, 4)]
    public void TryParse_ValidName_GivesStrategyFormAndDegree(string text, string strategy, WorkForm form, int degree)
    {
        Assert.True(BatchVariant.TryParse(text, out var variant, out var error), error);
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
        Assert.True(BatchVariant.TryParse(text, out var variant, out _));
        Assert.Equal(canonical, variant.Name);
        Assert.True(BatchVariant.TryParse(variant.Name, out var again, out _));
        Assert.Equal(variant, again);
    }

    [Theory]
    [InlineData("whenall-sync", "cannot call items in the sync form")]
    [InlineData("foreach-async@4-sync", "cannot call items in the sync form")]
    [InlineData("nosuch", "unknown strategy")]
    [InlineData("threads@4", "takes no degree")]
    [InlineData("plinq@0", "positive whole number")]
    [InlineData("plinq@x", "positive whole number")]
    public void TryParse_InvalidName_SaysWhy(string text, string reason)
    {
        Assert.False(BatchVariant.TryParse(text, out _, out var error));
        Assert.Contains(reason, error, StringComparison.Ordinal);
    }

    [Fact]
    public void DelayDefaults_IncludeEveryNameTheIssueLists()
    {
        var scenario = new DelayScenario();
        var parameters = ParameterValues.Create(scenario.Parameters, null, quick: false, out _);
        var names = scenario.DefaultVariants(parameters).Select(v => v.Name).ToHashSet();
        string[] expected =
        [
            "sequential", "threads", "threadpool", "task-run-waitall", "whenall", "channel", "channel-workers@4",
            "parallel-for@4", "foreach-async@4", "foreach-async@40", "foreach-async@default", "plinq@4", "dataflow@4", "semaphore@4",
        ];
        Assert.All(expected, name => Assert.Contains(name, names));
        Assert.All(names, name => Assert.True(BatchVariant.TryParse(name, out var v, out _) && v.Name == name));
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
