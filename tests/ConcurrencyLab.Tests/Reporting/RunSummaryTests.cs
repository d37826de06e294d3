using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>The summary that ends a run of several scenarios, and the published claims' verdicts in every report.</summary>
public sealed class RunSummaryTests
{
    private static RunResult TwoScenarios()
    {
        var run = ExporterTests.SampleRun();
        var judged = run.Scenarios[0] with
        {
            Claims =
            [
                new ClaimResult { Id = "delay-channel-12x", Claim = "A Channel is about 12x faster", Published = "68 ms against 799 ms (8 cores)", Verdict = Verdict.Holds, Figure = "21x (20-21)", Reason = "every item waits at once" },
                new ClaimResult { Id = "delay-threads-19", Claim = "Threads never above 19", Published = "19 at the end (8 cores)", Verdict = Verdict.DoesNotHold, Figure = "at most 21 threads", Reason = "channel rose to 21" },
                new ClaimResult { Id = "delay-default-degree", Claim = "The default degree is the worst", Published = "384 ms", Verdict = Verdict.CouldNotJudge, Figure = "-", Reason = "foreach-async@default had no ok trial" },
                new ClaimResult { Id = "delay-channel-position", Claim = "The Channel's threads depend on its position", Published = "no figure", Verdict = Verdict.NotTested, Reason = "the run did not meet its conditions: a run with the Channel last" },
            ],
        };
        return run with { Scenarios = [judged, run.Scenarios[0] with { Name = "other" }] };
    }

    [Fact]
    public void EachScenario_HasItsFastest_TheOneToUse_ItsEfficiency_AndHowTheClaimsFared()
    {
        var rows = RunSummary.Of(TwoScenarios());

        Assert.Equal(2, rows.Count);
        Assert.Equal("whenall", rows[0].Fastest);
        Assert.Equal("whenall", rows[0].Use);
        Assert.Equal("0.95", rows[0].Efficiency);
        Assert.Equal("1 of 2 hold (not: delay-threads-19); 1 could not be judged", rows[0].Claims);
        Assert.Equal(string.Empty, rows[1].Claims);
    }

    [Fact]
    public void TheReports_CarryTheSummary_AndEveryClaimsSentence()
    {
        var run = TwoScenarios();
        using var markdown = new StringWriter();
        MarkdownExporter.GitHub.Export(run, markdown);
        var html = HtmlExporterTests.Html(run);

        Assert.Contains("| delay | whenall | whenall | 0.95 | 1 of 2 hold (not: delay-threads-19); 1 could not be judged |", markdown.ToString(), StringComparison.Ordinal);
        Assert.Contains("- Published claim: The default degree is the worst (published in the text: 384 ms): could not be judged here: foreach-async@default had no ok trial.", markdown.ToString(), StringComparison.Ordinal);
        Assert.Contains("- Published claim: Threads never above 19 (published in the text: 19 at the end (8 cores)): does not hold here, at most 21 threads; channel rose to 21.", markdown.ToString(), StringComparison.Ordinal);
        Assert.Contains("- Not tested by this run: The Channel's threads depend on its position (the run did not meet its conditions: a run with the Channel last)", markdown.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("Published claim: The Channel's threads", markdown.ToString(), StringComparison.Ordinal);
        Assert.Contains("<th>Published claims</th>", html, StringComparison.Ordinal);
        Assert.Contains("<li class=\"untested\">Not tested by this run: The Channel&#39;s threads depend on its position", html, StringComparison.Ordinal);
        Assert.Contains("<li class=\"holds\">Published claim: A Channel is about 12x faster (published in the text: 68 ms against 799 ms (8 cores)): holds here, 21x (20-21); every item waits at once.</li>", html, StringComparison.Ordinal);
    }
}
