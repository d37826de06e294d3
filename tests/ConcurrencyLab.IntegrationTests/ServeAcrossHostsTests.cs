using System.Text.Json;
using System.Text.RegularExpressions;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// fanout's services on two hosts of their own: two network namespaces this test makes, joined by a virtual cable, with
/// addresses inside them only (nothing leaves this machine). The product service on one calls the external service on
/// the other only where --allow-host names it, and conclab load on the first host loads the product service across.
/// </summary>
public sealed partial class ServeAcrossHostsTests
{
    [SkippableFact]
    public async Task TheProductService_CallsTheExternalService_OnAnotherHost_OnlyWhereAllowed()
    {
        Namespaces.Require();
        using var folder = new TempFolder();
        await using var spaces = new Namespaces();
        var hostA = await spaces.AddAsync("a");
        var hostB = await spaces.AddAsync("b");
        var (a, b) = await spaces.LinkAsync(hostA, hostB);

        // Host A: the external service. Host B: the product service, calling A.
        using var external = Namespaces.Start(hostA, folder.Path, "serve", "fanout-external", "--host", a, "--allow-host", a, "--port", "5001", "--http2-port", "5002", "--time-scale", "0.01");
        Assert.True(await RunningProgram.UntilAsync(() => Ready().IsMatch(external.Output), TimeSpan.FromSeconds(60)), external.ToString());

        // Without --allow-host for A, the product service refuses to call it: one line, exit 2, before it listens.
        var refused = await ProgramRunner.RunProgramAsync("ip", folder.Path, ["netns", "exec", hostB, "dotnet", ProgramRunner.ConclabDll, "serve", "fanout-product", "--host", b, "--allow-host", b, "--port", "5000", "--external", $"http://{a}:5001/"]);
        Assert.True(refused.ExitCode == 2, refused.ToString());
        Assert.Contains($"must be on loopback, not {a}, unless --allow-host names it", refused.Error, StringComparison.Ordinal);

        using var product = Namespaces.Start(hostB, folder.Path, "serve", "fanout-product", "--host", b, "--allow-host", b, "--port", "5000", "--external", $"http://{a}:5001/", "--allow-host", a);
        Assert.True(await RunningProgram.UntilAsync(() => Ready().IsMatch(product.Output), TimeSpan.FromSeconds(60)), product.ToString());

        // The load from host A, across to B, whose every request makes three calls back across to A.
        var load = await ProgramRunner.RunProgramAsync("ip", folder.Path, [
            "netns", "exec", hostA, "dotnet", ProgramRunner.ConclabDll, "load", "--url", $"http://{b}:5000/", "--allow-host", b,
            "--endpoint", "async=/product/whenall-async/1", "--endpoint", "http2=/product/async-http2/1",
            "--rate", "20", "--step", "1", "--warmup", "0.3", "--repeat", "1", "--out", "out"]);
        Assert.True(load.ExitCode == 0, load.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        foreach (var variant in json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants").EnumerateArray())
        {
            var step = variant.GetProperty("steps")[0];
            Assert.Equal(step.GetProperty("planned").GetInt32(), step.GetProperty("completed").GetInt32());

            // No answer comes before the slowest call across (20 ms at this scale).
            Assert.True(step.GetProperty("service").GetProperty("p50Ms").GetDouble() >= 20, step.ToString());
        }

        product.Signal(15);
        external.Signal(15);
        Assert.Equal(0, await product.WaitAsync(TimeSpan.FromSeconds(15)));
        Assert.Equal(0, await external.WaitAsync(TimeSpan.FromSeconds(15)));
    }

    [SkippableFact]
    public async Task FanoutsBurst_FromAThirdHost_IsAnsweredInFull_WithTheClientsRuntimeAccount()
    {
        Namespaces.Require();
        using var folder = new TempFolder();
        await using var spaces = new Namespaces();
        var (external, product, client) = (await spaces.AddAsync("ext"), await spaces.AddAsync("prod"), await spaces.AddAsync("cli"));

        // Two cables, no routing: the client reaches only the product service, which alone reaches the external one.
        var (externalAddress, productInward) = await spaces.LinkAsync(external, product);
        var (_, productOutward) = await spaces.LinkAsync(client, product);
        using var externalService = Namespaces.Start(external, folder.Path, "serve", "fanout-external", "--host", externalAddress, "--allow-host", externalAddress, "--port", "5001", "--http2-port", "5002", "--time-scale", "0.05");
        Assert.True(await RunningProgram.UntilAsync(() => Ready().IsMatch(externalService.Output), TimeSpan.FromSeconds(60)), externalService.ToString());
        using var productService = Namespaces.Start(product, folder.Path, "serve", "fanout-product", "--host", productOutward, "--allow-host", productOutward, "--port", "5000", "--http2-port", "5003",
            "--external", $"http://{externalAddress}:5001/", "--external-http2", $"http://{externalAddress}:5002/", "--allow-host", externalAddress);
        Assert.True(await RunningProgram.UntilAsync(() => Ready().IsMatch(productService.Output), TimeSpan.FromSeconds(60)), productService.ToString());
        Assert.NotEqual(productInward, productOutward);

        // The published patterns' burst, from the third host.
        var run = await ProgramRunner.RunProgramAsync("ip", folder.Path, [
            "netns", "exec", client, "dotnet", ProgramRunner.ConclabDll, "run", "fanout", "--product-url", $"http://{productOutward}:5000/", "--allow-host", productOutward,
            "--variants", "waitall@5,whenall-blocking@5,whenall-async@5,async-http2@5", "--time-scale", "0.05", "--repeat", "3", "--warm-requests", "4", "--plain", "--out", "out"]);

        Assert.True(run.ExitCode == 0, run.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        foreach (var variant in json.RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray())
        {
            // Every request answered, none sooner than its slowest call (100 ms at this scale), and the client's own
            // runtime account read as on one host.
            Assert.Equal("ok", variant.GetProperty("status").GetString());
            Assert.All(variant.GetProperty("trials").EnumerateArray(), t =>
            {
                Assert.Equal(5, t.GetProperty("itemsCompleted").GetInt32());
                Assert.Equal(0, t.GetProperty("metrics").GetProperty("errors").GetDouble());
            });
            Assert.True(variant.GetProperty("summary").GetProperty("minWallMs").GetDouble() >= 100, variant.ToString());
            Assert.Equal(JsonValueKind.Object, variant.GetProperty("account").ValueKind);
        }

        productService.Signal(15);
        externalService.Signal(15);
        Assert.Equal(0, await productService.WaitAsync(TimeSpan.FromSeconds(15)));
        Assert.Equal(0, await externalService.WaitAsync(TimeSpan.FromSeconds(15)));
    }

    [SkippableFact]
    public async Task ThePublishedOrdering_HoldsAcrossHosts_WhenEachPatternMeetsAFreshProductService()
    {
        Namespaces.Require();
        using var folder = new TempFolder();
        await using var spaces = new Namespaces();
        var (external, product, client) = (await spaces.AddAsync("ext"), await spaces.AddAsync("prod"), await spaces.AddAsync("cli"));
        var (externalAddress, _) = await spaces.LinkAsync(external, product);
        var (_, productAddress) = await spaces.LinkAsync(client, product);
        using var externalService = Namespaces.Start(external, folder.Path, "serve", "fanout-external", "--host", externalAddress, "--allow-host", externalAddress, "--port", "5001", "--http2-port", "5002", "--time-scale", "0.1");
        Assert.True(await RunningProgram.UntilAsync(() => Ready().IsMatch(externalService.Output), TimeSpan.FromSeconds(60)), externalService.ToString());

        // A product service that lives across trials keeps the threads its pool added for the last one, so a
        // blocking pattern would meet a warm pool: each pattern gets a product service of its own, started for it,
        // and one trial, as a trial on one host starts its own. The quick scale: calls of 150, 200 and 100 ms, and its
        // larger N, 15, whose 45 blocking calls need threads the pool only injects over seconds.
        var medians = new Dictionary<string, double>();
        foreach (var pattern in new[] { "waitall@15", "whenall-blocking@15", "whenall-async@15" })
        {
            using var productService = Namespaces.Start(product, folder.Path, "serve", "fanout-product", "--host", productAddress, "--allow-host", productAddress, "--port", "5000", "--http2-port", "5003",
                "--external", $"http://{externalAddress}:5001/", "--external-http2", $"http://{externalAddress}:5002/", "--allow-host", externalAddress);
            Assert.True(await RunningProgram.UntilAsync(() => Ready().IsMatch(productService.Output), TimeSpan.FromSeconds(60)), productService.ToString());
            var outFolder = "out-" + pattern.Replace('@', '-');
            var run = await ProgramRunner.RunProgramAsync("ip", folder.Path, [
                "netns", "exec", client, "dotnet", ProgramRunner.ConclabDll, "run", "fanout", "--product-url", $"http://{productAddress}:5000/", "--allow-host", productAddress,
                "--variants", pattern, "--time-scale", "0.1", "--repeat", "1", "--warmup", "0", "--plain", "--out", outFolder]);
            Assert.True(run.ExitCode == 0, run.ToString());
            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, outFolder, "results.json")));
            var variant = json.RootElement.GetProperty("scenarios")[0].GetProperty("variants")[0];
            Assert.Equal("ok", variant.GetProperty("status").GetString());
            Assert.Equal(15, variant.GetProperty("trials")[0].GetProperty("itemsCompleted").GetInt32());
            medians[pattern] = variant.GetProperty("summary").GetProperty("medianWallMs").GetDouble();
            productService.Signal(15);
            Assert.Equal(0, await productService.WaitAsync(TimeSpan.FromSeconds(15)));
        }

        // The post's ordering: the async client ahead of both blocking ones, by 3x or more. At N = 5 the gap was too
        // small to assert so (213-226 ms against 332-836 for whenall-blocking, whose pool sometimes injected its
        // threads in time); at N = 15, twice, 219-224 ms against 5,085-6,567 (waitall) and 4,715-8,517 (whenall-blocking).
        var summary = string.Join(", ", medians.Select(m => $"{m.Key} {m.Value:0} ms"));
        Assert.True(medians["waitall@15"] >= 3 * medians["whenall-async@15"], summary);
        Assert.True(medians["whenall-blocking@15"] >= 3 * medians["whenall-async@15"], summary);

        externalService.Signal(15);
        Assert.Equal(0, await externalService.WaitAsync(TimeSpan.FromSeconds(15)));
    }

    [GeneratedRegex(@"^listening http://\S+ http2=http://\S+$", RegexOptions.Multiline)]
    private static partial Regex Ready();
}
