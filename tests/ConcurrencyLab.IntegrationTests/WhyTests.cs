using System.Diagnostics;
using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// <c>conclab why</c> pointed at plain .NET programs written without the lab (tests/ConcurrencyLab.WhyTargets), whose
/// blocking is known by construction: the line that blocks the pool, the lock and the line that holds it, a program
/// that never blocks; started by the lab and attached to; and what it refuses. Alone: the stack profiler stops the
/// watched program's threads every millisecond and the account is read after, a load that upset the timing of a fanout
/// test beside it (its pool added threads for starvation before blocking on a busy CI run).
/// </summary>
[Collection(nameof(WhyTests))]
public sealed class WhyTests
{
    private static string TargetsDll => Path.Combine(ProgramRunner.RepositoryRoot, "tests", "ConcurrencyLab.WhyTargets", "bin", ProgramRunner.Configuration, "net10.0",
        "ConcurrencyLab.WhyTargets.dll");

    // The line of the targets' source that carries the marker, 1-based, as a PDB names it.
    private static int LineOf(string marker)
    {
        var lines = File.ReadAllLines(Path.Combine(ProgramRunner.RepositoryRoot, "tests", "ConcurrencyLab.WhyTargets", "Program.cs"));
        return Array.FindIndex(lines, l => l.Contains("// why: " + marker, StringComparison.Ordinal)) + 1;
    }

    private static JsonElement Trial(string folder, string output = "out") =>
        JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, output, "results.json"))).RootElement.GetProperty("scenarios")[0]
            .GetProperty("variants")[0].GetProperty("trials")[0];

    private static List<JsonElement> Sites(JsonElement trial) =>
        trial.GetProperty("runtime").TryGetProperty("threads", out var threads) ? [.. threads.GetProperty("sites").EnumerateArray()] : [];

    [Fact]
    public async Task SyncOverAsync_NamesTheLineThatBlocksThePool_AndThePoolsRaises_AndAnAssertOnThemFails()
    {
        using var folder = new TempFolder();
        var run = await ProgramRunner.ConclabAsync(folder.Path, "why", "--out", "out", "--assert", "*:blockingInjections<=0", "--", "dotnet", TargetsDll,
            "sync-over-async", "48", "300");

        // The threshold is not met: exit 3, once everything is written.
        Assert.True(run.ExitCode == 3, run.ToString());
        var trial = Trial(folder.Path);
        Assert.True(trial.GetProperty("metrics").GetProperty("blockingInjections").GetDouble() >= 1, trial.ToString());

        // Every pool thread waits on a result it cannot make: they ran almost none of their time.
        Assert.True(trial.GetProperty("metrics").GetProperty("poolBlockedShare").GetDouble() >= 0.9, trial.ToString());
        var site = Sites(trial).First();
        Assert.Contains("OrderDesk.LoadBlocking", site.GetProperty("site").GetString(), StringComparison.Ordinal);
        Assert.EndsWith("Program.cs", site.GetProperty("file").GetString(), StringComparison.Ordinal);
        Assert.Equal(LineOf("the pool blocks here"), site.GetProperty("line").GetInt32());
        // Said in the answer too (the console wraps its lines at a space).
        Assert.Contains($"OrderDesk.LoadBlocking (Program.cs:{LineOf("the pool blocks here")})", Flat(run.Output), StringComparison.Ordinal);
        Assert.Contains("threshold not met", run.Output, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(folder.Path, "out", "report.html")));
        Assert.Contains("the program exited with code 0", Flat(run.Output), StringComparison.Ordinal);
    }

    [SkippableFact]
    public async Task CtrlC_EndsTheWatchOfAStartedProgram_StopsIt_WritesTheAccount_WithTheQueueTheProgramWasMadeToHave()
    {
        Skip.If(InterruptionTests.Ignored(2), "SIGINT is ignored in this test run's process (a background job's), so conclab inherits that");
        using var folder = new TempFolder();

        // 200 items of 1 s sleep queued at once on a 2-core machine: the pool adds a thread for starvation about twice a
        // second and never for blocking, so in the first 3 s at most a few dozen items can have started, and the queue
        // holds 150 or more at the meter's readings, by construction.
        using var run = RunningProgram.StartConclab(folder.Path, "why", "--out", "out", "--", "dotnet", TargetsDll, "sleep", "200", "1000");
        Assert.True(await RunningProgram.UntilAsync(() => Watched("sleep").Count > 0, TimeSpan.FromSeconds(20)), run.ToString());
        await Task.Delay(TimeSpan.FromSeconds(5));
        run.Signal(2);
        var exitCode = await run.WaitAsync(TimeSpan.FromSeconds(60));

        Assert.True(exitCode == 130, $"exit {exitCode}\n{run}");
        Assert.Contains("the watch was stopped; the program and its children were stopped with it", Flat(run.Output), StringComparison.Ordinal);
        Assert.True(await RunningProgram.UntilAsync(() => Watched("sleep").Count == 0, TimeSpan.FromSeconds(10)));

        var trial = Trial(folder.Path);
        var queue = trial.GetProperty("runtime").GetProperty("poolQueue");
        Assert.True(queue.GetProperty("lengths").GetArrayLength() >= 2, queue.ToString());
        var peak = trial.GetProperty("metrics").GetProperty("peakQueueLength").GetDouble();
        Assert.True(peak is >= 150 and <= 200, trial.ToString());
        Assert.True(queue.GetProperty("completedPerSecond").GetDouble() < 50, queue.ToString());
        Assert.Contains("its queue peaked at", Flat(run.Output), StringComparison.Ordinal);

        // Threads sleeping, named at their line; the pool raised its target for starvation, never for blocking on a task.
        Assert.Contains(Sites(trial), s => s.GetProperty("state").GetString() == "sleeping"
            && s.TryGetProperty("line", out var line) && line.GetInt32() == LineOf("the pool sleeps here"));
        Assert.True(trial.GetProperty("metrics").GetProperty("starvationInjections").GetDouble() >= 1, trial.ToString());
        Assert.Equal(0, trial.GetProperty("metrics").GetProperty("blockingInjections").GetDouble());
    }

    [Fact]
    public async Task ADotNetChild_IsWatchedToo_ItsBlockingLineNamedInAVariantOfItsOwn()
    {
        using var folder = new TempFolder();

        // The program blocks nowhere itself: it starts a .NET child that blocks 48 items on Task.Result, and waits for it.
        var run = await ProgramRunner.ConclabAsync(folder.Path, "why", "--out", "out", "--", "dotnet", TargetsDll, "parent", "sync-over-async", "48", "300");

        Assert.True(run.ExitCode == 0, run.ToString());
        var scenario = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json"))).RootElement.GetProperty("scenarios")[0];
        var child = Assert.Single(scenario.GetProperty("watched").GetProperty("children").EnumerateArray());
        Assert.Contains("sync-over-async", string.Join(' ', child.GetProperty("commandLine").EnumerateArray().Select(a => a.GetString())), StringComparison.Ordinal);
        Assert.Equal(2, scenario.GetProperty("variants").GetArrayLength());

        var trial = scenario.GetProperty("variants")[1].GetProperty("trials")[0];
        Assert.Contains(Sites(trial), s => s.GetProperty("site").GetString()!.Contains("OrderDesk.LoadBlocking", StringComparison.Ordinal)
            && s.TryGetProperty("line", out var line) && line.GetInt32() == LineOf("the pool blocks here"));
        Assert.True(trial.GetProperty("metrics").GetProperty("blockingInjections").GetDouble() >= 1, trial.ToString());
        Assert.Contains($"(process {child.GetProperty("processId").GetInt32()})", Flat(run.Output), StringComparison.Ordinal);

        // The program itself only waited for its child: no raise of its pool for blocking on a task.
        Assert.Equal(0, scenario.GetProperty("variants")[0].GetProperty("trials")[0].GetProperty("metrics").GetProperty("blockingInjections").GetDouble());
    }

    [Fact]
    public async Task ACallInlinedIntoGeneratedCode_IsSaidToBe_AndNoInlineNamesItsLine()
    {
        using var folder = new TempFolder();

        // Till.Count, one line, called from a method compiled at run time: the JIT inlines it there, so no frame of it is sampled.
        var inlined = await ProgramRunner.ConclabAsync(folder.Path, "why", "--out", "inlined", "--", "dotnet", TargetsDll, "generated", "32", "300");
        Assert.True(inlined.ExitCode == 0, inlined.ToString());
        var first = Sites(Trial(folder.Path, "inlined")).First();
        Assert.True(first.GetProperty("generated").GetBoolean(), first.ToString());
        Assert.Contains("conclab why --no-inline names them", Flat(inlined.Output), StringComparison.Ordinal);

        var named = await ProgramRunner.ConclabAsync(folder.Path, "why", "--no-inline", "--out", "named", "--", "dotnet", TargetsDll, "generated", "32", "300");
        Assert.True(named.ExitCode == 0, named.ToString());
        Assert.Contains(Sites(Trial(folder.Path, "named")), s => s.GetProperty("site").GetString()!.Contains("Till.Count", StringComparison.Ordinal)
            && s.TryGetProperty("line", out var line) && line.GetInt32() == LineOf("the till blocks here"));
        Assert.Contains("the JIT's inlining off", Flat(named.Output), StringComparison.Ordinal);
    }

    [Fact]
    public async Task AContendedLock_NamesTheLineThatWaits_AndTheLineThatHeldIt()
    {
        using var folder = new TempFolder();
        var run = await ProgramRunner.ConclabAsync(folder.Path, "why", "--out", "out", "--", "dotnet", TargetsDll, "lock", "8", "150");

        Assert.True(run.ExitCode == 0, run.ToString());
        var trial = Trial(folder.Path);
        var waits = Sites(trial).Where(s => s.GetProperty("site").GetString()!.Contains("Ledger.Post", StringComparison.Ordinal)).ToList();
        Assert.Contains(waits, s => s.GetProperty("line").GetInt32() == LineOf("the pool waits for the lock here")
            && s.TryGetProperty("owner", out var owner) && owner.GetProperty("line").GetInt32() == LineOf("the lock is held here"));
        Assert.True(trial.GetProperty("runtime").GetProperty("lockContentions").GetProperty("count").GetInt32() >= 1, trial.ToString());
    }

    [Fact]
    public async Task AProgramThatNeverBlocks_GetsNoBlockingSiteOfItsOwn_AndNoRaiseForBlocking()
    {
        using var folder = new TempFolder();
        var run = await ProgramRunner.ConclabAsync(folder.Path, "why", "--out", "out", "--assert", "*:blockingInjections<=0", "--", "dotnet", TargetsDll,
            "spin", "1500");

        Assert.True(run.ExitCode == 0, run.ToString());
        var trial = Trial(folder.Path);
        Assert.DoesNotContain(Sites(trial), s => s.GetProperty("site").GetString()!.Contains("WhyTargets", StringComparison.Ordinal));
        Assert.Equal(0, trial.GetProperty("metrics").GetProperty("blockingInjections").GetDouble());

        // Its pool threads counted: far less of their time not running than a blocked program's 90%.
        Assert.True(trial.GetProperty("metrics").GetProperty("poolBlockedShare").GetDouble() <= 0.3, trial.ToString());

        // It ran: the work's threads spent at least 3x as long running as in any other state.
        var work = trial.GetProperty("runtime").GetProperty("threads").GetProperty("work");
        var running = work.GetProperty("runningMs").GetDouble();
        Assert.True(running >= 3 * Math.Max(work.GetProperty("waitingMs").GetDouble() + work.GetProperty("sleepingMs").GetDouble(), 1), work.ToString());
    }

    [Fact]
    public async Task AttachedToARunningProgram_ItNamesTheSameLine_AndLeavesTheProgramRunning()
    {
        using var folder = new TempFolder();
        using var target = StartServe();
        try
        {
            Assert.Equal("ready", await target.StandardOutput.ReadLineAsync());
            var run = await ProgramRunner.ConclabAsync(folder.Path, "why", "--pid", target.Id.ToString(System.Globalization.CultureInfo.InvariantCulture), "--duration", "4",
                "--out", "out");

            Assert.True(run.ExitCode == 0, run.ToString());
            Assert.False(target.HasExited);
            var site = Sites(Trial(folder.Path)).First();
            Assert.Contains("OrderDesk.LoadBlocking", site.GetProperty("site").GetString(), StringComparison.Ordinal);
            Assert.Equal(LineOf("the pool blocks here"), site.GetProperty("line").GetInt32());
            Assert.Contains("the program runs on", Flat(run.Output), StringComparison.Ordinal);
        }
        finally
        {
            target.StandardInput.Close();
            if (!target.WaitForExit(TimeSpan.FromSeconds(20)))
            {
                target.Kill(entireProcessTree: true);
            }
        }
    }

    [Fact]
    public async Task AnAttachedProgramKilledInTheWindow_EndsTheWatch_ItsAccountSoFarKept_ItsLineStillNamed()
    {
        using var folder = new TempFolder();
        using var target = StartServe();
        try
        {
            Assert.Equal("ready", await target.StandardOutput.ReadLineAsync());
            using var run = RunningProgram.StartConclab(folder.Path, "why", "--pid", target.Id.ToString(System.Globalization.CultureInfo.InvariantCulture),
                "--duration", "60", "--out", "out");
            Assert.True(await RunningProgram.UntilAsync(() => run.Output.Contains("Watching process", StringComparison.Ordinal), TimeSpan.FromSeconds(20)), run.ToString());
            await Task.Delay(TimeSpan.FromSeconds(3));

            // Killed outright, its event streams cut mid-flow and the runtime's naming of its code never sent.
            target.Kill();
            var exitCode = await run.WaitAsync(TimeSpan.FromSeconds(40));

            Assert.True(exitCode == 0, $"exit {exitCode}\n{run}");
            Assert.Contains("the program exited", Flat(run.Output), StringComparison.Ordinal);
            var scenario = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json"))).RootElement.GetProperty("scenarios")[0];
            Assert.True(scenario.GetProperty("watched").GetProperty("windowMs").GetDouble() < 30_000, scenario.ToString());
            Assert.Contains("serve", scenario.GetProperty("watched").GetProperty("commandLine").EnumerateArray().Select(a => a.GetString()));

            // The samples that arrived were read, not lost with the cut: the blocking line is named, blocked or in code left unnamed.
            var trial = scenario.GetProperty("variants")[0].GetProperty("trials")[0];
            Assert.Contains(Sites(trial), s => s.GetProperty("site").GetString()!.Contains("OrderDesk.LoadBlocking", StringComparison.Ordinal)
                && s.TryGetProperty("line", out var line) && line.GetInt32() == LineOf("the pool blocks here"));
            Assert.False(trial.GetProperty("runtime").TryGetProperty("note", out var note) && note.GetString()!.Contains("could not be read", StringComparison.Ordinal),
                trial.ToString());
        }
        finally
        {
            if (!target.HasExited)
            {
                target.Kill(entireProcessTree: true);
            }
        }
    }

    [Fact]
    public async Task AProgramThatStartsADotNetChild_IsNotHeldUp_TheChildDoesNotWaitForThePort()
    {
        // A child that inherited the port would wait, suspended, for a port that answers only once: the runtime prints
        // "awaiting a Diagnostics IPC ResumeStartup command" and never runs. The port is taken out of the parent's
        // environment once it is attached, so the child (spin 300) runs and the parent exits with its code.
        using var folder = new TempFolder();
        var run = await ProgramRunner.RunAsync(ProgramRunner.ConclabDll, folder.Path, ["why", "--out", "out", "--", "dotnet", TargetsDll, "parent"], TimeSpan.FromSeconds(60));

        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("the program exited with code 0", Flat(run.Output), StringComparison.Ordinal);
        Assert.DoesNotContain("ResumeStartup", run.Output + run.Error, StringComparison.Ordinal);
    }

    // The target blocking in rounds until its standard input closes, started as a developer's service is.
    private static Process StartServe()
    {
        var info = new ProcessStartInfo("dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true, UseShellExecute = false };
        info.ArgumentList.Add(TargetsDll);
        info.ArgumentList.Add("serve");
        return Process.Start(info)!;
    }

    // The target programs running in a mode, not the conclab whose command line names them after its --.
    private static List<int> Watched(string mode) =>
    [
        .. RunningProgram.ProcessesWith("ConcurrencyLab.WhyTargets.dll\0" + mode + "\0")
            .Where(id => !CommandLine(id).Contains("conclab.dll", StringComparison.Ordinal)),
    ];

    // The console's lines joined again: it wraps at a space, which it keeps at the line's end.
    private static string Flat(string output) => System.Text.RegularExpressions.Regex.Replace(output, @"\s+", " ");

    internal static string CommandLine(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ');
        }
        catch (IOException)
        {
            return string.Empty;
        }
    }
}

[CollectionDefinition(nameof(WhyTests), DisableParallelization = true)]
public sealed class WhyTestsAlone;
