using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using Xunit;
using static ConcurrencyLab.Tests.Reproduction.Made;

namespace ConcurrencyLab.Tests.Reproduction;

/// <summary>How a claim's run becomes a run of the lab, and how as-published passes become one result.</summary>
public class ReproducerTests
{
    private static Scenario Named(string name) => ScenarioCatalog.BuiltIn.Single(s => s.Name == name);

    [Fact]
    public void AnIsolatedRun_NamesItsVariantsAtTheScaleAsked_SweepsItsCores_AndGivesLongTrialsTheirTime()
    {
        var fanout = Named("fanout");
        var run = fanout.Claims!.Runs.Single();

        var quick = Reproducer.OptionsOf(fanout, run, quick: true);
        var full = Reproducer.OptionsOf(fanout, run, quick: false);

        Assert.Equal(["waitall@15", "whenall-blocking@15", "whenall-async@15"], quick.Variants);
        Assert.Equal(RunOptions.DefaultTrialTimeout, quick.TrialTimeout);
        Assert.Contains("whenall-async@1000", full.Variants);
        Assert.Equal(TimeSpan.FromSeconds(900), full.TrialTimeout);
        Assert.True(RunPlanner.TryCreate(quick, ScenarioCatalog.BuiltIn, out _, out var errors), string.Join("; ", errors));
        Assert.True(RunPlanner.TryCreate(full, ScenarioCatalog.BuiltIn, out _, out errors), string.Join("; ", errors));

        var scan = Named("scan");
        var isolated = Reproducer.OptionsOf(scan, scan.Claims!.Runs.First(r => !r.AsPublished), quick: true);
        Assert.Equal([2, 8], isolated.RuntimeSweeps["cores"]);
        Assert.Equal("32", isolated.Parameters["hosts"]);
        Assert.True(RunPlanner.TryCreate(isolated, ScenarioCatalog.BuiltIn, out var plan, out errors), string.Join("; ", errors));
        Assert.Contains(plan.Scenarios[0].Variants, v => v.Name == "task-run-apm:cores=8");
    }

    [Fact]
    public void EveryPostsRuns_PlanAtBothScales()
    {
        foreach (var scenario in Reproducer.Posts(ScenarioCatalog.BuiltIn))
        {
            foreach (var run in scenario.Claims!.Runs.Where(r => !r.AsPublished))
            {
                foreach (var quick in new[] { true, false })
                {
                    Assert.True(RunPlanner.TryCreate(Reproducer.OptionsOf(scenario, run, quick), ScenarioCatalog.BuiltIn, out _, out var errors), $"{run.Key}: {string.Join("; ", errors)}");
                }
            }
        }
    }

    [Fact]
    public void PassesAtEachCoreCount_BecomeOneVariantPerCount_HoldingEveryPassesTrials()
    {
        var template = Result(None, V("channel", 50), V("parallel-for@4", 800));
        List<ConcurrencyLab.Results.ScenarioResult> Passes(double channel) => [Result(None, V("channel", channel), V("parallel-for@4", 800)), Result(None, V("channel", channel + 1), V("parallel-for@4", 801))];

        var merged = PublishedOrderPasses.Merge(template, ["channel", "parallel-for@4"], [(2, Passes(50)), (8, Passes(70))]);

        Assert.Equal(["channel:cores=2", "parallel-for@4:cores=2", "channel:cores=8", "parallel-for@4:cores=8"], merged.Variants.Select(v => v.Name));
        var channel8 = merged.Variants.Single(v => v.Name == "channel:cores=8");
        Assert.Equal(6, channel8.Trials.Count);
        Assert.Equal([0, 1, 2, 3, 4, 5], channel8.Trials.Select(t => t.Repeat));
        Assert.Equal("8", channel8.Parameters["cores"]);
        Assert.Equal(6, channel8.Summary!.Trials);
        Assert.InRange(channel8.Summary.MedianWallMs, 68, 72);

        // The same evidence a sweep gives: a rule judges it at each count.
        var judged = new ClaimEvidence(merged, [2, 8]).At(8).Wall("channel");
        Assert.InRange(judged.Median, 68, 72);
    }
}
