using System.Net;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Cli;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>
/// A scenario's report is made once, as blocks of typed statements: the console, results.md and report.html lay out the
/// same statements, each setting a variant's name and code apart its own way.
/// </summary>
public sealed class ScenarioReportTests
{
    private static (RunResult Run, ScenarioResult Scenario) Sample()
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
        return (run with { Scenarios = [scenario] }, scenario);
    }

    private static (string Console, string Markdown, string Page) Render(RunResult run)
    {
        var console = new StringWriter();
        TestConsole.Create(console, width: 1000).Write(ResultTableRenderer.Render(run.Scenarios[0], run.Environment.ProcessorCount, width: 1000));
        var markdown = new StringWriter();
        MarkdownExporter.GitHub.Export(run, markdown);
        var html = new StringWriter();
        HtmlExporter.Default.Export(run, html);
        return (console.ToString(), markdown.ToString(), html.ToString());
    }

    [Fact]
    public void TheConsole_TheMarkdown_AndTheHtml_SayTheSameStatements_EachInTheRoomItHas()
    {
        var (run, scenario) = Sample();
        var blocks = ScenarioReport.Of(scenario, run.Environment.ProcessorCount);
        var (console, markdown, page) = Render(run);

        var shared = Statements(blocks, Audience.All).ToList();
        Assert.True(shared.Count >= 5, string.Join("\n", shared.Select(s => s.Text)));
        foreach (var statement in shared)
        {
            // The fastest's line sets its name apart more (the next test shows how).
            Assert.Contains(statement.Text, console, StringComparison.Ordinal);
            Assert.True(statement.Tone == Tone.Fastest || markdown.Contains(MarkdownExporter.Write(statement), StringComparison.Ordinal), statement.Text);
            Assert.True(statement.Tone == Tone.Fastest || page.Contains(HtmlExporter.Write(statement), StringComparison.Ordinal), statement.Text);
        }

        // The files say each claim, the untested one included; the console the tested one, and one line for the rest.
        foreach (var statement in Statements(blocks, Audience.Full))
        {
            Assert.Contains(MarkdownExporter.Write(statement), markdown, StringComparison.Ordinal);
            Assert.Contains(WebUtility.HtmlDecode(HtmlExporter.Write(statement)), WebUtility.HtmlDecode(page), StringComparison.Ordinal);
        }

        var brief = Statements(blocks, Audience.Brief).ToList();
        Assert.Contains(brief, s => s.Tone == Tone.NotTested && s.Text.StartsWith("Not tested by this run: 1 of the post's claims", StringComparison.Ordinal));
        foreach (var statement in brief)
        {
            Assert.Contains(statement.Text, console, StringComparison.Ordinal);
        }

        Assert.DoesNotContain("Not tested by this run: 1 of the post's claims", markdown, StringComparison.Ordinal);

        Assert.DoesNotContain("Not tested by this run: WhenAll uses no threads", console, StringComparison.Ordinal);
        Assert.Contains("Not tested by this run: WhenAll uses no threads", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void NumbersAndNames_AreTypedPieces_CarryingTheirValues_AndEachReportSetsThemApart()
    {
        var (run, scenario) = Sample();
        var blocks = ScenarioReport.Of(scenario, run.Environment.ProcessorCount);
        var all = Statements(blocks, Audience.All).Concat(Statements(blocks, Audience.Full)).ToList();

        // The fastest: its name a variant, its median a number holding the median itself.
        var fastest = Assert.Single(all, s => s.Tone == Tone.Fastest);
        Assert.Equal("whenall", Assert.Single(fastest.Inlines.OfType<VariantName>()).Text);
        Assert.Contains(fastest.Inlines.OfType<Number>(), n => n.Value == 51.5 && n.Text == "51.5");

        // The parameters are code; the failed trial names its variant.
        Assert.Contains(all, s => s.Inlines.OfType<Code>().Any(c => c.Text == "items=100"));
        var failure = Assert.Single(all, s => s.Tone == Tone.Failure);
        Assert.Equal("broken", Assert.IsType<VariantName>(failure.Inlines[0]).Text);

        // Each report sets a name apart its own way: code in the files, bold on the console.
        var (_, markdown, page) = Render(run);
        Assert.Contains("Fastest: **`whenall`**, median 51.5 ms", markdown, StringComparison.Ordinal);
        Assert.Contains("Fastest: <strong><code>whenall</code></strong>, median <span class=\"num\">51.5</span> ms", page, StringComparison.Ordinal);
        var line = ResultTableRenderer.Line(fastest);
        var ansi = new StringWriter();
        TestConsole.Create(ansi, width: 200, ansi: true).Write(line);
        Assert.Contains("\u001b[", ansi.ToString(), StringComparison.Ordinal);
        Assert.Contains("whenall", ansi.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void HostileText_StaysText_InMarkdown()
    {
        var (run, scenario) = Sample();
        scenario = scenario with { Notes = ["<script>alert(1)</script> *loud* [link](http://example.com) `tick` a|b"] };
        var markdown = new StringWriter();
        MarkdownExporter.GitHub.Export(run with { Scenarios = [scenario] }, markdown);

        Assert.Contains(@"Note: \<script>alert(1)\</script> \*loud\* \[link\](http://example.com) \`tick\` a\|b", markdown.ToString(), StringComparison.Ordinal);
        Assert.DoesNotMatch(@"(?<!\\)<script", markdown.ToString());

        // A name holding a backtick is still one code span; one holding a bar (which would end a cell) is text.
        Assert.Equal("``a`b``", MarkdownExporter.Write(new Statement([new VariantName("a`b")])));
        Assert.Equal(@"a\|b", MarkdownExporter.Write(new Statement([new VariantName("a|b")])));
    }

    private static IEnumerable<Statement> Statements(IEnumerable<Block> blocks, Audience room) => blocks.Where(b => b.Audience == room).SelectMany(b => b switch
    {
        Passage p => p.Lines,
        BulletList l => l.Lead is { } lead ? [lead, .. l.Items] : l.Items,
        _ => [],
    });
}
