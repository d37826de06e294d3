using ConcurrencyLab.Hosting;
using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// <c>conclab serve</c>: fanout's services on their own, as a user puts them on hosts of their own or under
/// <c>conclab load</c>, started as real processes: they answer, say where, stop on SIGTERM and leave nothing. They run
/// beside other tests: they check answers, counts and a lower bound on latency, none of which a busy machine changes.
/// </summary>
public sealed partial class ServeEndToEndTests
{
    private static readonly TimeSpan Ready = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AnAddressThisHostLacks_OrAPortInUse_IsOneLine_Exit2_BeforeAnythingStarts()
    {
        using var folder = new TempFolder();

        // 192.0.2.1 (documentation only) is no address of this host: binding it fails at once, and nothing is sent.
        var absent = await ProgramRunner.ConclabAsync(folder.Path, "serve", "fanout-external", "--host", "192.0.2.1", "--allow-host", "192.0.2.1", "--port", "5001");
        Assert.True(absent.ExitCode == 2, absent.ToString());
        Assert.StartsWith("conclab: --port: 192.0.2.1:5001 is not an address of this host", absent.Error.Trim(), StringComparison.Ordinal);
        Assert.DoesNotContain("\n", absent.Error.Trim(), StringComparison.Ordinal);

        // A port in use: the product service says so before it starts its own external service.
        using var taken = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        taken.Start();
        var port = ((System.Net.IPEndPoint)taken.LocalEndpoint).Port;
        var busy = await ProgramRunner.ConclabAsync(folder.Path, "serve", "fanout-product", "--port", port.ToString(CultureInfo.InvariantCulture), "--http2-port", "0");
        Assert.True(busy.ExitCode == 2, busy.ToString());
        Assert.Equal($"conclab: --port: 127.0.0.1:{port} is in use.", busy.Error.Trim());
        Assert.DoesNotContain("##ChildProcessId", busy.Output + busy.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", busy.Output + busy.Error, StringComparison.Ordinal);
    }

    [SkippableFact]
    public async Task TheTwoServices_EachStartedByItself_AnswerAProduct_AndEndOnSigterm()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "signals as Linux sends them");
        using var folder = new TempFolder();
        using var external = RunningProgram.StartConclab(folder.Path, "serve", "fanout-external", "--port", "0", "--time-scale", "0.01");
        var (externalHttp1, externalHttp2) = await ListeningAsync(external);
        using var product = RunningProgram.StartConclab(folder.Path, "serve", "fanout-product", "--port", "0", "--external", externalHttp1, "--external-http2", externalHttp2);
        var (productHttp1, _) = await ListeningAsync(product);

        // Each endpoint makes its three calls its own way; the product is the same whichever makes them.
        using var client = new HttpClient { BaseAddress = new Uri(productHttp1) };
        foreach (var endpoint in new[] { "waitall", "whenall-async", "async-http2" })
        {
            using var answer = JsonDocument.Parse(await client.GetStringAsync(new Uri($"product/{endpoint}/3", UriKind.Relative)));
            Assert.Equal("Name 3", answer.RootElement.GetProperty("name").GetString());
            Assert.Equal(3000, answer.RootElement.GetProperty("price").GetInt64());
            Assert.Equal("Category 3", answer.RootElement.GetProperty("category").GetString());
        }

        product.Signal(15);
        external.Signal(15);
        Assert.Equal(0, await product.WaitAsync(TimeSpan.FromSeconds(15)));
        Assert.Equal(0, await external.WaitAsync(TimeSpan.FromSeconds(15)));
        Assert.DoesNotContain("   at ", product.Error + external.Error, StringComparison.Ordinal);
    }

    [SkippableFact]
    public async Task AServiceRunFromAWebProjectsFolder_TakesNoneOfItsSettings_NorEndpointsFromTheEnvironment()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "signals as Linux sends them");
        using var folder = new TempFolder();

        // A folder as an ASP.NET project's, whose appsettings.json is broken, and an environment naming a Kestrel
        // endpoint on a free loopback port: the services once crashed on the one and listened on the other.
        await File.WriteAllTextAsync(Path.Combine(folder.Path, "appsettings.json"), "{ \"Kestrel\": { not json");
        int stray;
        using (var probe = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0))
        {
            probe.Start();
            stray = ((System.Net.IPEndPoint)probe.LocalEndpoint).Port;
        }

        var environment = new Dictionary<string, string> { ["Kestrel__Endpoints__Stray__Url"] = $"http://127.0.0.1:{stray}" };
        using var product = RunningProgram.StartConclab(folder.Path, environment, "serve", "fanout-product", "--port", "0", "--http2-port", "0", "--time-scale", "0.01");
        var (productHttp1, _) = await ListeningAsync(product);

        // It answers, so its own external service (a child of the same folder and environment) started too.
        using var client = new HttpClient { BaseAddress = new Uri(productHttp1) };
        using var answer = JsonDocument.Parse(await client.GetStringAsync(new Uri("product/whenall-async/3", UriKind.Relative)));
        Assert.Equal("Name 3", answer.RootElement.GetProperty("name").GetString());

        using var connect = new System.Net.Sockets.TcpClient();
        await Assert.ThrowsAsync<System.Net.Sockets.SocketException>(() => connect.ConnectAsync(System.Net.IPAddress.Loopback, stray));

        product.Signal(15);
        Assert.Equal(0, await product.WaitAsync(TimeSpan.FromSeconds(15)));
        Assert.DoesNotContain("   at ", product.Error, StringComparison.Ordinal);
    }

    [SkippableFact]
    public async Task TheProductServiceAlone_StartsItsOwnExternal_WhichEndsWithIt_EvenWhenKilled()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "signals as Linux sends them, and /proc");
        using var folder = new TempFolder();
        // Not under crank's agent, the service names no child: its standard error is a person's to read.
        using (var plain = RunningProgram.StartConclab(folder.Path, "serve", "fanout-product", "--port", "0", "--http2-port", "0", "--time-scale", "0.01"))
        {
            await ListeningAsync(plain);
            plain.Signal(15);
            Assert.Equal(0, await plain.WaitAsync(TimeSpan.FromSeconds(15)));
            Assert.DoesNotContain("ChildProcessId", plain.Error, StringComparison.Ordinal);
        }

        var underCrank = new Dictionary<string, string> { ["CRANK_JOB_ID"] = "1" };
        foreach (var signal in new[] { 15, 9 })
        {
            using var product = RunningProgram.StartConclab(folder.Path, underCrank, "serve", "fanout-product", "--port", "0", "--http2-port", "0", "--time-scale", "0.01");
            var (address, _) = await ListeningAsync(product);

            // crank's agent learns of a child from this line on standard error, and then measures it too.
            Assert.True(await RunningProgram.UntilAsync(() => ChildLine().IsMatch(product.Error), Ready), product.ToString());
            var child = int.Parse(ChildLine().Match(product.Error).Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            Assert.True(RunningProgram.IsAlive(child), product.ToString());
            using var client = new HttpClient { BaseAddress = new Uri(address) };
            Assert.Contains("Name 5", await client.GetStringAsync(new Uri("product/whenall-async/5", UriKind.Relative)), StringComparison.Ordinal);

            // Stopped or killed outright, its external service ends too: it lives only while its standard input,
            // held by the product service, stays open.
            var startTime = ProcessIdentity.StartTimeOf(product.Id);
            product.Signal(signal);
            var exitCode = await product.WaitAsync(TimeSpan.FromSeconds(15));
            Assert.True(signal == 9 || exitCode == 0, $"exit {exitCode} after signal {signal}\n{product}");

            // A runtime killed outright leaves its diagnostics socket and debugger pipes: the test killed it, so the test removes them.
            if (signal == 9)
            {
                ProcessIdentity.RemoveDiagnosticsSocket(product.Id, startTime);
            }
            Assert.True(await RunningProgram.UntilAsync(() => !RunningProgram.IsAlive(child), TimeSpan.FromSeconds(15)), $"the external service {child} outlived signal {signal}");
        }
    }

    [SkippableFact]
    public async Task ConclabLoad_AgainstTheProductService_MeasuresEachPattern_WithItsRuntimeAccount()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "the service's CPU is read from /proc");
        using var folder = new TempFolder();

        // The published patterns' endpoints under open load, as docs/scenarios/fanout.md runs them at full scale:
        // here at a fiftieth of it (calls of 20 to 40 ms), and rates the blocking one keeps up with too.
        // Delays of its own (31, 40 and 20 ms), so its processes are told from other tests' by their command lines.
        var serve = $"dotnet {ProgramRunner.ConclabDll} serve fanout-product --port {{port}} --http2-port 0 --delays 1550,2000,1000 --time-scale 0.02";
        var result = await ProgramRunner.ConclabAsync(folder.Path, [
            "load", "--start", serve, "--ready", "http://127.0.0.1:{port}/health",
            "--endpoint", "waitall=/product/waitall/1", "--endpoint", "whenall-async=/product/whenall-async/1",
            "--rate", "2,4", "--step", "1", "--warmup", "0.3", "--timeout", "5", "--repeat", "1", "--out", "out", "--crank"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var variants = json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants").EnumerateArray().ToList();
        Assert.Equal(["waitall", "whenall-async"], variants.Select(v => v.GetProperty("name").GetString()));

        // As a crank job: each variant's fresh service named to the agent, and its own external service after it.
        var named = ChildLine().Matches(result.Error).Select(m => int.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture)).ToList();
        Assert.True(named.Count == 4 && named.Distinct().Count() == 4, result.ToString());
        Assert.EndsWith("#EndJobStatistics", result.Output.TrimEnd(), StringComparison.Ordinal);
        foreach (var step in variants.SelectMany(v => v.GetProperty("steps").EnumerateArray()))
        {
            Assert.Equal(step.GetProperty("planned").GetInt32(), step.GetProperty("completed").GetInt32());
            Assert.Equal(JsonValueKind.Object, step.GetProperty("runtime").ValueKind);
            Assert.True(step.GetProperty("serviceCpuMs").GetDouble() > 0, step.ToString());

            // Each request waits for its slowest call, 40 ms: no answer comes sooner.
            Assert.True(step.GetProperty("service").GetProperty("p50Ms").GetDouble() >= 40, step.ToString());
        }

        Assert.Empty(RunningProgram.ProcessesWith("1550,2000,1000"));
        Assert.Empty(RunningProgram.ProcessesWith("\"nameMs\":31,"));
    }

    [SkippableFact]
    public async Task ConclabLoad_OverHttp2_IsAnsweredWhereOnlyHttp2IsSpoken()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "signals as Linux sends them");
        using var folder = new TempFolder();
        using var external = RunningProgram.StartConclab(folder.Path, "serve", "fanout-external", "--port", "0", "--http2-port", "0", "--time-scale", "0.01");
        var (_, http2) = await ListeningAsync(external);

        // Kestrel's HTTP/2-only listener answers an HTTP/1.1 request with nothing it can read: the step over HTTP/2
        // completing its requests is the proof that they went over HTTP/2.
        foreach (var (overHttp2, output) in new[] { (true, "h2"), (false, "h1") })
        {
            var result = await ProgramRunner.ConclabAsync(folder.Path, [
                "load", "--url", http2 + "/", "--endpoint", "name=/name/1", "--rate", "50", "--step", "1", "--warmup", "0", "--timeout", "2",
                "--repeat", "1", "--out", output, .. overHttp2 ? new[] { "--http2" } : []]);
            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, output, "results.json")));
            var load = json.RootElement.GetProperty("scenarios")[0].GetProperty("load");
            Assert.Equal(overHttp2 ? "HTTP/2" : "HTTP/1.1", load.GetProperty("protocol").GetString());
            var steps = load.GetProperty("variants")[0].GetProperty("steps");
            if (overHttp2)
            {
                Assert.True(result.ExitCode == 0, result.ToString());
                Assert.Equal(steps[0].GetProperty("planned").GetInt32(), steps[0].GetProperty("completed").GetInt32());
                Assert.Contains("arrivals over HTTP/2", result.Output.ReplaceLineEndings(" "), StringComparison.Ordinal);
            }
            else
            {
                Assert.True(steps.GetArrayLength() == 0 || steps[0].GetProperty("completed").GetInt32() == 0, result.ToString());
            }
        }

        external.Signal(15);
        Assert.Equal(0, await external.WaitAsync(TimeSpan.FromSeconds(15)));
    }

    [SkippableFact]
    public async Task ConclabRunFanout_AgainstAProductServiceAlreadyRunning_MeasuresTheClientsSide_AndSaysWhatItCouldNot()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "signals as Linux sends them");
        using var folder = new TempFolder();
        using var product = RunningProgram.StartConclab(folder.Path, "serve", "fanout-product", "--port", "0", "--http2-port", "0", "--time-scale", "0.01");
        var (address, _) = await ListeningAsync(product);

        var run = await ProgramRunner.ConclabAsync(folder.Path, [
            "run", "fanout", "--product-url", address + "/", "--variants", "whenall-async@5,waitall@5", "--time-scale", "0.01",
            "--repeat", "2", "--warm-requests", "4", "--plain", "--out", "out"]);

        Assert.True(run.ExitCode == 0, run.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        foreach (var variant in scenario.GetProperty("variants").EnumerateArray())
        {
            Assert.Equal("ok", variant.GetProperty("status").GetString());

            // Every request waited for its slowest call (20 ms at this scale), and the service's side was not read.
            Assert.True(variant.GetProperty("summary").GetProperty("minWallMs").GetDouble() >= 20, variant.ToString());
            Assert.All(variant.GetProperty("trials").EnumerateArray(), t => Assert.False(t.GetProperty("metrics").TryGetProperty("serverPeakThreads", out _)));
        }

        Assert.Contains(scenario.GetProperty("notes").EnumerateArray(), n => n.GetString()!.Contains("already running: it was not started fresh for each trial", StringComparison.Ordinal));
        product.Signal(15);
        Assert.Equal(0, await product.WaitAsync(TimeSpan.FromSeconds(15)));
    }

    // The ready line's two addresses, once the service has written it.
    private static async Task<(string Http1, string Http2)> ListeningAsync(RunningProgram service)
    {
        Assert.True(await RunningProgram.UntilAsync(() => ReadyLine().IsMatch(service.Output), Ready), service.ToString());
        var match = ReadyLine().Match(service.Output);
        return (match.Groups[1].Value, match.Groups[2].Value);
    }

    [GeneratedRegex(@"^listening (http://127\.0\.0\.1:\d+) http2=(http://127\.0\.0\.1:\d+)$", RegexOptions.Multiline)]
    private static partial Regex ReadyLine();

    [GeneratedRegex(@"##ChildProcessId:(\d+)")]
    private static partial Regex ChildLine();
}
