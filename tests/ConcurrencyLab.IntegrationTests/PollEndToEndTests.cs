using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The poll experiment as a user runs it: conclab, a server and its connections in each trial's process.</summary>
public sealed class PollEndToEndTests
{
    [Fact]
    public async Task Run_ThreadsAgainstPendingReceives_BothDeliverEverything_ThreadsHoldAThreadPerConnection()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.ConclabAsync(folder.Path,
            "run", "poll", "--connections", "100", "--duration", "1", "--hit-rate", "0.05", "--variants", "threads,receive-async",
            "--repeat", "2", "--warmup", "0", "--out", "out");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("Msgs/s", result.Output, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out/results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        Assert.Equal("poll", scenario.GetProperty("name").GetString());
        Assert.Contains(scenario.GetProperty("metrics").EnumerateArray(), c => c.GetProperty("id").GetString() == "messagesPerSec");
        var variants = scenario.GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!);

        foreach (var variant in variants.Values)
        {
            Assert.Equal("ok", variant.GetProperty("status").GetString());
            foreach (var trial in variant.GetProperty("trials").EnumerateArray())
            {
                var checks = trial.GetProperty("metrics");
                Assert.True(checks.GetProperty("sent").GetDouble() > 50);
                Assert.Equal(checks.GetProperty("sent").GetDouble(), checks.GetProperty("received").GetDouble());
                Assert.Equal(0, checks.GetProperty("lost").GetDouble());
                Assert.Equal(0, checks.GetProperty("duplicated").GetDouble());
            }
        }

        // A hundred dedicated threads against a handful of pool threads waiting on nothing.
        Assert.True(PeakThreads(variants["threads"]) > 100, $"threads peaked at {PeakThreads(variants["threads"])}");
        Assert.True(PeakThreads(variants["threads"]) > 3 * PeakThreads(variants["receive-async"]));

        static double PeakThreads(JsonElement variant) => variant.GetProperty("summary").GetProperty("medians").GetProperty("peakThreads").GetDouble();
    }
}
