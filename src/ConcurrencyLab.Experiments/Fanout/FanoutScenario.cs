using ConcurrencyLab.Reproduction.Claims;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using ConcurrencyLab.Experiments.Hosting;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Experiments.Fanout;

/// <summary>
/// A product service that fans every request out to three calls on a slow external service, each service
/// on Kestrel in a process of its own, driven by a client sending N requests at once. Reproduces the post "The Power of Async":
/// Task.WaitAll vs await Task.WhenAll vs an async client, and the threads each makes the service create.
/// </summary>
public sealed class FanoutScenario : Scenario, IReproducesPost
{
    private static readonly TimeSpan ServiceStartTimeout = TimeSpan.FromSeconds(60);

    /// <inheritdoc/>
    public override string Name => "fanout";

    /// <inheritdoc/>
    public override string Summary
        => "N requests at once to a service that makes three calls to a slow service: WaitAll vs WhenAll vs an async client";

    /// <inheritdoc/>
    public override string Reproduces
        => "Task.WaitAll vs await Task.WhenAll vs async client in a service calling a slow web service (the post \"The Power of Async\")";

    /// <inheritdoc/>
    PublishedClaims IReproducesPost.Claims => FanoutClaims.All;

    /// <inheritdoc/>
    /// <remarks>the three published services, at 5 requests: the blocking ones already wait for the pool to add threads.</remarks>
    internal override IReadOnlyList<string> FirstLook => ["waitall@5", "whenall-blocking@5", "whenall-async@5"];

    // The ranges --requests and --min-threads accept, and so do the variants' own values.
    private const int MostRequests = 5000;
    private const int MostPoolThreads = 32_767;

    private static readonly Parameter<IReadOnlyList<int>> Requests = Parameter.WholeNumbers(
        "requests", [100, 1000],
            "requests the client sends at once; each is a variant suffix (whenall-async@1000)", minimum: 1, maximum: MostRequests, quick: [5, 15]);

    // Values, not a sweep: 1000,1000,1000 is three calls of 1 s each.
    internal static readonly Parameter<IReadOnlyList<int>> DelaysMs = Parameter.WholeNumbers(
        "delays", [1500, 2000, 1000],
            "how long the external service takes for name, price and category, ms (the published 1.5, 2 and 1 s)", minimum: 0, maximum: 600_000,
                distinct: false, count: 3,
        listing: "three delays in ms, for name, price and category, such as 1500,2000,1000, each");

    internal static readonly Parameter<double> TimeScale = Parameter.Number(
        "time-scale", 1, "multiplies every delay, for quick runs and tests; reports say when it was not 1", minimum: 0.001, maximum: 10, quick: 0.1);

    internal static readonly Parameter<int> MinThreads = Parameter.WholeNumber(
        "min-threads", 0,
            "ThreadPool minimum worker threads in the product service; 0 keeps the runtime's default (one per core)", minimum: 0,
                maximum: MostPoolThreads);

    private static readonly Parameter<int> WarmRequests = Parameter.WholeNumber(
        "warm-requests", 320,
            "requests sent one at a time, with no external delay, before the measured round, to warm every process's code; --no-prime skips " +
                "them, for the cold case", minimum: 0, maximum: 100_000, quick: 80);

    // Quick's rounds of 5 requests (measured at @5) took as long after 150 ms pauses as after 400, and each trial started 0.55 s
    // sooner; a round of 1,000 did not (the client compiled for 1.0-1.5 s in it, against 0.07-0.09 s): docs/scenarios/fanout.md.
    private static readonly Parameter<int> WarmPauseMs = Parameter.WholeNumber(
        "warm-pause-ms", 400,
            "ms of pause after every 40 warm-up requests, for the runtime to recompile the code they made hot (it waits 100 ms without new " +
                "code before it counts calls)", minimum: 0, maximum: 60_000, quick: 150);

    internal static readonly Parameter<double> CallTimeout = Parameter.Number(
        "call-timeout", 100,
            "seconds the product service gives each call to the external service (HttpClient's default); a call that outlives it fails its " +
                "request with 504", minimum: 0.1, maximum: 86_400);

    private static readonly Parameter<double> RequestTimeout = Parameter.Number(
        "request-timeout", 600, "seconds after which the client gives up on a request and counts it as an error", minimum: 0.1, maximum: 86_400);

    internal static readonly Parameter<string> ProductUrl = Parameter.FreeText(
        "product-url", string.Empty,
            "a product service already running (conclab serve fanout-product), such as http://127.0.0.1:5000/: the trials send to it " +
                "instead of starting their own; its side is then not measured, nor started fresh for each trial");

    private static readonly Parameter<string> AllowHost = Parameter.FreeText(
        "allow-host", string.Empty, "a host other than loopback --product-url may name: only your own, on your own authority");

    /// <inheritdoc/>
    public override IReadOnlyList<Parameter> Parameters { get; init; } = [Requests, DelaysMs, TimeScale, MinThreads, WarmRequests, WarmPauseMs,
        CallTimeout, RequestTimeout, ProductUrl, AllowHost];

    /// <inheritdoc/>
    public override IEnumerable<string> Validate(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var allowed = parameters.Get(AllowHost);
        if (allowed.Length > 0 && Uri.CheckHostName(allowed) == UriHostNameType.Unknown)
        {
            yield return $"--allow-host must be a host name or address, not '{allowed}'.";
        }

        if (parameters.Get(ProductUrl) is not { Length: > 0 } text)
        {
            if (allowed.Length > 0)
            {
                yield return "--allow-host goes with --product-url: the services a trial starts itself are on loopback.";
            }

            yield break;
        }

        if (!Uri.TryCreate(text, UriKind.Absolute, out var url) || url.Scheme != Uri.UriSchemeHttp || url.UserInfo.Length > 0
            || url.AbsolutePath != "/" || url.Query.Length > 0)
        {
            yield return $"--product-url must be the service's base http:// URL, such as http://127.0.0.1:5000/, not '{text}'.";
        }
        else if (!Loopback.IsHost(url.Host) && !string.Equals(url.Host, parameters.Get(AllowHost), StringComparison.OrdinalIgnoreCase))
        {
            yield return $"--product-url {text} is not on loopback (127.0.0.0/8, ::1, localhost); requests go to a host of your own only " +
                $"with --allow-host {url.Host}.";
        }
    }

    // An endpoint of the product service, at N requests sent at once: whenall-async@1000.
    private static readonly VariantParameter RequestsAtOnce = new("requests", "how many requests are sent at once", 1, MostRequests)
    {
        Example = 1000,
        Describe = n => $"; {n} requests at once",
        ChangesWork = true,
    };

    // The product service's pool minimum for one variant (waitall@100:min-threads=400), so a run can set the
    // blocking variants' cure beside them; 0 is the runtime's own minimum, and left out, --min-threads holds.
    private static readonly VariantParameter PoolMinimum = new("min-threads", "the product service's ThreadPool minimum worker threads", 0,
        MostPoolThreads)
    {
        DefaultWord = "default",
        Example = 400,
        Describe = n => n switch
        {
            "default" => string.Empty,
            "0" => "; the runtime's ThreadPool minimum",
            _ => $"; ThreadPool minimum {n} worker threads",
        },
    };

    private static readonly VariantSpace Endpoints = new(
        "fanout", "endpoint",
            [.. ProductService.Variants.Select(v => new VariantFamily(v.Variant, v.Description) { Parameters = [RequestsAtOnce, PoolMinimum] })]);

    /// <inheritdoc/>
    public override VariantSpace Variants(ParameterValues parameters) => Endpoints;

    /// <inheritdoc/>
    public override IReadOnlyList<Variant> DefaultVariants(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return [.. parameters.Get(Requests)
            .SelectMany(n => Endpoints.Families.Where(f => f.Id != ProductService.Sequential).Select(f => Endpoints.Create(f.Id, n)))];
    }

    /// <inheritdoc/>
    public override Variant DefaultBaseline(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return Endpoints.Create("waitall", parameters.Get(Requests)[^1]);
    }

    /// <inheritdoc/>
    public override IdealBound Ideal(ParameterValues parameters, int seed)
    {
        var delays = Delays(parameters);
        var slowest = new[] { delays.NameMs, delays.PriceMs, delays.CategoryMs }.Max();
        return new IdealBound(slowest, $"the slowest external call ({slowest} ms): every request's three calls could be waited for at once");
    }

    /// <inheritdoc/>
    internal override IReadOnlyList<ServiceDefinition> Services { get; } = [ExternalService.Definition, ProductService.Definition];

    /// <inheritdoc/>
    internal override IReadOnlyList<StandaloneService> Standalone => FanoutServe.All;

    internal static readonly Metric ServerPeakThreads = Metric.Count("serverPeakThreads", "Server threads") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "the product service's OS threads at their highest: where the variants run",
    };

    internal static readonly Metric ServerPeakPoolThreads = Metric.Count("serverPeakPoolThreads", "Server pool") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "the product service's pool threads at their highest",
    };

    internal static readonly Metric Errors = Metric.Count("errors", "Errors") with
    {
        Visibility = MetricVisibility.Everywhere,
        FlagsWhenNotZero = true,
        Description = "requests that failed or were answered wrongly, of every kind below",
    };

    internal static readonly Metric UpstreamTimeouts = Metric.Count("upstreamTimeouts", "504s") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "requests the product service failed with 504: a call to the external service outlived --call-timeout",
    };

    internal static readonly Metric ListenOverflows = Metric.Count("listenOverflows", "Listen drops") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "connection attempts the kernel dropped from a full accept queue, each retried a second later (Linux's ListenOverflows)",
    };

    internal static readonly Metric RequestsSent = Metric.Count("requests", "Requests") with { Direction = MetricDirection.Neither,
        Description = "requests the client sent at once" };

    internal static readonly Metric UpstreamFailures = Metric.Count("upstreamFailures", "502s") with
    {
        Description = "requests the product service failed with 502: a call to the external service failed otherwise",
    };

    internal static readonly Metric ServerErrors = Metric.Count("serverErrors", "500s") with
    {
        Description = "requests the product service failed by itself (500)",
    };

    internal static readonly Metric ClientTimeouts = Metric.Count("clientTimeouts", "Client timeouts") with
    {
        Description = "requests the client gave up on after --request-timeout",
    };

    internal static readonly Metric ConnectionErrors = Metric.Count("connectionErrors", "Connection errors") with
    {
        Description = "requests whose connection from the client failed",
    };

    internal static readonly Metric ServerPeakQueueLength = Metric.Count("serverPeakQueueLength", "Server queue") with
    {
        Description = "the product service's pool queue at its longest",
    };

    internal static readonly Metric ServerCpuMs = Metric.Milliseconds("serverCpuMs", "Server CPU") with
    {
        Description = "the product service's CPU time over the region",
    };

    internal static readonly Metric ServerJitMs = Metric.Milliseconds("serverJitMs", "Server JIT") with
    {
        Description = "time the product service's JIT spent compiling in the region",
    };

    internal static readonly Metric ExternalCpuMs = Metric.Milliseconds("externalCpuMs", "External CPU") with
    {
        Description = "the external service's CPU time over the region: not a variant's doing, but part of what the machine had to do",
    };

    // Which of the product service's standard metrics each server column shows.
    private static readonly (Metric Own, Metric Standard)[] ServerColumns =
    [
        (ServerPeakThreads, StandardMetrics.PeakThreads),
        (ServerPeakPoolThreads, StandardMetrics.PeakPoolThreads),
        (ServerPeakQueueLength, StandardMetrics.PeakQueueLength),
        (ServerCpuMs, StandardMetrics.Cpu),
        (ServerJitMs, StandardMetrics.Jit),
    ];

    /// <inheritdoc/>
    public override IReadOnlyList<Metric> Metrics { get; init; } =
    [
        ServerPeakThreads, ServerPeakPoolThreads, Errors, UpstreamTimeouts, ListenOverflows,
        RequestsSent, UpstreamFailures, ServerErrors, ClientTimeouts, ConnectionErrors, ServerPeakQueueLength, ServerCpuMs, ServerJitMs,
            ExternalCpuMs,
    ];

    /// <inheritdoc/>
    public override IEnumerable<string> Notes(ParameterValues parameters, bool quick)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var scale = parameters.Get(TimeScale);
        if (scale != 1)
        {
            var d = Delays(parameters);
            yield return $"time scale {scale.ToString(CultureInfo.InvariantCulture)}: the external service answered in {d.NameMs}, " +
                $"{d.PriceMs} and {d.CategoryMs} ms instead of {string.Join(", ", parameters.Get(DelaysMs))} ms; thread injection does not " +
                $"scale with it.";
        }

        var most = parameters.Get(Requests).Max();
        if (TcpCounters.ReadMaxBacklog() is { } cap && 3 * most > cap)
        {
            yield return $"{3 * most} connections may arrive at the external service at once, more than the kernel lets a listener queue " +
                $"(net.core.somaxconn = {cap}); dropped attempts are retried a second later and show as listen drops.";
        }

        if (parameters.Get(MinThreads) > 0)
        {
            yield return $"the product service's ThreadPool minimum was raised to {parameters.Get(MinThreads)} worker threads.";
        }

        if (parameters.Get(ProductUrl) is { Length: > 0 } url)
        {
            yield return $"the trials sent to the product service at {url}, already running: it was not started fresh for each trial, so " +
                $"each met the pool the one before left; its pool minimum is the one it was started with (--min-threads and a variant's " +
                $"min-threads do not reach it); its threads and CPU were not measured; and its delays are the ones its external service was " +
                $"started with, which the ideal takes to be --delays and --time-scale as given here.";
        }
    }

    /// <inheritdoc/>
    public override async Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        var endpoint = context.Variant.Family;
        var requests = context.Variant.WholeNumber(RequestsAtOnce.Name)
            ?? throw new ArgumentException($"{context.Variant} says no number of requests.", nameof(context));

        var parameters = context.Parameters;
        if (parameters.Get(ProductUrl) is { Length: > 0 } productUrl)
        {
            return await RunAgainstAsync(new Uri(productUrl), context, endpoint, requests, cancellationToken).ConfigureAwait(false);
        }

        var services = await StartServicesAsync(context, requests, cancellationToken).ConfigureAwait(false);
        await using var external = services.External;
        await using var product = services.Product;

        // Every request in flight at once: one connection each, none queued in the client.
        // The lab's guarded handler: the services it started are on loopback, and a redirect is an answer, not followed.
        var handler = Loopback.Handler();
        handler.MaxConnectionsPerServer = requests;
        using var client = new HttpClient(handler)
        {
            BaseAddress = product.BaseAddress,
            Timeout = TimeSpan.FromSeconds(parameters.Get(RequestTimeout)),
        };

        if (context.Prime
            && await PrimeAsync(client, endpoint, parameters.Get(WarmRequests), parameters.Get(WarmPauseMs), cancellationToken)
                .ConfigureAwait(false) is { } primeError)
        {
            return new TrialOutcome { ItemsPlanned = requests, ItemsCompleted = 0, Error = "while priming: " + primeError };
        }

        // The next trial's process starts while the one before exits; its region, and the services' measurements
        // around it, begin only once the runner has finished that one.
        context.Meter.AwaitTrialBefore();
        await product.StartMeasuringAsync(cancellationToken).ConfigureAwait(false);
        await external.StartMeasuringAsync(cancellationToken).ConfigureAwait(false);
        var overflowsBefore = TcpCounters.ReadListenOverflows();
        var results = await BurstAsync(client, endpoint, 1, requests, context.Meter, cancellationToken).ConfigureAwait(false);
        var overflows = TcpCounters.ReadListenOverflows() - overflowsBefore;
        double[] latencies = [.. results.Where(r => r.Error is null).Select(r => r.LatencyMs)];
        var metrics = Counted(results);
        if (overflows is { } dropped)
        {
            // Each drop is a connection attempt retried a second later: the first suspect of a slow tail.
            metrics[ListenOverflows] = dropped;
        }

        Measurements serverMeasured, externalMeasured;
        try
        {
            serverMeasured = await product.StopMeasuringAsync(cancellationToken).ConfigureAwait(false);
            externalMeasured = await external.StopMeasuringAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is InvalidOperationException or IOException or JsonException)
        {
            // The client's own measurements and counts stand; the trial fails, saying what was lost.
            return new TrialOutcome
            {
                ItemsPlanned = requests,
                ItemsCompleted = results.Length,
                LatenciesMs = latencies,
                Metrics = metrics,
                Error = "the services' own measurements were lost: " + TrialFailure.Describe(ex),
            };
        }

        var server = ServiceMeasurements.From(ProductService.Name, serverMeasured);
        // The service's own standard metrics, as columns of this scenario's tables.
        foreach (var (own, standard) in ServerColumns)
        {
            if (server.Value(standard) is { } value)
            {
                metrics[own] = value;
            }
        }

        // Not a variant's doing, but part of what the machine had to do in the region: with the client's
        // CPU, it tells whether the cores, not the waiting, set the time.
        if (ServiceMeasurements.From(ExternalService.Name, externalMeasured).Value(StandardMetrics.Cpu) is { } externalCpu)
        {
            metrics[ExternalCpuMs] = externalCpu;
        }

        return new TrialOutcome
        {
            ItemsPlanned = requests,
            ItemsCompleted = results.Length,
            LatenciesMs = latencies,
            Service = server,
            Metrics = metrics,
            // The same external service for every variant; the endpoint and N are what the variants vary.
            WorkloadDigest = $"delays {parameters.Values[DelaysMs.Name]} x {parameters.Values[TimeScale.Name]}",
        };
    }

    // The two services, started side by side; when either fails, the one that started is ended and the first
    // failure thrown.
    private static async Task<(ServiceProcess External, ServiceProcess Product)> StartServicesAsync(
        TrialContext context,
        int requests,
        CancellationToken cancellationToken)
    {
        var parameters = context.Parameters;
        var launcher = SelfLauncher.Current();

        // Side by side: the product service's runtime and host are built while the external service starts, and it is
        // told the external's addresses as soon as that one listens, while the external answers its health check
        // (0.5-0.6 s of each trial's start-up when one waited for the other; told after that health check, the product
        // service answered its own 100-160 ms later).
        var externalListening = new TaskCompletionSource<(Uri Http1, Uri Http2)>(TaskCreationOptions.RunContinuationsAsynchronously);
        var externalStarting = ServiceProcess.StartAsync(
            launcher, ExternalService.Definition, Task.FromResult(Delays(parameters)),
                ServiceStartTimeout, listening: externalListening, cancellationToken: cancellationToken);
        var productStarting = ServiceProcess.StartAsync(
            launcher,
            ProductService.Definition,
            ProductSettingsAsync(externalListening.Task, externalStarting, context.Variant.WholeNumber(PoolMinimum.Name)
                ?? parameters.Get(MinThreads), 3 * requests, parameters.Get(CallTimeout)),
            ServiceStartTimeout,
            context.TakeServiceEventPort(),
            cancellationToken: cancellationToken);
        try
        {
            // The first failure in this order: the external's own, where the product only failed for want of it.
            await Task.WhenAll(externalStarting, productStarting).ConfigureAwait(false);
        }
        catch
        {
            foreach (var starting in new[] { externalStarting, productStarting })
            {
                if (starting.IsCompletedSuccessfully)
                {
                    await starting.Result.DisposeAsync().ConfigureAwait(false);
                }
            }

            throw;
        }

        return (externalStarting.Result, productStarting.Result);
    }

    // The measured region: every request sent at once, the trial's meter around them. Each priming request comes
    // through here too, one at a time and unmeasured (no meter): the region then ends on code already compiled, where
    // its first run had compiled this method's resumption (its state machine's box, five methods) after the last
    // answer, 0.9-1.3 ms of every trial's wall time.
    private static async Task<RequestResult[]> BurstAsync(
        HttpClient client,
        string endpoint,
        int firstId,
        int requests,
        TrialMeter? meter,
        CancellationToken cancellationToken)
    {
        meter?.Start();
        var origin = Stopwatch.GetTimestamp();
        var sent = new Task<RequestResult>[requests];
        for (var i = 0; i < requests; i++)
        {
            sent[i] = RequestAsync(client, endpoint, firstId + i, origin, cancellationToken);
        }

        var results = await Task.WhenAll(sent).ConfigureAwait(false);
        meter?.Stop();
        return results;
    }

    // The requests sent and the errors among them, by kind: the product service's calls timing out (its 504s) or
    // failing otherwise (502), the product service failing by itself (500), the client giving up, and the client's
    // connection failing. What is left is a wrong answer.
    private static MetricValues Counted(IReadOnlyList<RequestResult> results)
    {
        var errors = results.Where(r => r.Error is not null).ToList();
        return new MetricValues
        {
            [RequestsSent] = results.Count,
            [Errors] = errors.Count,
            [UpstreamTimeouts] = errors.Count(r => r.Error == UpstreamTimeout),
            [UpstreamFailures] = errors.Count(r => r.Error == UpstreamFailure),
            [ServerErrors] = errors.Count(r => r.Error == ServerError),
            [ClientTimeouts] = errors.Count(r => r.Error == ClientTimeout),
            [ConnectionErrors] = errors.Count(r => r.Error!.StartsWith(nameof(HttpRequestException), StringComparison.Ordinal)),
        };
    }

    // The burst against a product service someone else started (--product-url): the client's side only, as a trial
    // against services of its own measures it.
    private static async Task<TrialOutcome> RunAgainstAsync(
        Uri product,
        TrialContext context,
        string endpoint,
        int requests,
        CancellationToken cancellationToken)
    {
        var parameters = context.Parameters;
        // The lab's guarded handler: the address connected to is loopback or the one --allow-host names, and a redirect
        // is an answer, not followed.
        var handler = Loopback.Handler(parameters.Get(AllowHost));
        handler.MaxConnectionsPerServer = requests;
        using var client = new HttpClient(handler)
        {
            BaseAddress = product,
            Timeout = TimeSpan.FromSeconds(parameters.Get(RequestTimeout)),
        };

        if (context.Prime
            && await PrimeAsync(client, endpoint, parameters.Get(WarmRequests), parameters.Get(WarmPauseMs), cancellationToken)
                .ConfigureAwait(false) is { } primeError)
        {
            return new TrialOutcome { ItemsPlanned = requests, ItemsCompleted = 0, Error = "while priming: " + primeError };
        }

        var results = await BurstAsync(client, endpoint, 1, requests, context.Meter, cancellationToken).ConfigureAwait(false);
        return new TrialOutcome
        {
            ItemsPlanned = requests,
            ItemsCompleted = results.Length,
            LatenciesMs = [.. results.Where(r => r.Error is null).Select(r => r.LatencyMs)],
            Metrics = Counted(results),
            WorkloadDigest = $"product service at {product} with delays {parameters.Values[DelaysMs.Name]} x {parameters.Values[TimeScale.Name]}",
        };
    }

    /// <summary>The external service's delays, time-scaled.</summary>
    internal static ExternalServiceSettings Delays(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var delays = parameters.Get(DelaysMs);
        var scale = parameters.Get(TimeScale);
        int Scaled(int i) => (int)Math.Round(delays[i] * scale);
        return new ExternalServiceSettings(Scaled(0), Scaled(1), Scaled(2));
    }

    private static async Task<ProductServiceSettings> ProductSettingsAsync(
        Task<(Uri Http1, Uri Http2)> externalListening, Task<ServiceProcess> externalStarting, int minThreads, int maxConnections,
            double callTimeoutSeconds)
    {
        // The external's addresses once it listens; a start that fails first, even before it could listen, ends the wait
        // with its own error (a start that succeeded had told its addresses before its health check).
        if (await Task.WhenAny(externalListening, externalStarting).ConfigureAwait(false) == externalStarting)
        {
            await externalStarting.ConfigureAwait(false);
        }

        var (http1, http2) = await externalListening.ConfigureAwait(false);
        return new ProductServiceSettings(http1.ToString(), http2.ToString(), minThreads, maxConnections, callTimeoutSeconds);
    }

    /// <summary>
    /// Warms every process's code before the measured round, as a service that has been up a while is warm:
    /// <paramref name="count"/> requests, one at a time, in rounds with pauses between them. They carry
    /// negative ids, which the external service answers without its delay, and each takes a connection of
    /// its own. One at a time, so a blocking variant needs no more threads than the pool starts with, and the
    /// measured round meets the pool the variant would meet. The pauses let the runtime recompile the hot
    /// methods in the background: without them, a fresh process spent 0.6 s of the client's CPU and 1.1 s of
    /// the product service's on compiling during a measured round of 1,000 requests. Returns the first error,
    /// or null.
    /// </summary>
    private static async Task<string?> PrimeAsync(HttpClient client, string endpoint, int count, int pauseMs, CancellationToken cancellationToken)
    {
        for (var sent = 0; sent < count; sent++)
        {
            if ((await BurstAsync(client, endpoint, -1 - sent, 1, meter: null, cancellationToken).ConfigureAwait(false))[0] is { Error: { } error })
            {
                return error;
            }

            if ((sent + 1) % PrimeRound == 0 || sent + 1 == count)
            {
                await Task.Delay(pauseMs, cancellationToken).ConfigureAwait(false);
            }
        }

        return null;
    }

    // Tiered compilation promotes a method after 30 calls and a quiet spell of 100 ms, and does it twice
    // (instrumented, then optimized): rounds of 40 calls, with --warm-pause-ms after each, leave it room for both.
    private const int PrimeRound = 40;

    private static async Task<RequestResult> RequestAsync(
        HttpClient client,
        string endpoint,
        int id,
        long origin,
        CancellationToken cancellationToken)
    {
        try
        {
            using var request = new HttpRequestMessage(
                HttpMethod.Get, new Uri($"product/{endpoint}/{id.ToString(CultureInfo.InvariantCulture)}", UriKind.Relative));

            // A priming request takes a connection of its own, so connecting and accepting are warm too.
            request.Headers.ConnectionClose = ExternalService.IsPriming(id);
            using var response = await client.SendAsync(request, cancellationToken).ConfigureAwait(false);
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
        catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return new RequestResult(Stopwatch.GetElapsedTime(origin).TotalMilliseconds, ClientTimeout);
        }
        catch (Exception ex) when (ex is HttpRequestException or JsonException && !cancellationToken.IsCancellationRequested)
        {
            // A failed or timed-out request is counted, never dropped.
            return new RequestResult(Stopwatch.GetElapsedTime(origin).TotalMilliseconds, $"{ex.GetType().Name}: {ex.Message}");
        }
    }

    private const string UpstreamTimeout = "HTTP 504";
    private const string UpstreamFailure = "HTTP 502";
    private const string ServerError = "HTTP 500";
    private const string ClientTimeout = "timed out in the client";

    private sealed record RequestResult(double LatencyMs, string? Error);
}
