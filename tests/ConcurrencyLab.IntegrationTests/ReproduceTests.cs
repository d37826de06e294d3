using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// <c>conclab reproduce</c> as a user runs it: the delay post's claims at the quick scale, isolated and as
/// published, on 2 and 8 cores as the runtime sees them.
/// </summary>
public sealed class ReproduceTests
{
    [Fact]
    public async Task ReproduceDelay_JudgesEveryClaimOnEveryRun_AndEachPassRanInItsOwnProcessAtItsOwnCores()
    {
        using var folder = new TempFolder();

        var run = await ProgramRunner.RunAsync(ProgramRunner.ConclabDll, folder.Path, ["reproduce", "delay", "--quick", "--out", "out", "--plain"], TimeSpan.FromMinutes(5));

        Assert.True(run.ExitCode == 0, run.ToString());
        var outFolder = Path.Combine(folder.Path, "out");
        using var reproduction = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outFolder, "reproduction.json")));
        var claims = reproduction.RootElement.GetProperty("claims").EnumerateArray().ToList();

        // Four claims on both runs, the position claim on the published one: nine verdicts, each one decided.
        Assert.Equal(9, claims.Count);
        Assert.All(claims, c => Assert.NotEqual("couldNotJudge", c.GetProperty("judgement").GetProperty("verdict").GetString()));
        Assert.Equal(2, claims.Count(c => c.GetProperty("id").GetString() == "delay-channel-12x"));
        Assert.Contains("holds", run.Output, StringComparison.Ordinal);
        Assert.Contains("9 verdicts", run.Output, StringComparison.Ordinal);

        // As published: one process per pass, the variants in the published order, each trial at its pass's cores.
        var published = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outFolder, "delay-as-published", "results.json"))).RootElement;
        Assert.True(published.GetProperty("settings").GetProperty("fixedOrder").GetBoolean());
        Assert.False(published.GetProperty("settings").GetProperty("isolated").GetBoolean());
        var variants = published.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!);
        foreach (var cores in new[] { 2, 8 })
        {
            var trials = variants[$"channel:cores={cores}"].GetProperty("trials").EnumerateArray().ToList();
            Assert.Equal(3, trials.Count);
            Assert.All(trials, t => Assert.Equal(cores, t.GetProperty("metrics").GetProperty("processorCount").GetDouble()));
        }

        Assert.Equal(6, Directory.GetDirectories(Path.Combine(outFolder, "delay-as-published", "passes")).Length);

        // Isolated: a process per trial, the order rotated, each variant at both processor counts.
        var isolated = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outFolder, "delay", "results.json"))).RootElement;
        Assert.True(isolated.GetProperty("settings").GetProperty("isolated").GetBoolean());
        Assert.Equal(10, isolated.GetProperty("scenarios")[0].GetProperty("variants").GetArrayLength());

        var markdown = await File.ReadAllTextAsync(Path.Combine(outFolder, "reproduction.md"));
        Assert.Equal(9, markdown.Split('\n').Count(l => l.StartsWith("| delay |", StringComparison.Ordinal) && l.Contains("| **", StringComparison.Ordinal)));
        Assert.Contains("report.html", await File.ReadAllTextAsync(Path.Combine(outFolder, "report.html")), StringComparison.Ordinal);
    }

    [Fact]
    public async Task AFolderHoldingAnEarlierReproduction_IsRefusedInOneLine_AndLeftAsItWas()
    {
        using var folder = new TempFolder();
        var earlier = Path.Combine(folder.Path, "earlier");
        Directory.CreateDirectory(earlier);
        await File.WriteAllTextAsync(Path.Combine(earlier, "reproduction.json"), "{}");

        var run = await ProgramRunner.ConclabAsync(folder.Path, "reproduce", "delay", "--quick", "--out", earlier);

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("holds an earlier reproduction (reproduction.json); give a new folder.", run.Error, StringComparison.Ordinal);
        Assert.Equal(["reproduction.json"], Directory.EnumerateFileSystemEntries(earlier).Select(Path.GetFileName));
    }

    [Fact]
    public async Task AnUnknownPost_IsOneLineAndExitCode2()
    {
        using var folder = new TempFolder();

        var run = await ProgramRunner.ConclabAsync(folder.Path, "reproduce", "nosuch");

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("'nosuch' is not a post this program reproduces; known: delay, scan, poll, fanout, hash.", run.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "conclab-results")));
    }
}
