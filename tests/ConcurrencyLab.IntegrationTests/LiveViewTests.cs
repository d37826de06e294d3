using System.Text.Json;
using System.Text.RegularExpressions;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// The live view as a user at a terminal sees it: conclab runs under <c>script</c>, which gives it a
/// pseudo-terminal, so it draws the progress display instead of plain lines.
/// </summary>
public sealed partial class LiveViewTests
{
    [SkippableFact]
    public async Task OnATerminal_TheTrialLineShowsTheTrialProcesssThreadCount_WhileItRuns()
    {
        // util-linux's script is in every Debian (bsdutils is essential); elsewhere there is nothing to check with.
        Skip.If(!OperatingSystem.IsLinux() || !File.Exists("/usr/bin/script"), "no script(1) to give conclab a terminal");

        using var folder = new TempFolder();
        var log = Path.Combine(folder.Path, "terminal.log");

        // 24 dedicated threads each wait 1.5 s: while the trial runs its process has at least 24 threads,
        // against 15 or fewer before and after.
        var command = string.Join(' ', new[]
        {
            "dotnet", ProgramRunner.ConclabDll, "run", "delay", "--variants", "threads", "--items", "24", "--min-delay", "1500", "--max-delay", "1500",
            "--repeat", "1", "--warmup", "0", "--out", Path.Combine(folder.Path, "out"),
        }.Select(Quote));
        var result = await ProgramRunner.RunProgramAsync(
            "/usr/bin/script",
            folder.Path,
            ["-q", "-e", "-f", "-c", command, log],
            TimeSpan.FromMinutes(2),
            new Dictionary<string, string> { ["TERM"] = "xterm-256color", ["COLUMNS"] = "160" });

        var terminal = File.ReadAllText(log);
        Assert.True(result.ExitCode == 0, $"{result}\n{terminal}");

        // The display was live: ANSI control sequences, no plain per-trial lines.
        Assert.Contains("\u001b[", terminal, StringComparison.Ordinal);
        Assert.DoesNotContain("[1/1] delay threads", terminal, StringComparison.Ordinal);

        var readings = ThreadLine().Matches(terminal).Select(m => (Now: int.Parse(m.Groups[1].Value), Peak: int.Parse(m.Groups[2].Value))).ToList();
        Assert.NotEmpty(readings);
        Assert.All(readings, r => Assert.True(r.Now <= r.Peak, $"{r.Now} threads now, peak {r.Peak}"));
        Assert.True(readings.Max(r => r.Now) >= 24, $"the live view never saw the trial's 24 threads: {string.Join(", ", readings.Select(r => r.Now))}");

        // The finished trial's line keeps its peak, not a reading of the process on its way out.
        var last = terminal[terminal.LastIndexOf("delay threads trial 1", StringComparison.Ordinal)..];
        Assert.Matches(@"^delay threads trial 1: peak (\d+) threads", last);
        Assert.True(int.Parse(Regex.Match(last, @"peak (\d+)").Groups[1].Value) >= 24, last[..60]);

        using var results = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var trial = results.RootElement.GetProperty("scenarios")[0].GetProperty("variants")[0].GetProperty("trials")[0];
        Assert.Equal("ok", trial.GetProperty("status").GetString());
        Assert.True(trial.GetProperty("metrics").GetProperty("peakThreads").GetDouble() >= 24);
    }

    private static string Quote(string argument) => "'" + argument.Replace("'", "'\\''", StringComparison.Ordinal) + "'";

    [GeneratedRegex(@"delay threads trial 1: (\d+) threads \(peak (\d+)\)")]
    private static partial Regex ThreadLine();
}
