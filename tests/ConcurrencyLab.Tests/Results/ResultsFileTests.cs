using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Reporting;

namespace ConcurrencyLab.Tests.Results;

public sealed class ResultsFileTests
{
    [Theory]
    [InlineData("\"displayName\": \"Msgs/s\"", "\"displayName\": \"\"")]
    [InlineData("\"displayName\": \"Msgs/s\"", "\"displayName\": null")]
    [InlineData("\"tool\": \"conclab\",", "\"tool\": \"conclab\", \"tool\": \"other\",")]
    [InlineData("\"status\": \"ok\"", "\"status\": \"fine\"")]
    [InlineData("\"schemaVersion\": 2", "\"schemaVersion\": 3")]
    public void AFileThisBuildCannotRead_IsRefusedInOneLine_NeverWithAStackTrace(string good, string bad)
    {
        var path = Path.Combine(Path.GetTempPath(), $"conclab-results-test-{Guid.NewGuid():N}.json");
        try
        {
            var run = ExporterTests.SampleRun();
            run = run with { Scenarios = [run.Scenarios[0] with { Metrics = [ConcurrencyLab.Scenarios.Poll.PollScenario.MessagesPerSec] }] };
            Exporters.WriteFile(run, JsonExporter.Default, path);
            var text = File.ReadAllText(path);
            Assert.Contains(good, text, StringComparison.Ordinal);
            File.WriteAllText(path, text.Replace(good, bad, StringComparison.Ordinal));

            var error = Assert.Throws<ResultsFileException>(() => ResultsFile.Read(path));

            Assert.DoesNotContain('\n', error.Message);
            Assert.Contains(path, error.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
