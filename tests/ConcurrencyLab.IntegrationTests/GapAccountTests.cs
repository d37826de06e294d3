using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The gap between the best variant and the ideal, explained from what the run measured.</summary>
public sealed class GapAccountTests
{
    [SkippableFact]
    public async Task WhenAllOverItemsWithCpuBeforeTheirWait_IsHeldByTheCallersCpu_AndTheReportSaysSo()
    {
        Skip.If(Environment.ProcessorCount < 2, "one core: the ideal cannot spread the CPU, so the caller's share leaves no gap");
        using var folder = new TempFolder();

        // 100 items of 4 ms of CPU, then a 30 ms wait: whenall runs every item's CPU on the calling thread before
        // its first await, one after another (about 400 ms), where the ideal spreads it over the cores (200 ms
        // on 2, plus the wait).
        var result = await ProgramRunner.RunProgramAsync(
            "dotnet",
            folder.Path,
            [ProgramRunner.ConclabDll, "run", "mix", "--items", "100", "--cpu-ms", "4", "--wait-ms", "30", "--variants", "whenall", "--repeat", "3", "--warmup", "0", "--events", "off", "--out", "out", "--plain"]);
        Assert.True(result.ExitCode == 0, result.ToString());

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        var variant = scenario.GetProperty("variants")[0];
        var caller = variant.GetProperty("summary").GetProperty("medians").GetProperty("callerMs").GetDouble();
        var wall = variant.GetProperty("summary").GetProperty("medianWallMs").GetDouble();
        Assert.InRange(caller, 0.5 * wall, wall);

        var gap = scenario.GetProperty("recommendations")[0].GetProperty("gap");
        Assert.Equal("callerSideCpu", gap.GetProperty("limit").GetString());
        Assert.Equal("whenall", gap.GetProperty("variant").GetString());
        var report = File.ReadAllText(Path.Combine(folder.Path, "out", "results.md"));
        Assert.Matches(@"Gap to the ideal: `whenall` reached 0\.\d\d of it \([\d.]+ ms against [\d.]+ ms\); caller-side CPU explains [\d.]+ of the [\d.]+ ms: the calling thread spent [\d.]+ ms inside the items it started", report);
        Assert.Contains("Not judged here: pool threads blocked, a lock held, GC pauses (the runtime's events were not read)", report, StringComparison.Ordinal);
        Assert.Contains("caller-side CPU explains", result.Output, StringComparison.Ordinal);
    }
}
