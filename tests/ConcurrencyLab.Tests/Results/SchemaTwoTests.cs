using System.Text.Json.Nodes;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Reporting;

namespace ConcurrencyLab.Tests.Results;

/// <summary>A version 2 results file, whose verdicts were words, reads as this version, whose verdicts are values.</summary>
public sealed class SchemaTwoTests
{
    [Fact]
    public void AVersion2File_ReadsItsVerdictWordsAsValues_AndAHoldsOnlyKeepsItsCondition()
    {
        var path = Path.Combine(Path.GetTempPath(), $"conclab-schema2-test-{Guid.NewGuid():N}.json");
        try
        {
            File.WriteAllText(path, VersionTwo(["holds", "does not hold", "holds only with 2 cores or with 8 cores with TAP", "could not be judged"]));

            var run = ResultsFile.Read(path, out var writtenAs);

            Assert.Equal(2, writtenAs);
            Assert.Equal(RunResult.CurrentSchemaVersion, run.SchemaVersion);
            var claims = run.Scenarios[0].Claims;
            Assert.Equal([Verdict.Holds, Verdict.DoesNotHold, Verdict.HoldsOnly, Verdict.CouldNotJudge], claims.Select(c => c.Verdict));
            Assert.Equal("with 2 cores or with 8 cores with TAP", claims[2].Condition);
            Assert.Equal("holds only with 2 cores or with 8 cores with TAP", claims[2].VerdictText);
            Assert.True(claims[0].Holds && claims[0].Judged && !claims[3].Judged);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void AVersion2VerdictInWordsItNeverWrote_IsRefusedInOneLine()
    {
        var path = Path.Combine(Path.GetTempPath(), $"conclab-schema2-test-{Guid.NewGuid():N}.json");
        try
        {
            File.WriteAllText(path, VersionTwo(["probably"]));

            var error = Assert.Throws<ResultsFileException>(() => ResultsFile.Read(path));

            Assert.DoesNotContain('\n', error.Message);
            Assert.Contains("is not a conclab results file", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }

    // A results file as version 2 wrote it: this build's sample, with its claims in version 2's words.
    private static string VersionTwo(IReadOnlyList<string> verdicts)
    {
        using var writer = new StringWriter();
        JsonExporter.Default.Export(ExporterTests.SampleRun(), writer);
        var root = JsonNode.Parse(writer.ToString())!.AsObject();
        root["schemaVersion"] = 2;
        var claims = new JsonArray();
        foreach (var (verdict, i) in verdicts.Select((v, i) => (v, i)))
        {
            claims.Add(new JsonObject
            {
                ["id"] = $"claim-{i}",
                ["claim"] = "a claim",
                ["published"] = "a figure",
                ["verdict"] = verdict,
                ["holds"] = verdict == "holds",
                ["judged"] = verdict != "could not be judged",
                ["figure"] = "-",
                ["reason"] = "why",
                ["sentence"] = "a claim: " + verdict,
            });
        }

        root["scenarios"]![0]!["claims"] = claims;
        return root.ToJsonString();
    }
}
