using ConcurrencyLab.Experiments.Hosting;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Experiments.Fanout;

/// <summary>
/// The fanout experiment's two services as a user starts them by themselves (<c>conclab serve fanout-external</c>,
/// <c>conclab serve fanout-product</c>): on hosts of their own, under <c>conclab load</c>, or as crank jobs. The
/// product service without <c>--external</c> starts its own external service beside it, on loopback, so one
/// command is a whole fanout service to put load on.
/// </summary>
internal static class FanoutServe
{
    private static readonly TimeSpan ExternalStartTimeout = TimeSpan.FromSeconds(60);

    private static readonly Parameter<string> External = Parameter.FreeText(
        "external", string.Empty,
            "the external service's HTTP/1.1 address, such as http://127.0.0.1:5001/; left out, the product service starts its own on " +
                "loopback with --delays and --time-scale");

    private static readonly Parameter<string> ExternalHttp2 = Parameter.FreeText(
        "external-http2", string.Empty,
            "the external service's HTTP/2 address (the http2= of its ready line), for the async-http2 endpoint; left out, --external's port + 1");

    private static readonly Parameter<int> MaxConnections = Parameter.WholeNumber(
        "max-connections", 0,
            "connections the shared HTTP/1.1 client (async-shared-client) opens to the external service at most; 0 sets no limit", minimum: 0,
                maximum: int.MaxValue);

    /// <summary>Both services, as <see cref="Scenario.Standalone"/> lists them.</summary>
    public static IReadOnlyList<StandaloneService> All { get; } =
    [
        new(
            "fanout-external",
            "The fanout experiment's slow external service: GET /name/ID, /price/ID and /category/ID, each answered after its delay (the " +
                "published 1.5, 2 and 1 s).",
            [FanoutScenario.DelaysMs, FanoutScenario.TimeScale],
            (request, cancellationToken) => ServiceHost.ServeStandaloneAsync(ExternalService.Definition, FanoutScenario.Delays(request.Values),
                request, cancellationToken)),
        new(
            "fanout-product",
            $"The fanout experiment's product service: GET /product/VARIANT/ID for " +
                $"{string.Join(", ", ProductService.Variants.Select(v => v.Variant))}, each making three calls to the external service its own way.",
            [External, ExternalHttp2, FanoutScenario.MinThreads, FanoutScenario.CallTimeout, MaxConnections, FanoutScenario.DelaysMs, FanoutScenario.TimeScale],
            ServeProductAsync),
    ];

    private static async Task ServeProductAsync(StandaloneRequest request, CancellationToken cancellationToken)
    {
        var values = request.Values;
        ServiceProcess? own = null;
        string http1, http2;
        if (values.Get(External) is { Length: > 0 } given)
        {
            http1 = given;
            http2 = values.Get(ExternalHttp2) is { Length: > 0 } givenHttp2 ? givenHttp2 : NextPort(given);
        }
        else
        {
            // Its own external service, in a process of its own so that its CPU is not the product service's; it
            // ends when this process closes its standard input, also when this one is killed outright.
            own = await ServiceProcess.StartAsync(SelfLauncher.Current(), ExternalService.Definition, FanoutScenario.Delays(values),
                ExternalStartTimeout, cancellationToken: cancellationToken).ConfigureAwait(false);

            // A child whose CPU and memory belong to this job, where a job runner listens.
            request.AnnounceChild(own.ProcessId);
            http1 = own.BaseAddress.ToString();
            http2 = own.Http2Address.ToString();
        }

        try
        {
            var most = values.Get(MaxConnections);
            var settings = new ProductServiceSettings(http1, http2, values.Get(FanoutScenario.MinThreads), most == 0 ? int.MaxValue
                : most, values.Get(FanoutScenario.CallTimeout))
            {
                AllowedHosts = [.. request.AllowedHosts],
            };
            await ServiceHost.ServeStandaloneAsync(ProductService.Definition, settings, request, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            if (own is not null)
            {
                await own.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    // The external service's HTTP/2 port by conclab serve's convention: the HTTP/1.1 port + 1.
    private static string NextPort(string http1) =>
        Uri.TryCreate(http1, UriKind.Absolute, out var uri) && uri.Port is > 0 and < 65_535
            ? new UriBuilder(uri) { Port = uri.Port + 1 }.Uri.ToString()
            : http1;
}
