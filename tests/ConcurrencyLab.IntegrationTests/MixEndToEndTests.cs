using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>conclab run mix as a user types it: a described workload, its model's ideal, and the answer after the table.</summary>
public sealed class MixEndToEndTests
{
    [Fact]
    public async Task ADescribedWorkload_RunsWithTheModelsIdeal_AndAnAnswer()
    {
        using var folder = new TempFolder();

        // 12 items of 2 ms of CPU and a 10-20 ms wait, through at most 3 at once.
        var result = await ProgramRunner.ConclabAsync(folder.Path,
            "run", "mix", "--items", "12", "--cpu-ms", "2", "--wait-ms", "10-20", "--downstream", "3", "--variants", "whenall,sequential,task-run-waitall-tap",
            "--repeat", "1", "--warmup", "0", "--events", "off", "--out", "out", "--plain");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("Use: ", result.Output, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        Assert.Equal("mix", scenario.GetProperty("name").GetString());
        Assert.False(scenario.GetProperty("idealMeasured").GetBoolean());

        // 12 waits of 10-20 ms through 3 slots take at least 40 ms, more than any other limit here.
        var ideal = scenario.GetProperty("idealMs").GetDouble();
        Assert.InRange(ideal, 40, 80);
        Assert.StartsWith("the waits through 3 downstream slots", scenario.GetProperty("idealReason").GetString(), StringComparison.Ordinal);
        foreach (var variant in scenario.GetProperty("variants").EnumerateArray())
        {
            Assert.Equal("ok", variant.GetProperty("status").GetString());
            Assert.True(variant.GetProperty("summary").GetProperty("medianWallMs").GetDouble() >= ideal * 0.95, variant.ToString());
        }

        // The same work in every trial: one digest.
        Assert.Single(scenario.GetProperty("variants").EnumerateArray().SelectMany(v => v.GetProperty("trials").EnumerateArray()).Select(t => t.GetProperty("workloadDigest").GetString()).Distinct());

        // Each trial timed its items' CPU by the threads' own clocks (Linux), and the notes say what that showed of the
        // calibration: held, took less or took more, with figures; elsewhere that it could not be judged.
        var notes = scenario.GetProperty("notes").EnumerateArray().Select(n => n.GetString()!).ToList();
        var calibration = notes.Where(n => n.StartsWith("each item's CPU work took", StringComparison.Ordinal) || n.StartsWith("whether each item's CPU work", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(calibration);
        Assert.All(calibration, n => Assert.Contains("2.00 ms asked", n, StringComparison.Ordinal));
        if (OperatingSystem.IsLinux())
        {
            foreach (var trial in scenario.GetProperty("variants").EnumerateArray().SelectMany(v => v.GetProperty("trials").EnumerateArray()))
            {
                // 2 ms asked, by the thread's clock: a shared machine may move it, but not by 3x either way.
                Assert.InRange(trial.GetProperty("metrics").GetProperty("itemCpuMs").GetDouble() / 2, 1 / 3.0, 3);
            }
        }
    }

    [Theory]
    [InlineData("--wait-ms", "fast")]
    [InlineData("--wait-ms", "50-10")]
    [InlineData("--cpu-at", "middle")]
    [InlineData("--downstream", "-1")]
    public async Task ABadDescription_IsOneLine_AndExits2(string option, string value)
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.ConclabAsync(folder.Path, "run", "mix", option, value, "--out", "out");

        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.Error.Trim().Split('\n'));
        Assert.Contains(option, result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "out")));
    }
}
