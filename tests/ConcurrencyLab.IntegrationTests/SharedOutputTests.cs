using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>Two runs given the same output folder: one measures and writes, the other is refused before it measures.</summary>
public sealed class SharedOutputTests
{
    [Fact]
    public async Task ASecondRun_IntoAFolderAnotherRunIsWriting_IsRefusedInOneLine_AndTheFirstLosesNothing()
    {
        using var folder = new TempFolder();
        using var first = RunningProgram.StartConclab(folder.Path, "run", "delay", "--quick", "--variants", "whenall,channel", "--repeat", "3", "--plain", "--out", "shared");
        var lockFile = Path.Combine(folder.Path, "shared", ".conclab-lock");
        Assert.True(await RunningProgram.UntilAsync(() => File.Exists(lockFile), TimeSpan.FromSeconds(60)), first.ToString());

        var second = await ProgramRunner.ConclabAsync(folder.Path, "run", "delay", "--quick", "--variants", "whenall", "--repeat", "1", "--plain", "--out", "shared");

        Assert.True(second.ExitCode == 2, second.ToString());
        var line = Assert.Single(second.Error.Trim().Split('\n'));
        Assert.Contains("--out shared is being written by another conclab run; give another folder, or wait for it to end.", line, StringComparison.Ordinal);
        Assert.DoesNotContain("whenall", second.Output, StringComparison.Ordinal);

        Assert.Equal(0, await first.WaitAsync(TimeSpan.FromMinutes(4)));
        using var results = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "shared", "results.json")));
        Assert.Equal(2, results.RootElement.GetProperty("scenarios")[0].GetProperty("variants").GetArrayLength());
        Assert.False(File.Exists(lockFile));
    }
}

/// <summary>A temporary folder that cannot serve a run is said before anything starts, never found out by a hang.</summary>
public sealed class TemporaryFolderTests
{
    [Theory]
    [InlineData("file", "is not a folder")]
    [InlineData("missing", "does not exist")]
    public async Task ATmpdirThatIsNoFolder_IsRefusedInOneLine_BeforeAnythingRuns(string what, string expected)
    {
        using var folder = new TempFolder();
        var tmpdir = Path.Combine(folder.Path, what);
        if (what == "file")
        {
            await File.WriteAllTextAsync(tmpdir, "not a folder");
        }

        foreach (string[] command in new[] { new[] { "run", "delay", "--quick", "--variants", "whenall", "--repeat", "1", "--out", "out" }, ["load", "--url", "http://127.0.0.1:9/", "--rate", "1", "--out", "out"] })
        {
            var run = await ProgramRunner.RunProgramAsync("dotnet", folder.Path, [ProgramRunner.ConclabDll, .. command], TimeSpan.FromSeconds(60), new Dictionary<string, string> { ["TMPDIR"] = tmpdir });

            Assert.True(run.ExitCode == 2, run.ToString());
            var line = Assert.Single(run.Error.Trim().Split('\n'));
            Assert.Contains($"TMPDIR ({tmpdir}/) {expected}", line, StringComparison.Ordinal);
            Assert.False(Directory.Exists(Path.Combine(folder.Path, "out")));
        }
    }
}

/// <summary>A terminal closed under a run, or standard output closed before it: the measurements are kept all the same.</summary>
public sealed class LostTerminalTests
{
    [Fact]
    public async Task SIGHUP_StopsTheRunAsCtrlCDoes_KeepsEveryFinishedTrial_LeavesNothing_AndExits129()
    {
        using var folder = new TempFolder();
        var temporary = Directory.CreateDirectory(Path.Combine(folder.Path, "tmp")).FullName;
        // Through env, which gives SIGHUP its default disposition back: a test run under nohup would otherwise hand
        // conclab a SIGHUP that is ignored, as nohup means it to be, and there would be nothing to test.
        using var run = RunningProgram.Start("env", folder.Path, ["--default-signal=HUP", $"TMPDIR={temporary}", "dotnet", ProgramRunner.ConclabDll, "run", "delay", "--quick", "--variants", "whenall,channel", "--repeat", "20", "--plain", "--out", "out"]);
        Assert.True(await RunningProgram.UntilAsync(() => run.Output.Contains("trial 2:", StringComparison.Ordinal), TimeSpan.FromSeconds(90)), run.ToString());

        run.Signal(1);

        Assert.Equal(129, await run.WaitAsync(TimeSpan.FromSeconds(60)));
        using var results = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var trials = results.RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().Sum(v => v.GetProperty("trials").GetArrayLength());
        Assert.InRange(trials, 2, 39);
        Assert.Empty(Directory.EnumerateFileSystemEntries(temporary));
    }

    [Fact]
    public async Task AClosedStandardOutput_CostsTheEcho_NotTheRun()
    {
        using var folder = new TempFolder();

        var run = await ProgramRunner.RunProgramAsync("sh", folder.Path, ["-c", $"exec dotnet '{ProgramRunner.ConclabDll}' run delay --quick --variants whenall --repeat 1 --plain --out out >&-"], TimeSpan.FromMinutes(2));
        var refused = await ProgramRunner.RunProgramAsync("sh", folder.Path, ["-c", $"exec dotnet '{ProgramRunner.ConclabDll}' run delay --no-such-option 2>&-"], TimeSpan.FromMinutes(1));

        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.True(File.Exists(Path.Combine(folder.Path, "out", "results.json")));
        Assert.True(refused.ExitCode == 2, refused.ToString());
    }
}

/// <summary>report of the largest file it accepts still stops on SIGTERM, rather than finishing first.</summary>
public sealed class LargeReportTests
{
    [Fact]
    public async Task SIGTERM_DuringTheReportOfALargeFile_EndsItWith130_AndEveryFileWrittenIsWhole()
    {
        using var folder = new TempFolder();
        var small = await ProgramRunner.ConclabAsync(folder.Path, "run", "delay", "--quick", "--variants", "whenall", "--repeat", "3", "--plain", "--out", "small");
        Assert.True(small.ExitCode == 0, small.ToString());

        // 2,000 variants of 5 trials: the most report reads, some seconds of work.
        var root = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "small", "results.json")))!;
        var scenario = root["scenarios"]![0]!;
        var first = scenario["variants"]![0]!;
        var variants = new System.Text.Json.Nodes.JsonArray();
        for (var v = 0; v < 2000; v++)
        {
            var variant = first.DeepClone();
            variant["name"] = $"whenall-{v}";
            var trials = new System.Text.Json.Nodes.JsonArray();
            for (var t = 0; t < 5; t++)
            {
                trials.Add(first["trials"]![t % 3]!.DeepClone());
            }

            variant["trials"] = trials;
            variants.Add(variant);
        }

        scenario["variants"] = variants;
        var large = Path.Combine(folder.Path, "large.json");
        await File.WriteAllTextAsync(large, root.ToJsonString());

        using var report = RunningProgram.StartConclab(folder.Path, "report", large, "--out", "report");
        await Task.Delay(TimeSpan.FromSeconds(1));
        report.Signal(15);

        Assert.Equal(130, await report.WaitAsync(TimeSpan.FromSeconds(30)));
        foreach (var file in Directory.Exists(Path.Combine(folder.Path, "report")) ? Directory.EnumerateFiles(Path.Combine(folder.Path, "report"), "*.json") : [])
        {
            using var whole = JsonDocument.Parse(await File.ReadAllTextAsync(file));
        }
    }
}

/// <summary>A disk too full for the results is found out before the run measures, not after.</summary>
public sealed class FullDiskTests
{
    [SkippableFact]
    public async Task AnOutputFolderWithoutRoomForTheResults_IsRefusedBeforeAnythingIsMeasured()
    {
        Skip.IfNot(OperatingSystem.IsLinux() && Environment.UserName == "root", "needs root, to mount a small file system");
        using var folder = new TempFolder();
        var small = Directory.CreateDirectory(Path.Combine(folder.Path, "small")).FullName;
        var mounted = await ProgramRunner.RunProgramAsync("mount", folder.Path, ["-t", "tmpfs", "-o", "size=512k", "tmpfs", small]);
        Skip.If(mounted.ExitCode != 0, "no tmpfs can be mounted here: " + mounted.Error.Trim());
        try
        {
            var run = await ProgramRunner.ConclabAsync(folder.Path, "run", "delay", "--quick", "--variants", "whenall", "--repeat", "2", "--plain", "--out", Path.Combine(small, "out"));

            Assert.True(run.ExitCode == 2, run.ToString());
            Assert.Contains("MiB free, and this run's results take about", run.Error, StringComparison.Ordinal);
            Assert.DoesNotContain("trial 1", run.Output, StringComparison.Ordinal);
            Assert.Empty(Directory.EnumerateFileSystemEntries(small));
        }
        finally
        {
            await ProgramRunner.RunProgramAsync("umount", folder.Path, [small]);
        }
    }
}
