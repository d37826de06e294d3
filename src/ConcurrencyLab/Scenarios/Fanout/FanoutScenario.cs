using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;

namespace ConcurrencyLab.Scenarios.Fanout;

/// <summary>
/// A product service that fans every request out to three calls on a slow external service, each service
/// on Kestrel in a process of its own, driven by a client sending N requests at once. Reproduces seeds/003:
/// Task.WaitAll vs await Task.WhenAll vs an async client, and the threads each makes the service create.
/// </summary>
public sealed class FanoutScenario : Scenario
{
    private static readonly TimeSpan ServiceStartTimeout = TimeSpan.FromSeconds(60);

    public override string Name => "fanout";

    public override string Summary => "N requests at once to a service that makes three calls to a slow service: WaitAll vs WhenAll vs an async client";

    public override string Reproduces => "Task.WaitAll vs await Task.WhenAll vs async client in a service calling a slow web service (seeds/003)";

    public override IReadOnlyList<ParameterDescriptor> Parameters { get; } =
    [
        new("requests", ParameterKind.WholeNumberList, "100,1000", "requests the client sends at once; each is a variant suffix (whenall-async@1000)") { QuickValue = "5,15", Minimum = 1, Maximum = 5000 },
        new("delays", ParameterKind.WholeNumberList, "1500,2000,1000", "how long the external service takes for name, price and category, ms (the published 1.5, 2 and 1 s)") { Minimum = 0, Maximum = 600_000 },
        new("time-scale", ParameterKind.Number, "1", "multiplies every delay, for quick runs and tests; reports say when it was not 1") { QuickValue = "0.1", Minimum = 0.001, Maximum = 10 },
        new("min-threads", ParameterKind.WholeNumber, "0", "ThreadPool minimum worker threads in the product service; 0 keeps the runtime's default (one per core)") { Minimum = 0, Maximum = 32_767 },
        new("request-timeout", ParameterKind.Number, "600", "seconds after which the client gives up on a request and counts it as an error") { Minimum = 0.1, Maximum = 86_400 },
    ];

    public override IEnumerable<string> Validate(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (parameters.Values["delays"].Split(',').Length != 3)
        {
            yield return $"--delays must list three delays in ms, for name, price and category, such as 1500,2000,1000; not '{parameters.Values["delays"]}'.";
        }
    }

    public override IReadOnlyList<VariantInfo> DefaultVariants(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return
        [
            .. parameters.GetInt32List("requests").SelectMany(n => ProductService.Variants.Select(v => Describe(v.Variant, n))),
        ];
    }

    public override bool TryResolveVariant(string name, ParameterValues parameters, out VariantInfo variant, out string problem)
    {
        variant = null!;
        if (!TryParse(name, out var endpoint, out var requests, out problem))
        {
            return false;
        }

        variant = Describe(endpoint, requests);
        return true;
    }

    public override string DefaultBaseline(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return $"waitall@{parameters.GetInt32List("requests")[^1]}";
    }

    public override IdealBound Ideal(ParameterValues parameters, int seed)
    {
        var delays = Delays(parameters);
        var slowest = new[] { delays.NameMs, delays.PriceMs, delays.CategoryMs }.Max();
        return new IdealBound(slowest, $"the slowest external call ({slowest} ms): every request's three calls could be waited for at once");
    }

    public override IReadOnlyList<string> FlaggedChecks { get; } = ["errors"];

    public override IReadOnlyList<ReportedCheck> ReportedChecks { get; } =
    [
        new("serverPeakThreads", "Server threads", string.Empty, false),
        new("serverPeakPoolThreads", "Server pool", string.Empty, false),
        new("errors", "Errors", string.Empty, false),
    ];

    public override IEnumerable<string> Notes(ParameterValues parameters, bool quick)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var scale = parameters.GetDouble("time-scale");
        if (scale != 1)
        {
            var d = Delays(parameters);
            yield return $"time scale {scale.ToString(CultureInfo.InvariantCulture)}: the external service answered in {d.NameMs}, {d.PriceMs} and {d.CategoryMs} ms instead of {parameters.Values["delays"].Replace(",", ", ", StringComparison.Ordinal)} ms; thread injection does not scale with it.";
        }

        if (parameters.GetInt32("min-threads") > 0)
        {
            yield return $"the product service's ThreadPool minimum was raised to {parameters.GetInt32("min-threads")} worker threads.";
        }
    }

    public override async Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (!TryParse(context.Variant, out var endpoint, out var requests, out var problem))
        {
            throw new ArgumentException(problem, nameof(context));
        }

        var parameters = context.Parameters;
        var launcher = SelfLauncher.Current();

        await using var external = await ServiceProcess.StartAsync(launcher, ExternalService.Name, Delays(parameters), ServiceStartTimeout, cancellationToken).ConfigureAwait(false);
        await using var product = await ServiceProcess.StartAsync(
            launcher,
            ProductService.Name,
            new ProductServiceSettings(external.BaseAddress.ToString(), parameters.GetInt32("min-threads"), MaxConnections: 3 * requests),
            ServiceStartTimeout,
            cancellationToken).ConfigureAwait(false);

        // Every request in flight at once: one connection each, none queued in the client.
        using var client = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = requests })
        {
            BaseAddress = product.BaseAddress,
            Timeout = TimeSpan.FromSeconds(parameters.GetDouble("request-timeout")),
        };

        if (context.Prime && await RequestAsync(client, endpoint, 0, Stopwatch.GetTimestamp(), cancellationToken).ConfigureAwait(false) is { Error: { } primeError })
        {
            return new TrialOutcome { ItemsPlanned = requests, ItemsCompleted = 0, Error = "while priming: " + primeError };
        }

        using (var start = await client.PostAsync(new Uri("conclab/measure/start", UriKind.Relative), null, cancellationToken).ConfigureAwait(false))
        {
            start.EnsureSuccessStatusCode();
        }

        context.Meter.Start();
        var origin = Stopwatch.GetTimestamp();
        var sent = new Task<RequestResult>[requests];
        for (var i = 0; i < requests; i++)
        {
            sent[i] = RequestAsync(client, endpoint, i + 1, origin, cancellationToken);
        }

        var results = await Task.WhenAll(sent).ConfigureAwait(false);
        context.Meter.Stop();

        Measurements serverMeasured;
        using (var stop = await client.PostAsync(new Uri("conclab/measure/stop", UriKind.Relative), null, cancellationToken).ConfigureAwait(false))
        {
            stop.EnsureSuccessStatusCode();
            serverMeasured = await stop.Content.ReadFromJsonAsync<Measurements>(LabJson.Options, cancellationToken).ConfigureAwait(false)
                ?? throw new InvalidOperationException("The product service returned no measurements.");
        }

        var errors = results.Where(r => r.Error is not null).ToList();
        var server = ServiceMeasurements.From(ProductService.Name, serverMeasured);
        return new TrialOutcome
        {
            ItemsPlanned = requests,
            ItemsCompleted = results.Length,
            LatenciesMs = [.. results.Where(r => r.Error is null).Select(r => r.LatencyMs)],
            Service = server,
            Checks = new Dictionary<string, double>
            {
                ["requests"] = requests,
                ["errors"] = errors.Count,
                ["serverPeakThreads"] = server.PeakThreads,
                ["serverPeakPoolThreads"] = server.PeakPoolThreads,
                ["serverPeakQueueLength"] = server.PeakQueueLength,
                ["serverCpuMs"] = server.CpuMs,
            },
            // The same external service for every variant; the endpoint and N are what the variants vary.
            WorkloadDigest = $"delays {parameters.Values["delays"]} x {parameters.Values["time-scale"]}",
        };
    }

    private static VariantInfo Describe(string endpoint, int requests) =>
        new($"{endpoint}@{requests}", $"{ProductService.Variants.First(v => v.Variant == endpoint).Description}; {requests} requests at once");

    /// <summary>Reads a variant name, <c>endpoint@N</c>: a product endpoint and how many requests go at once.</summary>
    private static bool TryParse(string name, out string endpoint, out int requests, out string problem)
    {
        ArgumentNullException.ThrowIfNull(name);
        var text = name.Trim().ToLowerInvariant();
        var at = text.LastIndexOf('@');
        endpoint = at < 0 ? text : text[..at];
        requests = 0;
        var known = endpoint;
        if (!ProductService.Variants.Any(v => v.Variant == known))
        {
            problem = $"variant '{name}' is not a fanout variant; it has {string.Join(", ", ProductService.Variants.Select(v => v.Variant))}, each with @N requests.";
            return false;
        }

        if (at < 0 || !int.TryParse(text[(at + 1)..], NumberStyles.None, CultureInfo.InvariantCulture, out requests) || requests is < 1 or > 5000)
        {
            problem = $"variant '{name}' must say how many requests are sent at once, from 1 to 5000: {endpoint}@1000.";
            return false;
        }

        problem = string.Empty;
        return true;
    }

    /// <summary>The external service's delays, time-scaled.</summary>
    internal static ExternalServiceSettings Delays(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var delays = parameters.GetInt32List("delays");
        var scale = parameters.GetDouble("time-scale");
        int Scaled(int i) => i < delays.Count ? (int)Math.Round(delays[i] * scale) : 0;
        return new ExternalServiceSettings(Scaled(0), Scaled(1), Scaled(2));
    }

    private static async Task<RequestResult> RequestAsync(HttpClient client, string endpoint, int id, long origin, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await client.GetAsync(new Uri($"product/{endpoint}/{id.ToString(CultureInfo.InvariantCulture)}", UriKind.Relative), cancellationToken).ConfigureAwait(false);
            var body = await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
            var latency = Stopwatch.GetElapsedTime(origin).TotalMilliseconds;
            if (!response.IsSuccessStatusCode)
            {
                return new RequestResult(latency, $"HTTP {(int)response.StatusCode}");
            }

            var answer = JsonSerializer.Deserialize<Product>(body, LabJson.Options);
            return answer is { } p && p.Id == id && p.Name == $"Name {id}" && p.Price == id * 1000L && p.Category == $"Category {id}"
                ? new RequestResult(latency, null)
                : new RequestResult(latency, $"wrong product for id {id}: {body}");
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException or JsonException && !cancellationToken.IsCancellationRequested)
        {
            // A failed or timed-out request is counted, never dropped.
            return new RequestResult(Stopwatch.GetElapsedTime(origin).TotalMilliseconds, $"{ex.GetType().Name}: {ex.Message}");
        }
    }

    private sealed record RequestResult(double LatencyMs, string? Error);
}
