using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>conclab started as crank's agent starts a job (CRANK_JOB_ID set): what the agent would read of it.</summary>
public sealed class CrankJobTests
{
    [Fact]
    public async Task UnderCranksAgent_TheRunEndsWithItsFigures_AndNamesEveryTrialsProcess()
    {
        using var folder = new TempFolder();

        var run = await ProgramRunner.RunProgramAsync(
            "dotnet",
            folder.Path,
            [ProgramRunner.ConclabDll, "run", "delay", "--quick", "--variants", "whenall,channel", "--repeat", "2", "--plain", "--out", "out"],
            environment: new Dictionary<string, string> { ["CRANK_JOB_ID"] = "42" });

        Assert.True(run.ExitCode == 0, run.ToString());

        // The agent parses when a line holding the end marker arrives: it must be the last line, the JSON between it
        // and the last start marker before it.
        var lines = run.Output.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n');
        Assert.Equal("#EndJobStatistics", lines[^1]);
        var start = Array.FindLastIndex(lines, l => l.Contains("#StartJobStatistics", StringComparison.Ordinal));
        Assert.True(start >= 0 && start < lines.Length - 2, run.ToString());
        using var statistics = JsonDocument.Parse(string.Join('\n', lines[(start + 1)..^1]));
        var measured = statistics.RootElement.GetProperty("Measurements").EnumerateArray().ToDictionary(m => m.GetProperty("Name").GetString()!, m => m.GetProperty("Value"));

        // The same figures as results.json.
        using var results = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var variants = results.RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().ToList();
        foreach (var variant in variants)
        {
            var name = variant.GetProperty("name").GetString();
            var summary = variant.GetProperty("summary");
            Assert.Equal(summary.GetProperty("medianWallMs").GetDouble(), measured[$"conclab/delay/{name}/median"].GetDouble());
            Assert.Equal(summary.GetProperty("ciHighMs").GetDouble(), measured[$"conclab/delay/{name}/ciHigh"].GetDouble());
            Assert.Equal(2, measured[$"conclab/delay/{name}/okTrials"].GetDouble());
        }

        // Every trial's process named on standard error, once each, for the agent to measure.
        var children = run.Error.ReplaceLineEndings("\n").Split('\n').Where(l => l.StartsWith("##ChildProcessId:", StringComparison.Ordinal)).ToList();
        var trials = variants.Sum(v => v.GetProperty("trials").GetArrayLength());
        Assert.Equal(trials, children.Count);
        Assert.Equal(trials, children.Distinct().Count());
    }

    [Fact]
    public async Task UnderCranksAgent_EachFanoutTrial_NamesItsProcessThenItsTwoServices()
    {
        using var folder = new TempFolder();

        var run = await ProgramRunner.RunProgramAsync(
            "dotnet",
            folder.Path,
            [ProgramRunner.ConclabDll, "run", "fanout", "--quick", "--variants", "whenall-async@5", "--repeat", "2", "--plain", "--out", "out"],
            environment: new Dictionary<string, string> { ["CRANK_JOB_ID"] = "43" });

        Assert.True(run.ExitCode == 0, run.ToString());
        using var results = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var trials = results.RootElement.GetProperty("scenarios")[0].GetProperty("variants")[0].GetProperty("trials").GetArrayLength();

        // Three processes a trial, none named twice: the trial's, then the external and the product service it
        // started, so the agent, which follows the last one named, measures the service under test.
        var children = run.Error.ReplaceLineEndings("\n").Split('\n').Where(l => l.StartsWith("##ChildProcessId:", StringComparison.Ordinal)).ToList();
        Assert.True(trials >= 2 && children.Count == 3 * trials, run.ToString());
        Assert.Equal(children.Count, children.Distinct().Count());

        // The announcements never reach a person's reading of the trial's output, nor the results.
        Assert.DoesNotContain("##ChildProcessId", await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")), StringComparison.Ordinal);
    }
}
