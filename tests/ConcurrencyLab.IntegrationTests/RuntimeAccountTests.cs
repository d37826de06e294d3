using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// The runtime's own account of trials run by a program on purpose made to produce known events: pool threads
/// blocked long enough for the starvation monitor, a lock held for a known time, garbage collections in a
/// trial that times out; and a runtime that cannot be attached to.
/// </summary>
public sealed class RuntimeAccountTests
{
    private static string TestWorkloadsDll => ProgramRunner.TestWorkloadsDll;

    [Fact]
    public async Task PoolThreadsBlockedOnPurpose_RecordStarvationInjections_TimerWaitsRecordNone_AndNothingIsLeftListening()
    {
        using var folder = new TempFolder();
        var temporary = Directory.CreateDirectory(Path.Combine(folder.Path, "tmp")).FullName;

        // 8 items of 1 s each on a pool of 2: no item finishes for a second at a time, so the starvation
        // monitor adds threads; the timer form blocks no thread at all.
        var result = await Run(folder, new Dictionary<string, string> { ["TMPDIR"] = temporary }, "run", "sleep", "--items", "8", "--wait-ms", "1000", "--variants", "task-run-waitall,whenall");

        var variants = Variants(folder, result);
        var blocked = Trial(variants["task-run-waitall"]);
        var timers = Trial(variants["whenall"]);
        Assert.True(Metric(blocked, "starvationInjections") >= 1, blocked.ToString());
        Assert.Equal(0, Metric(timers, "starvationInjections"));
        var account = blocked.GetProperty("runtime");
        Assert.True(account.GetProperty("complete").GetBoolean(), account.ToString());
        Assert.Contains(account.GetProperty("poolAdjustments").EnumerateArray(), a => a.GetProperty("reason").GetString() == "starvation");

        // The blocked main thread waited in Task.WaitAll for the whole region; the timers' trial blocked nothing
        // of the variant's (its main thread waits across the region's end, so that wait is not the region's).
        Assert.True(Metric(blocked, "blockedMs") >= 0.9 * Metric(blocked, "wallMs"), blocked.ToString());

        // That wait is the join, the caller's, told apart from the work's: the items slept, which is no wait.
        var join = account.GetProperty("join").GetProperty("totalMs").GetDouble();
        Assert.True(join >= 0.9 * Metric(blocked, "wallMs"), account.ToString());
        Assert.True(3 * account.GetProperty("workWaits").GetProperty("totalMs").GetDouble() <= join, account.ToString());
        Assert.Equal(join, Metric(blocked, "joinMs"), 3);

        // The account never reaches the region's clock into the file, and no port is left behind.
        Assert.False(blocked.TryGetProperty("regionClock", out _));
        Assert.Empty(Directory.GetFiles(temporary, "conclab-events-*"));
        Assert.Contains("Starved adds", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AContendedLock_RecordsABlockedTime_Within20PercentOfTheTimeItWasHeld()
    {
        using var folder = new TempFolder();
        var result = await Run(folder, null, "run", "lock", "--hold-ms", "400", "--variants", "threads", "--repeat", "2");

        foreach (var trial in Variants(folder, result)["threads"].GetProperty("trials").EnumerateArray())
        {
            var contentions = trial.GetProperty("runtime").GetProperty("lockContentions");
            Assert.Equal(1, contentions.GetProperty("count").GetInt32());
            Assert.InRange(contentions.GetProperty("totalMs").GetDouble(), 320, 480);
        }
    }

    [Fact]
    public async Task ATrialStoppedAtItsTimeout_KeepsWhatItsRuntimeReported_MarkedIncomplete()
    {
        using var folder = new TempFolder();

        // Each item collects garbage and then waits 3 s: the collections come at once, the region cannot end in 1 s.
        var result = await Run(folder, null, "run", "sleep", "--items", "4", "--wait-ms", "3000", "--collect", "--variants", "task-run-waitall", "--trial-timeout", "1");

        Assert.Equal(1, result.ExitCode);
        var trial = Trial(Variants(folder, result, expectOk: false)["task-run-waitall"]);
        Assert.Equal("timeout", trial.GetProperty("status").GetString());
        var account = trial.GetProperty("runtime");
        Assert.False(account.GetProperty("complete").GetBoolean());
        Assert.Contains("timed out", account.GetProperty("note").GetString(), StringComparison.Ordinal);
        Assert.True(account.GetProperty("gcCollections").GetInt32() >= 1, account.ToString());
    }

    [Fact]
    public async Task ARuntimeWithDiagnosticsTurnedOff_RunsAllTheSame_WithANoteInsteadOfAnAccount()
    {
        using var folder = new TempFolder();
        var result = await Run(folder, new Dictionary<string, string> { ["DOTNET_EnableDiagnostics"] = "0" }, "run", "sleep", "--items", "4", "--wait-ms", "20", "--variants", "whenall");

        var trial = Trial(Variants(folder, result)["whenall"]);
        Assert.Equal("ok", trial.GetProperty("status").GetString());
        var account = trial.GetProperty("runtime");
        Assert.False(account.GetProperty("complete").GetBoolean());
        Assert.Contains("never connected", account.GetProperty("note").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task EventsOff_GiveNoAccount_AndABadLevelIsOneLine()
    {
        using var folder = new TempFolder();
        var result = await Run(folder, null, "run", "sleep", "--items", "4", "--wait-ms", "20", "--variants", "whenall", "--events", "off");
        Assert.False(Trial(Variants(folder, result)["whenall"]).TryGetProperty("runtime", out _));

        var bad = await ProgramRunner.RunAsync(TestWorkloadsDll, folder.Path, ["run", "sleep", "--events", "some"]);
        Assert.Equal(2, bad.ExitCode);
        Assert.Single(bad.Error.Trim().Split('\n'));
        Assert.EndsWith("--events must be off, pool, full or stacks, not 'some'.", bad.Error.Trim(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task WithStacks_Sleeps_ALocksWaiter_AResultAndASocketRead_AreTimedByState_AtTheirOwnLines_WithinTenPercent()
    {
        using var folder = new TempFolder();
        var temporary = Directory.CreateDirectory(Path.Combine(folder.Path, "tmp")).FullName;
        var environment = new Dictionary<string, string> { ["TMPDIR"] = temporary };

        // 8 items that each sleep 500 ms: 4,000 ms asleep, which no wait event reports; the caller waits in WaitAll.
        var slept = await Run(folder, environment, "run", "sleep", "--items", "8", "--wait-ms", "500", "--variants", "task-run-waitall", "--events", "stacks");
        var trial = Trial(Variants(folder, slept)["task-run-waitall"]);
        var threads = trial.GetProperty("runtime").GetProperty("threads");
        Assert.InRange(threads.GetProperty("work").GetProperty("sleepingMs").GetDouble(), 3600, 4400);
        var site = threads.GetProperty("sites")[0];
        Assert.Equal(("sleeping", "ConcurrencyLab.TestWorkloads.SleepWorkload.Run", "System.Threading.Thread.Sleep"), (site.GetProperty("state").GetString(), site.GetProperty("site").GetString(), site.GetProperty("api").GetString()));
        Assert.Equal(Source("sleep"), Where(site));
        Assert.True(threads.GetProperty("caller").GetProperty("waitingMs").GetDouble() >= 0.8 * Metric(trial, "wallMs"), threads.ToString());
        Assert.Contains("SleepWorkload.Run", File.ReadAllText(Path.Combine(folder.Path, "out", "results.md")), StringComparison.Ordinal);

        // What reading the trace cost the lab is kept beside it: a trace was recorded, converted and walked.
        var cost = threads.GetProperty("read");
        Assert.True(cost.GetProperty("traceBytes").GetInt64() > 0 && cost.GetProperty("convertMs").GetDouble() > 0 && cost.GetProperty("walkMs").GetDouble() > 0, cost.ToString());

        // One item holds a lock 400 ms while sleeping; the other waits for it: 400 ms each, told apart.
        Directory.Delete(Path.Combine(folder.Path, "out"), recursive: true);
        var locked = await Run(folder, environment, "run", "lock", "--hold-ms", "400", "--variants", "threads", "--events", "stacks");
        var lockThreads = Trial(Variants(folder, locked)["threads"]).GetProperty("runtime").GetProperty("threads");
        var work = lockThreads.GetProperty("work");
        Assert.InRange(work.GetProperty("waitingMs").GetDouble(), 360, 440);
        Assert.InRange(work.GetProperty("sleepingMs").GetDouble(), 360, 440);
        var waiter = lockThreads.GetProperty("sites").EnumerateArray().Single(s => s.GetProperty("state").GetString() == "waiting");
        Assert.Equal(("ConcurrencyLab.TestWorkloads.HeldLockWorkload.Run", Source("lock")), (waiter.GetProperty("site").GetString(), Where(waiter)));

        // The runtime named the lock's owner as the wait began; its own samples say where it held the lock.
        var owner = waiter.GetProperty("owner");
        Assert.Equal(Source("lock", "holds"), Where(owner));
        Assert.InRange(owner.GetProperty("ms").GetDouble(), 360, 440);

        // Four items each blocked at least 500 ms on a task's Result: 2,000 ms waiting, at the item's own method. A
        // timer's task completes late on a busy machine (a trial of 600-650 ms under twelve spinning processes, the
        // waits 2,030-2,130 ms), so above, the bound is the four threads' time in the region.
        Directory.Delete(Path.Combine(folder.Path, "out"), recursive: true);
        var resulted = await Run(folder, environment, "run", "result", "--items", "4", "--wait-ms", "500", "--variants", "threads", "--events", "stacks");
        var resultTrial = Trial(Variants(folder, resulted)["threads"]);
        var blocked = resultTrial.GetProperty("runtime").GetProperty("threads");
        Assert.InRange(blocked.GetProperty("work").GetProperty("waitingMs").GetDouble(), 1800, Math.Max(2200, 4 * Metric(resultTrial, "wallMs")));
        var top = blocked.GetProperty("sites")[0];
        Assert.Equal(("waiting", "ConcurrencyLab.TestWorkloads.ResultWorkload.Run"), (top.GetProperty("state").GetString(), top.GetProperty("site").GetString()));
        Assert.StartsWith("System.Threading.Tasks.Task`1", top.GetProperty("api").GetString(), StringComparison.Ordinal);
        Assert.Equal(Source("result"), Where(top));

        // Four items each blocked 500 ms in a synchronous socket read, which no wait event reports: 2,000 ms in I/O.
        Directory.Delete(Path.Combine(folder.Path, "out"), recursive: true);
        var read = await Run(folder, environment, "run", "socket", "--items", "4", "--wait-ms", "500", "--variants", "threads", "--events", "stacks");
        var readTrial = Trial(Variants(folder, read)["threads"]);
        var reading = readTrial.GetProperty("runtime").GetProperty("threads");
        Assert.InRange(reading.GetProperty("work").GetProperty("ioMs").GetDouble(), 1800, Math.Max(2200, 4 * Metric(readTrial, "wallMs")));
        var socket = reading.GetProperty("sites")[0];
        Assert.Equal(("io", "ConcurrencyLab.TestWorkloads.SocketReadWorkload.Run", "System.Net.Sockets.Socket.Receive"), (socket.GetProperty("state").GetString(), socket.GetProperty("site").GetString(), socket.GetProperty("api").GetString()));
        Assert.Equal(Source("socket"), Where(socket));

        // The samples' files go with the run.
        Assert.Empty(Directory.GetFiles(temporary, "conclab-events-*"));
    }

    [Fact]
    public async Task WithStacks_DelaysPoolThreadsSleep_IsTheSumOfTheDelaysTheWorkloadDrew_WithinTenPercent_AtItsOwnLine()
    {
        using var folder = new TempFolder();

        // 100 items of 10 to 50 ms, drawn from the run's seed, each slept on a pool thread: the work's threads slept
        // the delays' sum, no more (the caller's wait is its own) and no less (nothing missed).
        var result = await ProgramRunner.ConclabAsync(folder.Path, "run", "delay", "--items", "100", "--variants", "threadpool", "--events", "stacks", "--repeat", "1", "--warmup", "0", "--seed", "7", "--out", "out", "--plain");
        var trial = Trial(Variants(folder, result)["threadpool"]);
        var threads = trial.GetProperty("runtime").GetProperty("threads");
        var work = threads.GetProperty("work");
        var blocked = work.GetProperty("waitingMs").GetDouble() + work.GetProperty("sleepingMs").GetDouble() + work.GetProperty("ioMs").GetDouble();
        var drawn = ConcurrencyLab.Experiments.Delay.DelayWorkload.DrawDelays(100, 10, 50, seed: 7).Sum();
        Assert.InRange(blocked, 0.9 * drawn, 1.1 * drawn);

        // One site, the workload's own: the lab calls items so that the JIT cannot inline them into its loop.
        var site = threads.GetProperty("sites")[0];
        Assert.Equal("ConcurrencyLab.Experiments.Delay.DelayWorkload.Run", site.GetProperty("site").GetString());
        Assert.True(site.GetProperty("ms").GetDouble() >= 0.95 * blocked, threads.ToString());
    }

    /// <summary>The file and line of the test workloads' line marked <c>// blocks: <paramref name="marker"/></c> (or another verb), as the lab says a site's.</summary>
    private static string Source(string marker, string verb = "blocks")
    {
        var lines = File.ReadAllLines(Path.Combine(ProgramRunner.RepositoryRoot, "tests", "ConcurrencyLab.TestWorkloads", "Workloads.cs"));
        return "Workloads.cs:" + (Array.FindIndex(lines, l => l.EndsWith($"// {verb}: {marker}", StringComparison.Ordinal)) + 1);
    }

    private static string Where(JsonElement site) =>
        site.TryGetProperty("file", out var file) && site.TryGetProperty("line", out var line) ? file.GetString() + ":" + line.GetInt32() : "no line in " + site;

    private static async Task<ProgramRunner.Result> Run(TempFolder folder, IReadOnlyDictionary<string, string>? environment, params string[] args) =>
        await ProgramRunner.RunProgramAsync("dotnet", folder.Path, [TestWorkloadsDll, .. args, .. args.Contains("--repeat") ? Array.Empty<string>() : ["--repeat", "1"], "--warmup", "0", "--out", "out", "--plain"], environment: environment);

    private static Dictionary<string, JsonElement> Variants(TempFolder folder, ProgramRunner.Result result, bool expectOk = true)
    {
        Assert.True(!expectOk || result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        return json.RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!, v => v.Clone());
    }

    private static JsonElement Trial(JsonElement variant) => variant.GetProperty("trials")[0];

    private static double Metric(JsonElement trial, string id) => trial.GetProperty("metrics").GetProperty(id).GetDouble();
}
