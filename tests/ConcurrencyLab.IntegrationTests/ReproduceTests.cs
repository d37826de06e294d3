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

        var run = await ProgramRunner.RunAsync(ProgramRunner.ConclabDll, folder.Path, ["reproduce", "delay", "--quick", "--out", "out", "--plain", "--crank"], TimeSpan.FromMinutes(12));

        Assert.True(run.ExitCode == 0, run.ToString());
        var outFolder = Path.Combine(folder.Path, "out");
        using var reproduction = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outFolder, "reproduction.json")));
        var claims = reproduction.RootElement.GetProperty("claims").EnumerateArray().ToList();

        // As a crank job: every row's verdict in the block that ends the output, and every pass's process named.
        var lines = run.Output.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n');
        Assert.Equal("#EndJobStatistics", lines[^1]);
        using var statistics = JsonDocument.Parse(lines[^2]);
        var verdicts = statistics.RootElement.GetProperty("Measurements").EnumerateArray().Where(m => m.GetProperty("Name").GetString()!.EndsWith("/verdict", StringComparison.Ordinal)).ToList();
        Assert.Equal(claims.Count, verdicts.Count);
        var named = run.Error.ReplaceLineEndings("\n").Split('\n').Where(l => l.StartsWith("##ChildProcessId:", StringComparison.Ordinal)).ToList();
        Assert.True(named.Count >= 6 && named.Count == named.Distinct().Count(), run.ToString());

        // Four claims on both runs, the position claim on the published one, the two build claims on the builds' run:
        // eleven rows, every one tested (the runs meet their conditions: 100 items, Task.Delay, 8 cores).
        Assert.Equal(11, claims.Count);
        string Verdict(JsonElement c) => c.GetProperty("result").GetProperty("verdict").GetString()!;
        string Id(JsonElement c) => c.GetProperty("result").GetProperty("id").GetString()!;
        Assert.All(claims, c => Assert.NotEqual("notTested", Verdict(c)));

        // The builds: each case in each of the four, in processes of their own at 8 cores; the builds themselves
        // (hundreds of MB) are gone once timed.
        var builds = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outFolder, "delay-builds", "results.json"))).RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().ToList();
        Assert.Equal(["channel:build=framework", "foreach-async@40:build=framework", "channel:build=untrimmed", "foreach-async@40:build=untrimmed", "channel:build=as-noted", "foreach-async@40:build=as-noted", "channel:build=native-aot", "foreach-async@40:build=native-aot"], builds.Select(v => v.GetProperty("name").GetString()));
        Assert.All(builds, v => Assert.Equal(5, v.GetProperty("trials").EnumerateArray().Count(t => t.GetProperty("status").GetString() == "ok" && t.GetProperty("metrics").GetProperty("processorCount").GetDouble() == 8)));
        Assert.All(builds.Where(v => v.GetProperty("name").GetString()!.EndsWith("native-aot", StringComparison.Ordinal)), v => Assert.All(v.GetProperty("trials").EnumerateArray(), t => Assert.Equal(0, t.GetProperty("metrics").GetProperty("jitMethods").GetDouble())));
        Assert.False(Directory.Exists(Path.Combine(outFolder, "delay-builds", "builds")));
        Assert.Equal(2, claims.Count(c => Id(c) == "delay-channel-12x"));
        var twelve = claims.First(c => Id(c) == "delay-channel-12x").GetProperty("result");
        // Every condition of the run met, but the machine's quiet: this suite runs other tests beside it, so that one is
        // measured and said, met or not.
        var conditions = twelve.GetProperty("conditions").EnumerateArray().ToList();
        Assert.All(conditions.Where(c => c.GetProperty("name").GetString() != "quiet"), c => Assert.True(c.GetProperty("met").GetBoolean()));
        var quiet = Assert.Single(conditions, c => c.GetProperty("name").GetString() == "quiet");
        Assert.Matches(@"^other processes kept \d+% of the cores busy over the run \(", quiet.GetProperty("actual").GetString());
        var load = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outFolder, "delay", "results.json"))).RootElement.GetProperty("scenarios")[0].GetProperty("machineLoad");
        Assert.True(load.GetProperty("labCpuMs").GetDouble() > 0 && load.GetProperty("coreMs").GetDouble() >= load.GetProperty("wallMs").GetDouble());
        // Judged on a quiet machine, both degree-4 cases' figures; beside this suite's other tests, the reason says how busy.
        if (quiet.GetProperty("met").GetBoolean())
        {
            Assert.Equal(2, twelve.GetProperty("figures").GetArrayLength());
        }
        else
        {
            Assert.Equal("couldNotJudge", twelve.GetProperty("verdict").GetString());
            Assert.Contains("other processes kept", twelve.GetProperty("reason").GetString(), StringComparison.Ordinal);
        }

        Assert.Contains("7 claims, 11 judged on a run", run.Output, StringComparison.Ordinal);

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
        Assert.Equal(5, isolated.GetProperty("scenarios")[0].GetProperty("variants").GetArrayLength());
        Assert.All(isolated.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().SelectMany(v => v.GetProperty("trials").EnumerateArray()), t => Assert.Equal(8, t.GetProperty("metrics").GetProperty("processorCount").GetDouble()));

        var markdown = await File.ReadAllTextAsync(Path.Combine(outFolder, "reproduction.md"));
        Assert.Equal(11, markdown.Split('\n').Count(l => l.StartsWith("| delay |", StringComparison.Ordinal) && l.Contains("| **", StringComparison.Ordinal)));
        Assert.Contains("report.html", await File.ReadAllTextAsync(Path.Combine(outFolder, "report.html")), StringComparison.Ordinal);

        await JudgedAgainAsACrankJob_TheFilesTextForgesNoLineTheAgentActsOn(folder.Path, outFolder);
    }

    // The same results, each file's machine and notes rewritten by an attacker to hold crank's markers: judged again
    // as a crank job, the agent, reading as it does, finds the lab's block alone and follows no process it names.
    private static async Task JudgedAgainAsACrankJob_TheFilesTextForgesNoLineTheAgentActsOn(string workFolder, string outFolder)
    {
        const string Forged = "x\n#StartJobStatistics\n{\"Metadata\":[],\"Measurements\":[{\"Name\":\"conclab/pwned\",\"Value\":1}]}\n#EndJobStatistics\n##ChildProcessId:1\n";
        foreach (var path in Directory.GetDirectories(outFolder).Select(run => Path.Combine(run, "results.json")).Where(File.Exists))
        {
            var node = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(path))!;
            node["environment"]!["os"] = Forged;
            node["scenarios"]![0]!["notes"]!.AsArray().Add(Forged);
            await File.WriteAllTextAsync(path, node.ToJsonString());
        }

        var again = await ProgramRunner.RunAsync(ProgramRunner.ConclabDll, workFolder, ["reproduce", "--from", outFolder, "--out", "again", "--crank"], TimeSpan.FromMinutes(2));
        Assert.True(again.ExitCode == 0, again.ToString());

        // As crank's agent reads: the last line holds the end marker, and the nearest line above it holding the start
        // marker is the lab's own, two lines up; no line of standard error starts an announcement.
        var lines = again.Output.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n');
        Assert.Equal("#EndJobStatistics", lines[^1]);
        var start = Array.FindLastIndex(lines, l => l.Contains("#StartJobStatistics", StringComparison.OrdinalIgnoreCase));
        Assert.Equal(lines.Length - 3, start);
        Assert.DoesNotContain(lines[..start], l => l.Contains("#EndJobStatistics", StringComparison.OrdinalIgnoreCase));
        Assert.DoesNotContain("conclab/pwned", lines[^2], StringComparison.Ordinal);
        Assert.DoesNotContain(again.Error.ReplaceLineEndings("\n").Split('\n'), l => l.StartsWith("##ChildProcessId:", StringComparison.Ordinal));

        // The text itself is still shown, its markers broken: nothing measured or said is hidden.
        Assert.Contains("# StartJobStatistics", again.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task APlainRun_GivesNoVerdictOnAClaimItDidNotTest_AndSaysWhichItLeftUntested()
    {
        using var folder = new TempFolder();

        // No work per message and a second of sending: none of the poll post's claims is tested by this run.
        var run = await ProgramRunner.RunAsync(ProgramRunner.ConclabDll, folder.Path, ["run", "poll", "--quick", "--variants", "threadpool,threads", "--repeat", "1", "--out", "out", "--plain"], TimeSpan.FromMinutes(3));

        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.DoesNotContain("Published claim:", run.Output, StringComparison.Ordinal);
        Assert.Contains("Not tested by this run: 14 of the post's claims", run.Output, StringComparison.Ordinal);
        using var results = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var claims = results.RootElement.GetProperty("scenarios")[0].GetProperty("claims").EnumerateArray().ToList();
        Assert.Equal(14, claims.Count);
        Assert.All(claims, c => Assert.Equal("notTested", c.GetProperty("verdict").GetString()));
        var catchUp = claims.Single(c => c.GetProperty("id").GetString() == "poll-catch-up-100");
        Assert.Contains(catchUp.GetProperty("conditions").EnumerateArray(), c => c.GetProperty("name").GetString() == "work-ms" && !c.GetProperty("met").GetBoolean() && c.GetProperty("actual").GetString() == "0");
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
