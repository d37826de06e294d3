using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The delay experiment run the way a user runs it: conclab starting a fresh process per trial.</summary>
public sealed class DelayEndToEndTests
{
    [Fact]
    public async Task Run_ChildProcesses_ReproduceTheArticlesDirection_AndWriteEveryReport()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.ConclabAsync(folder.Path,
            "run", "delay", "--quick", "--variants", "channel,parallel-for@4,foreach-async@4,foreach-async@40,foreach-async@default,whenall",
            "--repeat", "2", "--warmup", "0", "--out", "out", "--json", "copy.json", "--sample-interval", "5");

        Assert.True(result.ExitCode == 0, result.ToString());
        foreach (var file in new[] { "out/results.json", "out/results.md", "out/results.csv", "copy.json" })
        {
            Assert.True(File.Exists(Path.Combine(folder.Path, file)), file);
        }

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out/results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        var variants = scenario.GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!);
        Assert.Equal(6, variants.Count);

        var pids = new HashSet<int>();
        foreach (var variant in variants.Values)
        {
            Assert.Equal("ok", variant.GetProperty("status").GetString());
            foreach (var trial in variant.GetProperty("trials").EnumerateArray())
            {
                Assert.True(trial.GetProperty("isolated").GetBoolean());
                Assert.Equal(40, trial.GetProperty("itemsPlanned").GetInt32());
                Assert.Equal(40, trial.GetProperty("itemsCompleted").GetInt32());
                Assert.True(trial.GetProperty("samples").GetArrayLength() > 0);
                Assert.True(trial.GetProperty("metrics").GetProperty("wallMs").GetDouble() >= scenario.GetProperty("idealMs").GetDouble());
            }
        }

        // The published finding: a Channel that starts everything at once beats Parallel.For@4 by far (the article: ~12x).
        var channel = Median(variants["channel"]);
        var parallelFor = Median(variants["parallel-for@4"]);
        Assert.True(parallelFor > 3 * channel, $"parallel-for@4 {parallelFor} ms vs channel {channel} ms");
        Assert.True(Median(variants["foreach-async@4"]) > 3 * Median(variants["foreach-async@40"]));

        var markdown = File.ReadAllText(Path.Combine(folder.Path, "out/results.md"));
        Assert.Contains("| Variant |", markdown, StringComparison.Ordinal);
        Assert.Contains("Fastest:", result.Output, StringComparison.Ordinal);
        Assert.Contains("efficiency", result.Output, StringComparison.Ordinal);

        static double Median(JsonElement variant) => variant.GetProperty("summary").GetProperty("medianWallMs").GetDouble();
    }

    [Fact]
    public async Task Run_TrialOutlivingItsTimeout_IsStoppedAndReported_WhileTheOthersComplete()
    {
        using var folder = new TempFolder();

        // sequential waits 20 x 500 ms = 10 s; whenall's region lasts 0.5 s, a quarter of the 2 s limit.
        var result = await ProgramRunner.ConclabAsync(folder.Path,
            "run", "delay", "--items", "20", "--min-delay", "500", "--max-delay", "500", "--variants", "sequential,whenall",
            "--repeat", "1", "--warmup", "0", "--trial-timeout", "2", "--out", "out");

        Assert.True(result.ExitCode == 1, result.ToString());
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out/results.json")));
        var variants = json.RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!);

        Assert.Equal("timeout", variants["sequential"].GetProperty("status").GetString());
        Assert.All(variants["sequential"].GetProperty("trials").EnumerateArray(), t =>
            Assert.Contains("its measured region outlived the trial timeout of 2 s", t.GetProperty("error").GetString(), StringComparison.Ordinal));
        Assert.Equal("ok", variants["whenall"].GetProperty("status").GetString());
        Assert.Equal(1, variants["whenall"].GetProperty("trials").GetArrayLength());
        Assert.Contains("timeout", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_TheTrialTimeout_CoversTheMeasuredRegion_NotTheProcessStartingOrPriming()
    {
        using var folder = new TempFolder();

        // Each trial's region lasts about 10 ms, a tenth of the limit; starting a .NET process and priming the
        // variant take longer than 0.1 s by themselves, so a limit that counted them timed out every trial.
        var result = await ProgramRunner.ConclabAsync(folder.Path,
            "run", "delay", "--quick", "--min-delay", "5", "--max-delay", "10", "--variants", "whenall",
            "--repeat", "3", "--warmup", "0", "--trial-timeout", "0.1", "--out", "out");

        Assert.True(result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out/results.json")));
        var whenall = json.RootElement.GetProperty("scenarios")[0].GetProperty("variants")[0];
        Assert.Equal("ok", whenall.GetProperty("status").GetString());
        Assert.Equal(3, whenall.GetProperty("trials").GetArrayLength());
    }

    [Theory]
    [InlineData("--items", "abc")]
    [InlineData("--variants", "whenall-sync")]
    [InlineData("--nonsense", "1")]
    public async Task Run_BadInput_ExitsTwo_WithoutAStackTrace(string option, string value)
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.ConclabAsync(folder.Path, "run", "delay", option, value);

        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.DoesNotContain("   at ", result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "conclab-results")));
    }
}
