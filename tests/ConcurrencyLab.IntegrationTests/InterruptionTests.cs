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

        // A shell starts a background job with SIGINT ignored, and every process it starts inherits that: conclab
        // then ignores Ctrl+C, as a program started so should. Such a test run cannot test it.
        Skip.If(Ignored(signal), $"signal {signal} is ignored in this test run's process (a background job's), so conclab inherits that");
        using var folder = new TempFolder();
        var set = Path.Combine(folder.Path, "set");
        Skip.If(new DriveInfo(folder.Path).AvailableFreeSpace < 10L << 30, "the run checks for room for its 8 GiB set first");

        // Two files of 4 GiB, caught early in the first. Writing one takes seconds, longer than the 2 s after which
        // the command-line library used to end the process: it was then ended mid-file, with nothing written and
        // the half-written set (429 MiB when measured) left behind. The writer now notices between MiB.
        using var run = RunningProgram.StartConclab(folder.Path, "run", "hash", "--files", "2", "--file-size", "4GiB", "--workers", "2", "--dir", set, "--out", "out", "--plain");
        var first = Path.Combine(set, "file-00000.bin");
        Assert.True(await RunningProgram.UntilAsync(() => File.Exists(first) && new FileInfo(first).Length >= 64L << 20, TimeSpan.FromSeconds(60)), $"the set was never written\n{run}");

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

    // Whether this process ignores the signal, from the kernel's mask of ignored signals (bit n - 1 for signal n).
    internal static bool Ignored(int signal)
    {
        var line = File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("SigIgn:", StringComparison.Ordinal));
        return line is not null
            && ulong.TryParse(line["SigIgn:".Length..].Trim(), System.Globalization.NumberStyles.HexNumber, System.Globalization.CultureInfo.InvariantCulture, out var mask)
            && (mask & (1UL << (signal - 1))) != 0;
    }
}
