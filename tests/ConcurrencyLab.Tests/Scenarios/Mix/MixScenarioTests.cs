using ConcurrencyLab.Running;
using ConcurrencyLab.Experiments.Mix;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Scenarios.Mix;

/// <summary>The described workload: its waits, its ideal against bounds worked out by hand, and how it is run.</summary>
public class MixScenarioTests
{
    [Theory]
    [InlineData("30", 30, 30, null, null)]
    [InlineData(" 10-50 ", 10, 50, null, null)]
    [InlineData("0.5", 0.5, 0.5, null, null)]
    [InlineData("p50=20,p99=200", 0, 2000, 20.0, 200.0)]
    [InlineData("1e-3", 0.001, 0.001, null, null)]
    [InlineData("1e-3-2E1", 0.001, 20, null, null)]
    public void WaitShapes_ReadAsWritten(string text, double low, double high, double? p50, double? p99)
    {
        var (shape, problem) = WaitShape.Parse(text);
        Assert.Null(problem);
        Assert.Equal(new WaitShape(low, high, p50, p99), shape);
    }

    [Theory]
    [InlineData("")]
    [InlineData("fast")]
    [InlineData("50-10")]
    [InlineData("-5")]
    [InlineData("p50=200,p99=20")]
    [InlineData("p50=20")]
    [InlineData("700000")]
    public void BadWaitShapes_AreOneLine(string text)
    {
        var (_, problem) = WaitShape.Parse(text);
        Assert.NotNull(problem);
        Assert.DoesNotContain('\n', problem);
    }

    [Fact]
    public void Waits_AreSeeded_AndFollowTheirShape()
    {
        var uniform = WaitShape.Parse("10-50").Value;
        Assert.Equal(uniform.Draw(100, 42), uniform.Draw(100, 42));
        Assert.NotEqual(uniform.Draw(100, 42), uniform.Draw(100, 43));
        Assert.All(uniform.Draw(1000, 42), w => Assert.InRange(w, 10, 50));

        // A long tail from its median and 99th percentile: over many draws, both land near what was asked.
        var tail = WaitShape.Parse("p50=20,p99=200").Value.Draw(20_000, 42).Order().ToArray();
        Assert.InRange(tail[10_000], 18, 22);
        Assert.InRange(tail[19_800], 170, 235);
    }

    private static MixWorkload Workload(int items, double cpuMs, string wait, CpuPlace place = CpuPlace.Before, double lockMs = 0, int downstream = 0) =>
        new(new MixShape(items, cpuMs, WaitShape.Parse(wait).Value, place, lockMs, downstream), seed: 42, roundsPerMs: 1000);

    [Fact]
    public void TheIdeal_NamesTheLimitThatBinds_AsWorkedOutByHand()
    {
        // CPU-bound: 40 items of 10 ms over 2 cores, no wait: 200 ms.
        var cpu = MixScenario.Ideal(Workload(40, 10, "0"), cores: 2);
        Assert.Equal(200, cpu.Ms);
        Assert.StartsWith("CPU over the cores and a wait", cpu.Reason, StringComparison.Ordinal);

        // Wait-bound: 200 items that wait 100 ms and spend nothing: the longest item, 100 ms.
        var wait = MixScenario.Ideal(Workload(200, 0, "100"), cores: 2);
        Assert.Equal(100, wait.Ms);
        Assert.StartsWith("the longest item", wait.Reason, StringComparison.Ordinal);

        // CPU before the wait: 200 x 4 ms over 2 cores is 400 ms, and the item whose CPU ends last still waits 30.
        Assert.Equal(430, MixScenario.Ideal(Workload(200, 4, "30"), cores: 2).Ms);

        // Split: half the CPU before (200 ms), a wait, then the last item's other half (2 ms).
        Assert.Equal(232, MixScenario.Ideal(Workload(200, 4, "30", CpuPlace.Split), cores: 2).Ms);

        // A lock held 5 ms by each of 100 items in turn, then a 10 ms wait: 510 ms, above CPU over the cores (260).
        var locked = MixScenario.Ideal(Workload(100, 0, "10", lockMs: 5), cores: 2);
        Assert.Equal(510, locked.Ms);
        Assert.StartsWith("the lock held in series", locked.Reason, StringComparison.Ordinal);

        // 100 waits of 50 ms through 4 slots: 1250 ms.
        var downstream = MixScenario.Ideal(Workload(100, 0, "50", downstream: 4), cores: 2);
        Assert.Equal(1250, downstream.Ms);
        Assert.StartsWith("the waits through 4 downstream slots", downstream.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void ItRunsEveryStrategyInEveryForm_AndOnlyWhenNamed()
    {
        var mix = ScenarioCatalog.Mix;
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["mix"], Quick = true }, ScenarioCatalog.Tool, out var plan, out var errors), string.Join("; ", errors));
        var variants = plan.Scenarios.Single().Variants;
        Assert.Contains(variants, v => v.Name == "whenall");
        Assert.Contains(variants, v => v.Name == "task-run-waitall");
        Assert.Contains(variants, v => v.Name == "task-run-waitall-tap");
        Assert.Contains(variants, v => v.Name == "parallel-for@64");
        Assert.Equal(mix.AllVariants(plan.Scenarios[0].Parameters).Count, variants.Count);

        Assert.True(RunPlanner.TryCreate(new RunOptions { Quick = true }, ScenarioCatalog.Tool, out var everything, out _));
        Assert.DoesNotContain(everything.Scenarios, s => s.Scenario.Name == "mix");
    }
}
