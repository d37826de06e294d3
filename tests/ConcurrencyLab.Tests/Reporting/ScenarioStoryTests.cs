using System.Net;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Cli;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>What is said around a table is made once: the console, results.md and report.html carry the same sentences.</summary>
public sealed class ScenarioStoryTests
{
    [Fact]
    public void TheConsole_TheMarkdown_AndTheHtml_SayTheSameSentences()
    {
        var run = ExporterTests.SampleRun();
        var scenario = run.Scenarios[0] with
        {
            Notes = ["time scale 0.1: the waits were a tenth of the post's"],
            Claims =
            [
                new ClaimResult { Id = "a", Claim = "WhenAll waits once", Published = "1 s", Verdict = Verdict.Holds, Figure = "51.5 ms", Reason = "every wait at once" },
                new ClaimResult { Id = "b", Claim = "WhenAll uses no threads", Published = "0", Verdict = Verdict.NotTested, Reason = "it needs items 1000" },
            ],
        };
        run = run with { Scenarios = [scenario] };
        var story = ScenarioStory.Of(scenario, run.Environment.ProcessorCount);

        var console = new StringWriter();
        TestConsole.Create(console, width: 1000).Write(ResultTableRenderer.Render(scenario, run.Environment.ProcessorCount, width: 1000));
        var markdown = new StringWriter();
        MarkdownExporter.GitHub.Export(run, markdown);
        var html = new StringWriter();
        HtmlExporter.Default.Export(run, html);
        var page = WebUtility.HtmlDecode(html.ToString());

        string[] said =
        [
            .. story.Recommendations.SelectMany(r => r),
            .. story.Claims.Where(c => c.Claim.Verdict != Verdict.NotTested).Select(c => c.Text),
            .. story.Notes,
            .. story.Failures.Select(f => f.What),
        ];
        Assert.True(said.Length >= 5, string.Join("\n", said));
        foreach (var sentence in said)
        {
            Assert.Contains(sentence, console.ToString(), StringComparison.Ordinal);
            Assert.Contains(MarkdownExporter.Escape(sentence), markdown.ToString(), StringComparison.Ordinal);
            Assert.Contains(sentence, page, StringComparison.Ordinal);
        }

        // The untested claim: one line on the console, its own line in the reports.
        Assert.Contains(story.NotTested!, console.ToString(), StringComparison.Ordinal);
        var untested = story.Claims.Single(c => c.Claim.Verdict == Verdict.NotTested).Text;
        Assert.Contains(untested, markdown.ToString(), StringComparison.Ordinal);
        Assert.Contains(untested, page, StringComparison.Ordinal);
        Assert.Contains(story.Ideal.Before, console.ToString(), StringComparison.Ordinal);
        Assert.Contains(story.Ideal.Before, page, StringComparison.Ordinal);
    }
}
