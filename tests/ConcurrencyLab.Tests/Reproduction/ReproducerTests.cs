using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using static ConcurrencyLab.Tests.Reproduction.Made;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Reproduction;

/// <summary>How a claim's run becomes a run of the lab, and how as-published passes become one result.</summary>
public class ReproducerTests
{
    private static Scenario Named(string name) => ScenarioCatalog.BuiltIn.Single(s => s.Name == name);

    [Fact]
    public void AnIsolatedRun_NamesItsVariantsAtTheScaleAsked_SweepsItsCores_AndGivesLongTrialsTheirTime()
    {
        var fanout = Named("fanout");
        var oneRequest = Reproducer.OptionsOf(fanout, PostClaims.Of(fanout)!.Runs.Single(r => r.Key == "fanout-one-request"), quick: true);
        var full = Reproducer.OptionsOf(fanout, PostClaims.Of(fanout)!.Runs.Single(r => r.Key == "fanout"), quick: false);

        // The published delays at every scale: the quick scale's 0.1 would test no claim.
        Assert.Equal(["sequential@1", "waitall@1"], oneRequest.Variants);
        Assert.Equal("1", oneRequest.Parameters["time-scale"]);
        Assert.Equal(RunOptions.DefaultTrialTimeout, oneRequest.TrialTimeout);
        Assert.Contains("whenall-async@100", full.Variants);
        Assert.Equal(TimeSpan.FromSeconds(900), full.TrialTimeout);
        Assert.True(RunPlanner.TryCreate(oneRequest, ScenarioCatalog.BuiltIn, out _, out var errors), string.Join("; ", errors));
        Assert.True(RunPlanner.TryCreate(full, ScenarioCatalog.BuiltIn, out _, out errors), string.Join("; ", errors));

        var scan = Named("scan");
        var isolated = Reproducer.OptionsOf(scan, PostClaims.Of(scan)!.Runs.Single(r => r.Key == "scan"), quick: false);
        Assert.Equal([2, 8], isolated.RuntimeSweeps["cores"]);
        Assert.Equal(0, isolated.Warmup);
        Assert.True(RunPlanner.TryCreate(isolated, ScenarioCatalog.BuiltIn, out var plan, out errors), string.Join("; ", errors));
        Assert.Contains(plan.Scenarios[0].Variants, v => v.Name == "task-run-apm:cores=8");
    }

    [Fact]
    public void ARunIsMadeOnlyAtTheScalesItsClaimsCanBeTestedAt()
    {
        var runs = PostClaims.Of(Named("scan"))!.Runs;

        Assert.Equal(["scan-sequential"], runs.Where(r => r.MadeAt(quick: true)).Select(r => r.Key));
        Assert.Equal(["scan", "scan-as-published"], runs.Where(r => r.MadeAt(quick: false)).Select(r => r.Key));
        Assert.All(PostClaims.Of(Named("delay"))!.Runs, r => Assert.True(r.MadeAt(quick: true) && r.MadeAt(quick: false)));
    }

    [Fact]
    public void EveryPostsRuns_PlanAtTheScalesTheyAreMadeAt()
    {
        foreach (var scenario in Reproducer.Posts(ScenarioCatalog.BuiltIn))
        {
            foreach (var run in PostClaims.Of(scenario)!.Runs.Where(r => !r.AsPublished))
            {
                foreach (var quick in new[] { true, false }.Where(run.MadeAt))
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

        var merged = PublishedOrderPasses.Merge(new ConcurrencyLab.Experiments.Delay.DelayScenario(), template, ["channel", "parallel-for@4"], [(2, Passes(50)), (8, Passes(70))]);

        Assert.Equal(["channel:cores=2", "parallel-for@4:cores=2", "channel:cores=8", "parallel-for@4:cores=8"], merged.Variants.Select(v => v.Name));
        var channel8 = merged.Variants.Single(v => v.Name == "channel:cores=8");
        Assert.Equal(6, channel8.Trials.Count);
        Assert.Equal([0, 1, 2, 3, 4, 5], channel8.Trials.Select(t => t.Repeat));
        Assert.Equal("8", channel8.Parameters["cores"]);
        Assert.Equal(6, channel8.Summary!.Trials);
        Assert.InRange(channel8.Summary.MedianWallMs, 68, 72);

        // Answered from the merged variants, not from the template's first pass: the names are the merged ones.
        var stale = template with { Recommendations = [new ConcurrencyLab.Results.Recommendation { Fastest = "channel", FastestMs = 50, Use = "channel", Because = ConcurrencyLab.Results.UseBecause.Fastest }] };
        var answered = PublishedOrderPasses.Merge(new ConcurrencyLab.Experiments.Delay.DelayScenario(), stale, ["channel", "parallel-for@4"], [(2, Passes(50)), (8, Passes(70))]);
        Assert.Equal("channel:cores=2", Assert.Single(answered.Recommendations!).Use);
        Assert.Contains(answered.Recommendations![0].Avoid, a => a.Variant == "parallel-for@4:cores=8");

        // The same evidence a sweep gives: a rule judges it at each count.
        var judged = Swept(new ConcurrencyLab.Experiments.Delay.DelayScenario(), merged, [2, 8]).At(8).Wall("channel");
        Assert.InRange(judged.Value, 68, 72);
    }
}
