using ConcurrencyLab.Measurement;
using ConcurrencyLab.Cli.Rendering;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Reporting;

namespace ConcurrencyLab.Tests.Cli;

public sealed class ResultTableRendererTests
{
    [Fact]
    public void Table_ListsVariantsByMedian_WithTheBestAndItsEfficiency()
    {
        var text = Render(ExporterTests.SampleRun().Scenarios[0]);

        Assert.True(text.IndexOf("whenall", StringComparison.Ordinal) < text.IndexOf("broken (failed)", StringComparison.Ordinal));
        Assert.Contains("Fastest: whenall, median 51.5 ms, efficiency 0.95 against the ideal.", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Flags", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Table_FlagsAVariantWhoseFlaggedCheckIsNotZero()
    {
        var scenario = ExporterTests.SampleRun().Scenarios[0];
        var whenall = scenario.Variants[1];
        var misclassified = Metric.Count("misclassified", "Misclassified") with { FlagsWhenNotZero = true };
        var flagged = whenall with { Summary = whenall.Summary! with { Medians = new Dictionary<string, double>(whenall.Summary.Medians) { ["misclassified"] = 7 } } };
        scenario = scenario with { Metrics = [misclassified], Variants = [scenario.Variants[0], flagged] };

        var text = Render(scenario);

        Assert.Contains("Flags", text, StringComparison.Ordinal);
        Assert.Contains("misclassified 7", text, StringComparison.Ordinal);
    }

    private static string Render(ScenarioResult scenario)
    {
        var output = new StringWriter();
        TestConsole.Create(output, width: 250).Write(ResultTableRenderer.Render(scenario));
        return output.ToString();
    }
}
