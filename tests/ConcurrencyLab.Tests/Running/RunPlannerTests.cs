using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Tests.Running;

public sealed class RunPlannerTests
{
    private static readonly IReadOnlyList<Scenario> Catalog = ScenarioCatalog.BuiltIn;

    [Fact]
    public void Defaults_PlanEveryDelayVariant_WithFiveRepeats()
    {
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["delay"] }, Catalog, out var plan, out var errors), string.Join("; ", errors));
        var delay = Assert.Single(plan.Scenarios);
        Assert.Equal(5, plan.Settings.Repeat);
        Assert.Equal(1, plan.Settings.Warmup);
        Assert.True(plan.Settings.Isolated);
        Assert.Equal("parallel-for@4", delay.Baseline);
        Assert.Equal("100", delay.Parameters.Values["items"]);
        Assert.Equal(plan.TotalTrials, delay.Variants.Count * 6);
        Assert.InRange(delay.Ideal.Ms, 10, 50);
    }

    [Fact]
    public void Quick_ShrinksTheScale()
    {
        Assert.True(RunPlanner.TryCreate(new RunOptions { Quick = true }, Catalog, out var plan, out _));
        Assert.Equal(RunOptions.QuickRepeat, plan.Settings.Repeat);
        Assert.Equal("40", plan.Scenarios[0].Parameters.Values["items"]);
    }

    [Fact]
    public void Variants_AreResolvedToCanonicalNames_AndDegreesComeFromTheName()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["parallel-for", "foreach-async@8", "sequential-sync"], Baseline = "sequential" };
        Assert.True(RunPlanner.TryCreate(options, Catalog, out var plan, out var errors), string.Join("; ", errors));
        Assert.Equal(["parallel-for@default", "foreach-async@8", "sequential"], plan.Scenarios[0].Variants.Select(v => v.Name));
    }

    [Fact]
    public void BadInput_IsCollected_NotStoppedAtTheFirst()
    {
        var options = new RunOptions
        {
            Scenarios = ["delay"],
            Variants = ["whenall-sync", "nosuch@4"],
            Parameters = new Dictionary<string, string> { ["items"] = "-3", ["dop"] = "4,x" },
            Repeat = 0,
        };

        Assert.False(RunPlanner.TryCreate(options, Catalog, out _, out var errors));
        Assert.Contains(errors, e => e.Contains("--repeat", StringComparison.Ordinal));
        Assert.Contains(errors, e => e == "--items must be from 1 to 100000, not -3.");
        Assert.Contains(errors, e => e.Contains("--dop", StringComparison.Ordinal));
        Assert.All(errors, e => Assert.DoesNotContain('\n', e));
    }

    [Fact]
    public void StrategyPairedWithAFormItCannotUse_IsRefusedAtValidation()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall-sync", "semaphore@4-sync"] };
        Assert.False(RunPlanner.TryCreate(options, Catalog, out _, out var errors));
        Assert.Equal(2, errors.Count);
        Assert.All(errors, e => Assert.Contains("cannot call items in the sync form", e, StringComparison.Ordinal));
    }

    [Fact]
    public void CrossParameterCheck_MinAboveMax_IsRefused()
    {
        var options = new RunOptions { Scenarios = ["delay"], Parameters = new Dictionary<string, string> { ["min-delay"] = "60", ["max-delay"] = "50" } };
        Assert.False(RunPlanner.TryCreate(options, Catalog, out _, out var errors));
        Assert.Contains("--min-delay (60) must not exceed --max-delay (50).", errors);
    }

    [Fact]
    public void UnknownScenario_NamesTheKnownOnes()
    {
        Assert.False(RunPlanner.TryCreate(new RunOptions { Scenarios = ["nope"] }, Catalog, out _, out var errors));
        Assert.Equal("unknown scenario 'nope'; known: delay.", Assert.Single(errors));
    }
}
