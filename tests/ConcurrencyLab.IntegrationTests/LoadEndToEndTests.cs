using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// <c>conclab load</c> against samples/MyService, started by the lab as a user would start theirs: what it measures,
/// what it keeps when the service fails, and what it leaves behind (nothing).
/// </summary>
[Collection(LoadTests.Name)]
public sealed class LoadEndToEndTests(SampleServiceBuild sample)
{
    private static string[] Start(string dll) =>
        ["--start", $"dotnet {dll} --urls http://127.0.0.1:{{port}}", "--ready", "http://127.0.0.1:{port}/health"];

    [SkippableFact]
    public async Task TheSample_UnderSteppedLoad_TheLockSaturatesBelowTheAsyncEndpoint_WithTheRuntimesAccount()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "the service's CPU and leftovers are read from /proc and /tmp");
        var dll = await sample.DllAsync();
        using var folder = new TempFolder();
        var temp = Directory.CreateDirectory(Path.Combine(folder.Path, "tmp")).FullName;

        // The lock lets about 480 requests a second through (2 ms each, one at a time); the async endpoint keeps up with
        // thousands on 2 cores. At 1,500 a second the gap is three times or more.
        // The run and its services have a temporary folder of their own, so what is left there is theirs alone.
        var result = await Conclab(folder.Path, temp, [
            "load", .. Start(dll), "--endpoint", "async=/orders/async", "--endpoint", "locked=/orders/locked",
            "--rate", "50,1500", "--step", "1", "--warmup", "0.3", "--timeout", "2", "--repeat", "1", "--out", "out"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var load = json.RootElement.GetProperty("scenarios")[0].GetProperty("load");
        var variants = load.GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!);
        Assert.Equal(["async", "locked"], variants.Keys.Order());
        foreach (var variant in variants.Values)
        {
            var steps = variant.GetProperty("steps").EnumerateArray().ToList();
            Assert.Equal([50.0, 1500.0], steps.Select(s => s.GetProperty("offeredPerSecond").GetDouble()));
            Assert.All(steps, s => Assert.Equal(JsonValueKind.Object, s.GetProperty("runtime").ValueKind));
            Assert.All(steps, s => Assert.True(s.GetProperty("serviceCpuMs").GetDouble() > 0));
            Assert.Equal(s50(steps).GetProperty("planned").GetInt32(), s50(steps).GetProperty("completed").GetInt32());
        }

        var locked = variants["locked"];
        Assert.Equal(50, locked.GetProperty("saturation").GetProperty("ratePerSecond").GetDouble());
        var lockedAt1500 = locked.GetProperty("steps")[1];
        Assert.True(lockedAt1500.GetProperty("runtime").GetProperty("lockContentions").GetProperty("count").GetInt32() > 0, lockedAt1500.ToString());
        Assert.Contains("locked keeps up to 50/s", result.Output, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(folder.Path, "out", "charts", "load-latency.svg")));
        Assert.Contains("<table class=\"load-steps\">", await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "report.html")), StringComparison.Ordinal);

        // Every service stopped, and nothing of theirs left in the temporary folder.
        Assert.Empty(RunningProgram.ProcessesWith(dll));
        Assert.Empty(Directory.EnumerateFileSystemEntries(temp));

        static JsonElement s50(List<JsonElement> steps) => steps[0];
    }

    [SkippableFact]
    public async Task AServiceThatNeverBecomesReady_FailsInOneLine_WithItsLastOutput()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "a shell command as the service");
        using var folder = new TempFolder();

        var result = await ProgramRunner.ConclabAsync(folder.Path, [
            "load", "--start", "sh -c 'echo the database is down >&2; exit 3'", "--ready", "http://127.0.0.1:{port}/health",
            "--endpoint", "a=/a", "--endpoint", "b=/b", "--rate", "10", "--step", "1", "--out", "out"]);

        Assert.True(result.ExitCode == 1, result.ToString());
        var said = result.Output.ReplaceLineEndings(string.Empty);
        Assert.Contains("a: repeat 1: not measured further: the service exited with code 3 before http://127.0.0.1:", said, StringComparison.Ordinal);
        Assert.Contains("its last output: the database is down", said, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", result.Output + result.Error, StringComparison.Ordinal);

        // Stopped after the first variant: the second would have failed the same way.
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var b = json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[1];
        Assert.Equal(0, b.GetProperty("steps").GetArrayLength());
        Assert.Equal(0, b.GetProperty("notes").GetArrayLength());
    }

    [SkippableFact]
    public async Task AStartCommandThatForksItsServerAndExits_IsAFailedStart_AndLeavesNothingRunning()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "a shell command as the service, and its process group read from /proc");
        using var folder = new TempFolder();

        // As many start scripts do: the server in the background, the script gone at once. The "server" here listens on
        // nothing; what matters is that it is still running when the script has exited, and must not be afterwards.
        var marker = $"{317 + (Environment.ProcessId % 97)}.{Random.Shared.Next(100, 999)}";
        var result = await ProgramRunner.ConclabAsync(folder.Path, [
            "load", "--start", $"sh -c 'sleep {marker} & exit 0'", "--ready", "http://127.0.0.1:{port}/health",
            "--endpoint", "a=/a", "--rate", "10", "--step", "1", "--out", "out"]);

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains("the service exited with code 0 before", result.Output.ReplaceLineEndings(string.Empty), StringComparison.Ordinal);
        Assert.True(await RunningProgram.UntilAsync(() => RunningProgram.ProcessesWith($"sleep\0{marker}").Count == 0 && RunningProgram.ProcessesWith($"sleep {marker}").Count == 0, TimeSpan.FromSeconds(5)), "the forked server was left running");
    }

    [Fact]
    public async Task AUrlWhereNothingListens_FailsInOneLine_WithoutAStepOfFailedRequests()
    {
        using var folder = new TempFolder();
        int port;
        using (var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0))
        {
            listener.Start();
            port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        }

        var result = await ProgramRunner.ConclabAsync(folder.Path, ["load", "--url", $"http://127.0.0.1:{port}/", "--endpoint", "a=/a", "--rate", "10", "--step", "1", "--out", "out"]);

        Assert.True(result.ExitCode == 1, result.ToString());
        Assert.Contains($"a: repeat 1: not measured: nothing answered at http://127.0.0.1:{port}/ (ConnectionError)", result.Output.ReplaceLineEndings(string.Empty), StringComparison.Ordinal);
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        Assert.Equal(0, json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[0].GetProperty("steps").GetArrayLength());
    }

    [SkippableFact]
    public async Task AServiceThatDiesMidRun_IsRecorded_AndTheStepsBeforeAreKept()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "a shell that kills the service");
        var dll = await sample.DllAsync();
        using var folder = new TempFolder();
        var temp = Directory.CreateDirectory(Path.Combine(folder.Path, "tmp")).FullName;

        // The shell is the service the lab started: it ends, killing the real one, about 4 s in.
        var command = $"sh -c 'dotnet {dll} --urls http://127.0.0.1:$0 & child=$!; sleep 4; kill -9 $child; exit 9' {{port}}";
        var result = await Conclab(folder.Path, temp, [
            "load", "--start", command, "--ready", "http://127.0.0.1:{port}/health", "--endpoint", "async=/orders/async",
            "--rate", "20,21,22,23,24,25,26,27,28,29", "--step", "1", "--warmup", "0", "--out", "out", "--repeat", "1"]);

        Assert.True(result.ExitCode == 1, result.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var variant = json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[0];
        var steps = variant.GetProperty("steps").EnumerateArray().ToList();
        Assert.True(steps.Count is > 0 and < 10, result.ToString());
        Assert.Contains(steps, s => !s.GetProperty("stopped").GetBoolean());
        Assert.Contains(variant.GetProperty("notes").EnumerateArray(), n => n.GetString()!.Contains("the service exited (code 9)", StringComparison.Ordinal));
        Assert.Empty(RunningProgram.ProcessesWith(dll));
        Assert.Empty(Directory.EnumerateFileSystemEntries(temp));
    }

    [SkippableFact]
    public async Task CtrlC_KeepsTheFinishedSteps_AndStopsTheService()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "signals as Linux sends them");

        // A background job's processes ignore SIGINT, and conclab inherits that, as a program started so should.
        Skip.If(InterruptionTests.Ignored(2), "SIGINT is ignored in this test run's process (a background job's), so conclab inherits that");
        var dll = await sample.DllAsync();
        using var folder = new TempFolder();
        using var run = RunningProgram.StartConclab(folder.Path, ["load", .. Start(dll), "--endpoint", "async=/orders/async", "--rate", "20,40,80,160,320,640", "--step", "2", "--warmup", "0", "--out", "out"]);
        Assert.True(await RunningProgram.UntilAsync(() => run.Output.Contains("async at 20/s", StringComparison.Ordinal), TimeSpan.FromSeconds(60)), run.ToString());

        run.Signal(2);
        var exitCode = await run.WaitAsync(TimeSpan.FromSeconds(30));

        Assert.True(exitCode == 130, $"exit {exitCode}\n{run}");
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        Assert.True(json.RootElement.GetProperty("cancelled").GetBoolean());
        var steps = json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[0].GetProperty("steps");
        Assert.True(steps.GetArrayLength() >= 1);
        Assert.Empty(RunningProgram.ProcessesWith(dll));
    }

    [SkippableFact]
    public async Task TwoCommands_AreTwoVariants_EachStartedWithItsOwn()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "the service's CPU is read from /proc");
        var dll = await sample.DllAsync();
        using var folder = new TempFolder();

        // Two "builds" of a service: the same one with and without a pool minimum, which the lab knows only by command.
        var result = await ProgramRunner.ConclabAsync(folder.Path, [
            "load", "--start", $"plain=dotnet {dll} --urls http://127.0.0.1:{{port}}",
            "--start", $"floor=env DOTNET_ThreadPool_ForceMinWorkerThreads=64 dotnet {dll} --urls http://127.0.0.1:{{port}}",
            "--ready", "http://127.0.0.1:{port}/health", "--endpoint", "sync=/orders/sync",
            "--rate", "20", "--step", "1", "--warmup", "0.3", "--repeat", "1", "--out", "out"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var variants = json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants").EnumerateArray().ToList();
        Assert.Equal(["plain", "floor"], variants.Select(v => v.GetProperty("name").GetString()));
        Assert.StartsWith("env DOTNET_ThreadPool_ForceMinWorkerThreads=64 ", variants[1].GetProperty("command").GetString(), StringComparison.Ordinal);
        Assert.All(variants, v => Assert.Equal(JsonValueKind.Object, v.GetProperty("steps")[0].GetProperty("runtime").ValueKind));

        // The floor shows in the runtime's own account: that service's pool started at 100 threads or more (the runtime
        // reads every DOTNET_ number as hexadecimal: 0x64; a raise before the window opened makes it 101), the other's at a handful.
        Assert.InRange(variants[1].GetProperty("steps")[0].GetProperty("runtime").GetProperty("poolTargetAtStart").GetInt32(), 100, 110);
        Assert.True(variants[0].GetProperty("steps")[0].GetProperty("runtime").GetProperty("poolTargetAtStart").GetInt32() < 33);
        Assert.Empty(RunningProgram.ProcessesWith(dll));
    }

    [SkippableFact]
    public async Task AServiceAlreadyRunning_NamedByPid_GetsItsRuntimesAccount_AndAnotherProcessIsRefused()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "which process listens is read from /proc");
        var dll = await sample.DllAsync();
        using var folder = new TempFolder();
        var port = LoadAgainstWrkTests.FreePort();
        using var service = RunningProgram.Start("dotnet", folder.Path, [dll, "--urls", $"http://127.0.0.1:{port}"]);
        using var client = new HttpClient();
        Assert.True(await RunningProgram.UntilAsync(() => LoadAgainstWrkTests.Healthy(client, port), TimeSpan.FromSeconds(30)), service.ToString());

        // Another user's process (where this test may start one): never read, whatever it listens on.
        using var others = Environment.UserName == "root" && File.Exists("/usr/bin/setpriv")
            ? RunningProgram.Start("/usr/bin/setpriv", folder.Path, ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sleep", "60"])
            : null;

        // The service's own process, then this test's, which does not listen on the service's port, then the other user's.
        var cases = new List<(int Pid, bool IsService)> { (service.Id, true), (Environment.ProcessId, false) };
        if (others is not null)
        {
            cases.Add((others.Id, false));
        }

        foreach (var (pid, isService) in cases)
        {
            var output = isService ? "attached" : $"refused-{pid}";
            var result = await ProgramRunner.ConclabAsync(folder.Path, [
                "load", "--url", $"http://127.0.0.1:{port}/", "--pid", pid.ToString(System.Globalization.CultureInfo.InvariantCulture),
                "--endpoint", "sync=/orders/sync", "--rate", "300", "--step", "1", "--warmup", "0.3", "--repeat", "1", "--out", output]);

            // An account asked for and not read is a part of the run that failed (exit 1); the steps are all kept.
            Assert.True(result.ExitCode == (isService ? 0 : 1), result.ToString());
            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, output, "results.json")));
            var load = json.RootElement.GetProperty("scenarios")[0].GetProperty("load");
            var variant = load.GetProperty("variants")[0];
            var step = variant.GetProperty("steps")[0];
            if (isService)
            {
                // At 300 a second the sync endpoint blocks more pool threads in Task.Wait than the pool starts with: the pool's
                // own account of what it added for them is there.
                var runtime = step.GetProperty("runtime");
                Assert.Equal(JsonValueKind.Object, runtime.ValueKind);
                Assert.Contains(runtime.GetProperty("poolAdjustments").EnumerateArray(), a => a.GetProperty("reason").GetString() == "cooperativeBlocking");
                Assert.True(step.GetProperty("serviceCpuMs").GetDouble() > 0, step.ToString());
                Assert.Equal(pid, load.GetProperty("processId").GetInt32());
                Assert.Contains($"already running as process {pid}", result.Output.ReplaceLineEndings(" "), StringComparison.Ordinal);
            }
            else
            {
                Assert.False(step.TryGetProperty("runtime", out var none) && none.ValueKind == JsonValueKind.Object, step.ToString());
                var why = pid == others?.Id ? "runs as another user" : $"does not listen on port {port}";
                Assert.Contains(variant.GetProperty("notes").EnumerateArray(), n => n.GetString()!.Contains(why, StringComparison.Ordinal));
            }
        }

        // The service the lab did not start goes on running.
        Assert.True(RunningProgram.IsAlive(service.Id));
        service.Signal(15);
        Assert.NotNull(await service.WaitAsync(TimeSpan.FromSeconds(10)));
    }

    private static Task<ProgramRunner.Result> Conclab(string folder, string temp, string[] args) =>
        ProgramRunner.RunProgramAsync("dotnet", folder, args.Prepend(ProgramRunner.ConclabDll), environment: new Dictionary<string, string> { ["TMPDIR"] = temp });
}

/// <summary>
/// The tests that load a service: one at a time, and alone, after the tests that run in parallel (each measures what a
/// service answers on 2 cores, which a neighbour's work would change), sharing one build of the sample.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class LoadTests : ICollectionFixture<SampleServiceBuild>
{
    public const string Name = "conclab load";
}

/// <summary>samples/MyService built once for the tests that load it, as docs/load.md builds it, into a folder of its own that is deleted after.</summary>
public sealed class SampleServiceBuild : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "conclab-it-myservice-" + Guid.NewGuid().ToString("N")[..12]);
    private readonly Lazy<Task<string>> _dll;

    public SampleServiceBuild() => _dll = new(BuildAsync);

    /// <summary>The built service; the build happens at the first call.</summary>
    public Task<string> DllAsync() => _dll.Value;

    private async Task<string> BuildAsync()
    {
        var built = await ProgramRunner.RunProgramAsync("dotnet", ProgramRunner.RepositoryRoot, ["build", Path.Combine("samples", "MyService"), "-c", "Release", "-o", _output, "-nologo", "-v", "q"], TimeSpan.FromMinutes(3));
        Assert.True(built.ExitCode == 0, built.ToString());
        return Path.Combine(_output, "MyService.dll");
    }

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }
}

/// <summary>The lab's closed loop against wrk's, a load tool nobody here wrote, on the same endpoint: the check that the lab's client counts right.</summary>
[Collection(LoadTests.Name)]
public sealed class LoadAgainstWrkTests(SampleServiceBuild sample)
{
    [SkippableFact]
    public async Task AClosedLoop_AgreesWithWrk_WithinTenPercent()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "wrk as Debian packages it");
        var wrk = new[] { "/usr/bin/wrk", "/usr/local/bin/wrk" }.FirstOrDefault(File.Exists);
        Skip.If(wrk is null && Environment.GetEnvironmentVariable("CONCLAB_REQUIRE_WRK") != "1", "wrk is not installed (.ci/run installs it: apt-get install wrk)");
        Assert.True(wrk is not null, "CONCLAB_REQUIRE_WRK=1 but wrk is not installed");
        var dll = await sample.DllAsync();
        using var folder = new TempFolder();

        // One service for both, loaded in turn, twice each (lab, wrk, lab, wrk), so a machine that slows down or warms
        // up partway shows in both. 16 connections on an endpoint that answers after 20 ms: about 750 requests a
        // second, well inside what either client sends on 2 cores, so a difference is a difference in counting.
        var port = FreePort();
        using var service = RunningProgram.Start("dotnet", folder.Path, [dll, "--urls", $"http://127.0.0.1:{port}"]);
        using var client = new HttpClient();
        Assert.True(await RunningProgram.UntilAsync(() => Healthy(client, port), TimeSpan.FromSeconds(30)), service.ToString());
        var url = $"http://127.0.0.1:{port}/orders/async";
        var (lab, byWrk) = (new List<double>(), new List<double>());
        var said = new System.Text.StringBuilder();
        for (var round = 0; round < 2; round++)
        {
            var output = $"out{round}";
            var labRun = await ProgramRunner.ConclabAsync(folder.Path, [
                "load", "--url", $"http://127.0.0.1:{port}/", "--endpoint", "async=/orders/async", "--connections", "16", "--step", "3", "--warmup", "1", "--repeat", "1", "--out", output]);
            Assert.True(labRun.ExitCode == 0, labRun.ToString());
            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, output, "results.json")));
            lab.Add(json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[0].GetProperty("steps")[0].GetProperty("completedPerSecond").GetDouble());

            await ProgramRunner.RunProgramAsync(wrk!, folder.Path, ["-t1", "-c16", "-d1s", url]);
            var measured = await ProgramRunner.RunProgramAsync(wrk!, folder.Path, ["-t1", "-c16", "-d3s", url]);
            Assert.True(measured.ExitCode == 0, measured.ToString());
            var line = measured.Output.Split('\n').Single(l => l.StartsWith("Requests/sec:", StringComparison.Ordinal));
            byWrk.Add(double.Parse(line["Requests/sec:".Length..].Trim(), System.Globalization.CultureInfo.InvariantCulture));
            said.Append(labRun.Output).Append(measured.Output);
        }

        service.Signal(15);
        Assert.NotNull(await service.WaitAsync(TimeSpan.FromSeconds(10)));
        var (labRate, wrkRate) = (lab.Average(), byWrk.Average());
        Assert.True(Math.Abs(labRate - wrkRate) / wrkRate <= 0.10, $"lab {string.Join(", ", lab.Select(r => r.ToString("0")))} requests/s, wrk {string.Join(", ", byWrk.Select(r => r.ToString("0")))}\n{said}");
    }

    internal static bool Healthy(HttpClient client, int port)
    {
        try
        {
            return client.GetAsync(new Uri($"http://127.0.0.1:{port}/health")).GetAwaiter().GetResult().IsSuccessStatusCode;
        }
        catch (HttpRequestException)
        {
            return false;
        }
    }

    internal static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }
}
