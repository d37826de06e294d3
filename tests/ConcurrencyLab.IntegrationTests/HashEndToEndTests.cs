using System.Text.Json;
using System.Text.RegularExpressions;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// The hash experiment as a user runs it, on small files: every variant hashes every file right from a cold
/// cache in trial processes of their own, the bounds are measured and recorded, the generated files are
/// removed afterwards, and a set the disk cannot hold is refused before anything is written.
/// </summary>
public sealed partial class HashEndToEndTests
{
    [Fact]
    public async Task Run_Small_EveryVariantHashesRightFromAColdCache_BoundsRecorded_FilesRemoved()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.ConclabAsync(folder.Path,
            "run", "hash", "--files", "5", "--file-size", "192KiB", "--workers", "1,4",
            "--repeat", "1", "--warmup", "0", "--out", "out");

        Assert.True(result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out/results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        var bounds = scenario.GetProperty("bounds");
        Assert.True(bounds.GetProperty("deviceReadMibPerSec").GetDouble() > 0);
        Assert.True(bounds.GetProperty("hashMibPerSec").GetDouble() > 0);
        Assert.True(scenario.GetProperty("idealMs").GetDouble() > 0);
        Assert.Contains("measured on this machine", scenario.GetProperty("idealReason").GetString(), StringComparison.Ordinal);

        var variants = scenario.GetProperty("variants").EnumerateArray().ToList();
        Assert.Equal(ConcurrencyLab.Experiments.Hash.DirectIo.IsSupported ? 10 : 8, variants.Count);
        foreach (var variant in variants)
        {
            Assert.True(variant.GetProperty("status").GetString() == "ok", variant.ToString());
            var trial = variant.GetProperty("trials")[0];
            var checks = trial.GetProperty("metrics");
            Assert.Equal(5, trial.GetProperty("itemsCompleted").GetInt32());
            Assert.Equal(0, checks.GetProperty("hashMismatches").GetDouble());
            if (OperatingSystem.IsLinux())
            {
                Assert.Equal(1, checks.GetProperty("cacheCold").GetDouble());
            }
        }

        // The set went to a temporary folder the notes name, and is gone.
        var notes = string.Join('\n', scenario.GetProperty("notes").EnumerateArray().Select(n => n.GetString()));
        var written = WrittenTo().Match(notes);
        Assert.True(written.Success, notes);
        Assert.False(Directory.Exists(written.Groups[1].Value), $"{written.Groups[1].Value} was left behind");
    }

    [Fact]
    public async Task ASetTheDiskCannotHold_IsRefusedInOneLine_WithExitCode2()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.ConclabAsync(folder.Path,
            "run", "hash", "--files", "100000", "--file-size", "64GiB", "--dir", "set", "--out", "out");

        Assert.Equal(2, result.ExitCode);
        var line = Assert.Single(result.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("conclab: the file set needs", line, StringComparison.Ordinal);
        Assert.Contains("MiB are free", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "set")), "the refused set's folder was made");
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "out")), "a refused run wrote results");
    }

    [GeneratedRegex("written to (\\S+) in ")]
    private static partial Regex WrittenTo();
}
