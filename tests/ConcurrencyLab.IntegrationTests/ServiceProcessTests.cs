using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Experiments.Fanout;
using ConcurrencyLab.Experiments.Hosting;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// A scenario's HTTP service in a process of its own: conclab started in service mode answers on loopback,
/// waits without holding threads, and leaves nothing listening once stopped.
/// </summary>
public sealed class ServiceProcessTests
{
    private static SelfLauncher Conclab => new("dotnet", [ProgramRunner.ConclabDll]);

    [Fact]
    public async Task ExternalService_StartsAnswersWaitsAndStops()
    {
        var service = await ServiceProcess.StartAsync(Conclab, ExternalService.Definition, new ExternalServiceSettings(NameMs: 150, PriceMs: 300, CategoryMs: 100), TimeSpan.FromSeconds(30));
        IPEndPoint[] endPoints =
        [
            new(IPAddress.Parse(service.BaseAddress.Host), service.BaseAddress.Port),
            new(IPAddress.Parse(service.Http2Address.Host), service.Http2Address.Port),
        ];
        try
        {
            Assert.Equal("127.0.0.1", service.BaseAddress.Host);
            Assert.NotEqual(Environment.ProcessId, service.ProcessId);
            using var client = new HttpClient { BaseAddress = service.BaseAddress };

            var watch = Stopwatch.StartNew();
            Assert.Equal("7000", await client.GetStringAsync(new Uri("price/7", UriKind.Relative)));
            Assert.True(watch.ElapsedMilliseconds >= 300, $"answered after {watch.ElapsedMilliseconds} ms, before its 300 ms delay");
            Assert.Equal("Name 7", await client.GetStringAsync(new Uri("name/7", UriKind.Relative)));
            Assert.Equal("Category 7", await client.GetStringAsync(new Uri("category/7", UriKind.Relative)));

            // 40 requests of 300 ms at once: one after another they would take 12 s; waiting together, a fraction of it.
            watch.Restart();
            var answers = await Task.WhenAll(Enumerable.Range(0, 40).Select(i => client.GetStringAsync(new Uri($"price/{i}", UriKind.Relative))));
            Assert.Equal(Enumerable.Range(0, 40).Select(i => (i * 1000L).ToString(System.Globalization.CultureInfo.InvariantCulture)), answers);
            Assert.True(watch.ElapsedMilliseconds < 40 * 300 / 3, $"40 concurrent requests took {watch.ElapsedMilliseconds} ms");

            // The second listener speaks HTTP/2 without TLS.
            using var http2 = new HttpClient { BaseAddress = service.Http2Address, DefaultRequestVersion = HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
            using var answer = await http2.GetAsync(new Uri("category/3", UriKind.Relative));
            Assert.Equal(HttpVersion.Version20, answer.Version);
            Assert.Equal("Category 3", await answer.Content.ReadAsStringAsync());
        }
        finally
        {
            await service.DisposeAsync();
        }

        Assert.False(service.IsRunning);
        foreach (var endPoint in endPoints)
        {
            using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            var refused = await Assert.ThrowsAsync<SocketException>(async () => await probe.ConnectAsync(endPoint));
            Assert.Equal(SocketError.ConnectionRefused, refused.SocketErrorCode);
        }
    }

    [Fact]
    public async Task ProductService_EveryEndpoint_BuildsTheProductFromTheExternalService()
    {
        await using var external = await ServiceProcess.StartAsync(Conclab, ExternalService.Definition, new ExternalServiceSettings(100, 200, 50), TimeSpan.FromSeconds(30));
        await using var product = await ServiceProcess.StartAsync(Conclab, ProductService.Definition, new ProductServiceSettings(external.BaseAddress.ToString(), external.Http2Address.ToString(), MinThreads: 0, MaxConnections: 64), TimeSpan.FromSeconds(30));
        using var client = new HttpClient { BaseAddress = product.BaseAddress };

        foreach (var (variant, _) in ProductService.Variants)
        {
            var watch = Stopwatch.StartNew();
            using var answer = System.Text.Json.JsonDocument.Parse(await client.GetStringAsync(new Uri($"product/{variant}/5", UriKind.Relative)));

            Assert.Equal(5, answer.RootElement.GetProperty("id").GetInt32());
            Assert.Equal("Name 5", answer.RootElement.GetProperty("name").GetString());
            Assert.Equal(5000, answer.RootElement.GetProperty("price").GetInt64());
            Assert.Equal("Category 5", answer.RootElement.GetProperty("category").GetString());
            Assert.True(watch.ElapsedMilliseconds >= 200, $"{variant} answered in {watch.ElapsedMilliseconds} ms, before the slowest call's 200 ms");
        }
    }

    [Fact]
    public async Task ProductService_StartedBeforeItsSettings_ServesOnceTold_AndStillRefusesWhatItCannotServe()
    {
        // The product service starts first and is told the external's addresses once that one listens, as a trial does.
        var told = new TaskCompletionSource<ProductServiceSettings>(TaskCreationOptions.RunContinuationsAsynchronously);
        var productStarting = ServiceProcess.StartAsync(Conclab, ProductService.Definition, told.Task, TimeSpan.FromSeconds(60));
        await WaitForServiceAsync(LateProduct, present: true);
        Assert.False(productStarting.IsCompleted, "the service came up before it was told its settings");

        await using var external = await ServiceProcess.StartAsync(Conclab, ExternalService.Definition, new ExternalServiceSettings(100, 200, 50), TimeSpan.FromSeconds(30));
        told.SetResult(new ProductServiceSettings(external.BaseAddress.ToString(), external.Http2Address.ToString(), MinThreads: 0, MaxConnections: 64));
        await using var product = await productStarting;
        using var client = new HttpClient { BaseAddress = product.BaseAddress };
        using var answer = System.Text.Json.JsonDocument.Parse(await client.GetStringAsync(new Uri("product/async-http2/9", UriKind.Relative)));
        Assert.Equal("Name 9", answer.RootElement.GetProperty("name").GetString());

        // Settings told late are checked as those given at the start are.
        var offLoopback = new TaskCompletionSource<ProductServiceSettings>(TaskCreationOptions.RunContinuationsAsynchronously);
        var refusing = ServiceProcess.StartAsync(Conclab, ProductService.Definition, offLoopback.Task, TimeSpan.FromSeconds(60));
        offLoopback.SetResult(new ProductServiceSettings("http://127.0.0.1:80/", "http://10.0.0.1:80/", 0, 8));
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => refusing);
        Assert.Contains("must be on loopback", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SettingsThatNeverCome_StopTheWaitingService_AndTheirOwnErrorIsThrown()
    {
        var told = new TaskCompletionSource<ProductServiceSettings>(TaskCreationOptions.RunContinuationsAsynchronously);
        var starting = ServiceProcess.StartAsync(Conclab, ProductService.Definition, told.Task, TimeSpan.FromSeconds(60));
        await WaitForServiceAsync(LateProduct, present: true);

        told.SetException(new TimeoutException("the external service never listened"));
        var error = await Assert.ThrowsAsync<TimeoutException>(() => starting);

        Assert.Equal("the external service never listened", error.Message);
        await WaitForServiceAsync(LateProduct, present: false);
    }

    // A product service started to be told its settings later: its command line ends in the placeholder.
    private static readonly string LateProduct = string.Join('\0', ServiceDefinition.Argument, ProductService.Name, ServiceHost.SettingsOnInput) + "\0";

    // Waits until a child of this process runs with that command line, read from /proc (or until none does), for at most 30 s.
    private static async Task WaitForServiceAsync(string commandLineEnd, bool present)
    {
        var watch = Stopwatch.StartNew();
        while (Running(commandLineEnd) != present)
        {
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(30), $"no service {(present ? "started" : "ended")} within 30 s");
            await Task.Delay(20);
        }

        static bool Running(string end) => Directory.EnumerateDirectories("/proc").Any(folder =>
        {
            try
            {
                // The parent's id is the fourth field of stat, after the name in brackets.
                var stat = File.ReadAllText(Path.Combine(folder, "stat"));
                var parent = stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[1];
                return parent == Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture)
                    && File.ReadAllText(Path.Combine(folder, "cmdline")).EndsWith(end, StringComparison.Ordinal);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                return false;
            }
        });
    }

    [Fact]
    public async Task PrimingRequests_SkipTheDelay_AndTheServiceMeasuresItself()
    {
        // A ten-minute delay: a priming request that waited for it would time the test out.
        await using var external = await ServiceProcess.StartAsync(Conclab, ExternalService.Definition, new ExternalServiceSettings(600_000, 600_000, 600_000), TimeSpan.FromSeconds(30));
        using var client = new HttpClient { BaseAddress = external.BaseAddress, Timeout = TimeSpan.FromSeconds(60) };

        await external.StartMeasuringAsync();
        var answers = await Task.WhenAll(Enumerable.Range(1, 20).Select(i => client.GetStringAsync(new Uri($"name/-{i}", UriKind.Relative))));
        var measured = await external.StopMeasuringAsync();

        Assert.Equal(Enumerable.Range(1, 20).Select(i => $"Name -{i}"), answers);
        Assert.True(measured.WallMs > 0);
        Assert.True(measured.PeakThreads > 0, "the service read no threads of its own");
        Assert.True(measured.UserCpuMs + measured.SystemCpuMs > 0, "the service read no CPU for answering 20 requests");
    }

    [Fact]
    public async Task AServiceThatDied_FailsItsCommandWithAReason_AndStillDisposes_RemovingTheSocketItLeft()
    {
        var service = await ServiceProcess.StartAsync(Conclab, ExternalService.Definition, new ExternalServiceSettings(10, 10, 10), TimeSpan.FromSeconds(30));
        await service.StartMeasuringAsync();
        var socket = $"dotnet-diagnostic-{service.ProcessId}-*-socket";
        Assert.Single(Directory.EnumerateFileSystemEntries(Path.GetTempPath(), socket));
        using (var process = Process.GetProcessById(service.ProcessId))
        {
            process.Kill();
            await process.WaitForExitAsync();
        }

        var error = await Assert.ThrowsAnyAsync<Exception>(() => service.StopMeasuringAsync());
        Assert.True(error is InvalidOperationException or IOException, error.ToString());

        // Killed outright, the runtime could not delete its diagnostics socket; disposing does.
        Assert.Single(Directory.EnumerateFileSystemEntries(Path.GetTempPath(), socket));
        await service.DisposeAsync();
        Assert.False(service.IsRunning);
        Assert.Empty(Directory.EnumerateFileSystemEntries(Path.GetTempPath(), socket));
    }

    [Fact]
    public async Task ProductService_RefusesAnExternalServiceOffLoopback()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            ServiceProcess.StartAsync(Conclab, ProductService.Definition, new ProductServiceSettings("http://127.0.0.1:80/", "http://10.0.0.1:80/", 0, 8), TimeSpan.FromSeconds(30)));

        Assert.Contains("must be on loopback", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ProductService_APoolMinimumItCannotHave_FailsToStart_SayingWhy()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            ServiceProcess.StartAsync(Conclab, ProductService.Definition, new ProductServiceSettings("http://127.0.0.1:80/", "http://127.0.0.1:81/", MinThreads: 40_000, MaxConnections: 8), TimeSpan.FromSeconds(30)));

        Assert.Contains("refused a minimum of 40000 worker threads", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Listening_IsToldTheAddressesTheServiceStartsWith_OrFailsAsItsStartDoes()
    {
        // What a trial hands the product service while the external one answers its health check.
        var listening = new TaskCompletionSource<(Uri Http1, Uri Http2)>(TaskCreationOptions.RunContinuationsAsynchronously);
        var starting = ServiceProcess.StartAsync(
            Conclab, ExternalService.Definition, Task.FromResult(new ExternalServiceSettings(10, 10, 10)), TimeSpan.FromSeconds(30), listening: listening);
        var (http1, http2) = await listening.Task.WaitAsync(TimeSpan.FromSeconds(30));
        await using var external = await starting;
        Assert.Equal(external.BaseAddress, http1);
        Assert.Equal(external.Http2Address, http2);
        Assert.NotEqual(http1.Port, http2.Port);

        var unheard = new TaskCompletionSource<(Uri Http1, Uri Http2)>(TaskCreationOptions.RunContinuationsAsynchronously);
        await Assert.ThrowsAsync<InvalidOperationException>(() =>
            ServiceProcess.StartAsync(Conclab, new ServiceDefinition<string>("nope", (_, _) => { }), Task.FromResult("none"), TimeSpan.FromSeconds(30), listening: unheard));
        Assert.True(unheard.Task.IsFaulted, "a service that never listened left its listeners waiting");
    }

    [Fact]
    public async Task UnknownService_FailsToStart_SayingWhy()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            ServiceProcess.StartAsync(Conclab, new ServiceDefinition<string>("nope", (_, _) => { }), "none", TimeSpan.FromSeconds(30)));

        Assert.Contains("unknown service 'nope'", error.Message, StringComparison.Ordinal);
    }
}
