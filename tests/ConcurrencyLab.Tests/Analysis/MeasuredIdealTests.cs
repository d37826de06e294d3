using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;
using CsCheck;

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
        Assert.StartsWith("measured: the longest item alone (100 ms, in sequential) or all 2 cores busy with the least CPU any trial used (5.00 ms, whenall: 2.50 ms)", result.IdealReason, StringComparison.Ordinal);
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

    [Fact]
    public void TheLongestItemAtItsFastest_ReplacesTheSequentialGap_WhichAFasterFormBeats()
    {
        // Sequential's blocking form took 150 ms an item; whenall's task form ran the whole batch in 55 ms. The gap
        // would have made a bound of 150 ms that whenall beats; each item's least time makes one it cannot.
        var record = Record(new IdealBound(0, "unknown"), ("sequential", 600, 150, 4), ("whenall", 55, null, 3)) with
        {
            LongestItem = new LongestItem(2, 4, 51.5, 2, 2),
        };

        var result = Summarizer.Summarise(record, processorCount: 2);

        Assert.Equal(51.5, result.IdealMs);
        Assert.StartsWith("measured: the longest item at its fastest (item 3 of 4: 51.5 ms, the least of its 2 timings in 2 variants)", result.IdealReason, StringComparison.Ordinal);
        Assert.Equal(51.5 / 55, result.Variants.Single(v => v.Name == "whenall").Summary!.Efficiency!.Value, 6);
        Assert.DoesNotContain(result.Notes, n => n.Contains("not a lower bound", StringComparison.Ordinal));
    }

    [Fact]
    public void AnIdealAVariantBeats_IsSaidToBeInError_AndGivesNoEfficiencyAboveOne()
    {
        var result = Summarizer.Summarise(Record(new IdealBound(120, "every item waiting at once"), ("whenall", 102, null, 5), ("sequential", 2006, 100.2, 70)), processorCount: 2);

        Assert.Null(result.Variants.Single(v => v.Name == "whenall").Summary!.Efficiency);
        Assert.Equal(120 / 2006.0, result.Variants.Single(v => v.Name == "sequential").Summary!.Efficiency!.Value, 6);
        var note = Assert.Single(result.Notes, n => n.Contains("not a lower bound", StringComparison.Ordinal));
        Assert.StartsWith("the ideal is not a lower bound here: whenall's median, 102 ms", note, StringComparison.Ordinal);
        Assert.Contains("by 18.0 ms", note, StringComparison.Ordinal);
    }

    [Fact]
    public void NoVariant_EverRunsBelowTheMeasuredIdeal_WhateverItsItemsAndCpuTook()
    {
        // Two variants, each a few trials of 4 items: every trial's item times drawn at random, its wall time at
        // least its longest item and at least its CPU over 2 cores, as in any real run. The bound is measured
        // from exactly what the runner would fold; no variant may fall below it, nor show an efficiency above 1.
        var trial = Gen.Select(Gen.Double[0.01, 500].Array[4], Gen.Double[0, 100], Gen.Double[0, 2000], Gen.Bool);
        Gen.Select(trial.Array[1, 5], trial.Array[1, 5]).Sample((first, second) =>
        {
            var floor = new ItemFloor();
            var record = Record(new IdealBound(0, "unknown"), ("sequential", 1, null, null), ("whenall", 1, null, null));
            var variants = record.Variants.Zip([first, second], (v, trials) =>
            {
                foreach (var (times, _, _, _) in trials)
                {
                    floor.Add("w", v.Variant.Name, times);
                }

                return v with
                {
                    Trials =
                    [
                        .. trials.Select(t =>
                        {
                            var (times, slack, cpu, inSeries) = t;
                            var wall = Math.Max(inSeries ? times.Sum() : times.Max() + slack, cpu / 2);
                            return new TrialResult { Metrics = new MetricValues { [StandardMetrics.WallTime] = wall, [StandardMetrics.Cpu] = cpu }, ItemsPlanned = 4, ItemsCompleted = 4 };
                        }),
                    ],
                };
            }).ToList();

            var result = Summarizer.Summarise(record with { Variants = variants, LongestItem = floor.Longest() }, processorCount: 2);

            Assert.True(result.IdealMs > 0);
            foreach (var variant in result.Variants)
            {
                Assert.True(variant.Summary!.MedianWallMs >= result.IdealMs, $"{variant.Name}: median {variant.Summary.MedianWallMs} below the ideal {result.IdealMs} ({result.IdealReason})");
                Assert.True(variant.Summary.Efficiency is <= 1, $"{variant.Name}: efficiency {variant.Summary.Efficiency}");
            }
        });
    }
}
