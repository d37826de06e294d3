using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>conclab interrupted, as a user at a terminal or a CI job's timeout would: what it keeps and what it leaves.</summary>
public sealed class InterruptionTests
{
    [SkippableTheory]
    [InlineData(2)]
    [InlineData(15)]
    public async Task ASignalWhileTheHashSetIsWritten_DeletesWhatWasWritten_WritesTheResults_AndExits130(int signal)
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "signals as Linux sends them");
        using var folder = new TempFolder();
        var set = Path.Combine(folder.Path, "set");

        // 1 GiB to write, caught in the middle. (On a slow disk a single write can take seconds; conclab was then
        // ended 2 s after the signal by the command-line library, mid-file, with nothing written and the set left
        // behind. This machine's disk is too fast to show that; what must hold either way is checked.)
        using var run = RunningProgram.StartConclab(folder.Path, "run", "hash", "--files", "64", "--file-size", "16MiB", "--workers", "2", "--dir", set, "--out", "out", "--plain");
        Assert.True(await RunningProgram.UntilAsync(() => Directory.Exists(set) && Directory.EnumerateFiles(set, "*.bin").Count() >= 2, TimeSpan.FromSeconds(60)), $"the set was never written\n{run}");

        run.Signal(signal);
        var exitCode = await run.WaitAsync(TimeSpan.FromSeconds(20));

        Assert.True(exitCode == 130, $"exit {exitCode}\n{run}");
        Assert.False(Directory.Exists(set) && Directory.EnumerateFiles(set).Any(), $"the half-written set was left: {(Directory.Exists(set) ? Directory.EnumerateFiles(set).Count() : 0)} files");
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        Assert.True(json.RootElement.GetProperty("cancelled").GetBoolean());
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        Assert.Equal("hash", scenario.GetProperty("name").GetString());
        Assert.All(scenario.GetProperty("variants").EnumerateArray(), v => Assert.Equal(0, v.GetProperty("trials").GetArrayLength()));
        Assert.Contains(scenario.GetProperty("notes").EnumerateArray(), n => n.GetString()!.Contains("cancelled", StringComparison.Ordinal));
    }
}
