using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;
using Xunit;

namespace ConcurrencyLab.Tests.Analysis;

/// <summary>The ideal measured for a workload that gives none, against bounds worked out by hand.</summary>
public class MeasuredIdealTests
{
    private sealed class Items : Workload
    {
        public override int Count => 4;

        public override void Run(int index, CancellationToken cancellationToken)
        {
        }

        public override ValueTask RunAsync(int index, CancellationToken cancellationToken) => ValueTask.CompletedTask;
    }

    private static ScenarioRecord Record(IdealBound ideal, params (string Variant, double WallMs, double? LongestItemMs, double? CpuMs)[] variants)
    {
        var scenario = new WorkloadScenario("made-up", _ => new Items()) { IdealOf = ideal.Ms > 0 ? _ => ideal : null };
        Assert.True(RunPlanner.TryCreate(new RunOptions { Variants = [.. variants.Select(v => v.Variant)], Repeat = 1, Warmup = 0 }, [scenario], out var plan, out var errors), string.Join("; ", errors));
        var scenarioPlan = plan.Scenarios[0];
        return new ScenarioRecord(
            scenarioPlan,
            [
                .. scenarioPlan.Variants.Select(variant =>
                {
                    var (_, wall, longest, cpu) = variants.Single(v => v.Variant == variant.Name);
                    var metrics = new MetricValues { [StandardMetrics.WallTime] = wall };
                    if (longest is { } l)
                    {
                        metrics[StandardMetrics.LongestItem] = l;
                    }

                    if (cpu is { } c)
                    {
                        metrics[StandardMetrics.Cpu] = c;
                    }

                    return new VariantTrials(variant, [new TrialResult { Metrics = metrics, ItemsPlanned = 4, ItemsCompleted = 4 }]);
                }),
            ],
            [],
            ideal.Ms > 0 ? ideal : scenarioPlan.Ideal,
            new Dictionary<string, double>());
    }

    [Fact]
    public void WaitBound_TheLongestItemAloneBinds()
    {
        // 20 items waiting 100 ms: sequential saw the longest alone at 100.2 ms, whenall at 101.
        var result = Summarizer.Summarise(Record(new IdealBound(0, "unknown"), ("sequential", 2006, 100.2, 70), ("whenall", 102, 101, 5)), processorCount: 2);

        Assert.True(result.IdealMeasured);
        Assert.Equal(100.2, result.IdealMs);
        Assert.StartsWith("measured: the longest item alone (100 ms, in sequential) or all 2 cores busy with the least CPU any variant used (5.00 ms, whenall: 2.50 ms)", result.IdealReason, StringComparison.Ordinal);
        Assert.EndsWith("the longest item binds", result.IdealReason, StringComparison.Ordinal);
        Assert.Equal(100.2 / 102, result.Variants.Single(v => v.Name == "whenall").Summary!.Efficiency!.Value, 6);
    }

    [Fact]
    public void CpuBound_AllCoresBusyBinds()
    {
        // 200 items of 4 ms of CPU then a 30 ms wait: 800 ms of CPU over 2 cores is 400 ms, longer than any item.
        var result = Summarizer.Summarise(Record(new IdealBound(0, "unknown"), ("sequential", 6900, 34.5, 810), ("whenall", 830, 36, 800)), processorCount: 2);

        Assert.Equal(400, result.IdealMs);
        Assert.EndsWith("the CPU binds", result.IdealReason, StringComparison.Ordinal);
        Assert.Equal(400.0 / 830, result.Variants.Single(v => v.Name == "whenall").Summary!.Efficiency!.Value, 6);
    }

    [Fact]
    public void AGivenIdealWins_AndNothingMeasuredLeavesItUnknown()
    {
        var given = Summarizer.Summarise(Record(new IdealBound(80, "every item waiting at once"), ("whenall", 102, 101, 5)), processorCount: 2);
        Assert.False(given.IdealMeasured);
        Assert.Equal(80, given.IdealMs);

        var nothing = Summarizer.Summarise(Record(new IdealBound(0, "unknown"), ("whenall", 102, null, null)), processorCount: 2);
        Assert.False(nothing.IdealMeasured);
        Assert.Null(nothing.Variants.Single().Summary!.Efficiency);
    }
}
