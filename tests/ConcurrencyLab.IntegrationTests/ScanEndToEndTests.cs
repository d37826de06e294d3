using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The scan experiment as a user runs it: conclab, a fleet in each trial's process, every host checked.</summary>
[Collection(nameof(ScanFleets))]
public sealed class ScanEndToEndTests
{
    [Fact]
    public async Task Run_SmallFleet_ClassifiesEveryHost_AndAllAtOnceBeatsOneByOne()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.ConclabAsync(folder.Path,
            "run", "scan", "--hosts", "12", "--timeout-ms", "300", "--variants", "sequential-apm,whenall-async,semaphore@4",
            "--repeat", "2", "--warmup", "0", "--out", "out");

        Assert.True(result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out/results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        Assert.Contains(scenario.GetProperty("metrics").EnumerateArray(), m => m.GetProperty("id").GetString() == "misclassified" && m.GetProperty("flagsWhenNotZero").GetBoolean());
        var variants = scenario.GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!);

        foreach (var variant in variants.Values)
        {
            Assert.Equal("ok", variant.GetProperty("status").GetString());
            foreach (var trial in variant.GetProperty("trials").EnumerateArray())
            {
                Assert.Equal(12, trial.GetProperty("itemsCompleted").GetInt32());
                var checks = trial.GetProperty("metrics");
                Assert.Equal(0, checks.GetProperty("misclassified").GetDouble());
                Assert.Equal(12, checks.GetProperty("foundOpen").GetDouble() + checks.GetProperty("foundClosed").GetDouble() + checks.GetProperty("foundSilent").GetDouble());
            }
        }

        // Nine or so silent hosts one after another against all of them at once.
        Assert.True(Median(variants["sequential-apm"]) > 3 * Median(variants["whenall-async"]));

        static double Median(JsonElement variant) => variant.GetProperty("summary").GetProperty("medianWallMs").GetDouble();
    }
}
