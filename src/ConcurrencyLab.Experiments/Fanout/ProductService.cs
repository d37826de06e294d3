using System.Globalization;
using System.Net;
using System.Text.Json;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Serialization;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using ConcurrencyLab.Experiments.Hosting;

namespace ConcurrencyLab.Experiments.Fanout;

/// <summary>
/// The product service of the fanout experiment: one endpoint per variant, each building a product from
/// three calls to the slow <see cref="ExternalService"/> (name, price, category) in its own way.
/// </summary>
internal static class ProductService
{
    /// <summary>The service's name on the command line of its process.</summary>
    public const string Name = "product";

    /// <summary>The service as the fanout scenario registers it and its trials start it.</summary>
    public static ServiceDefinition<ProductServiceSettings> Definition { get; } = new(Name, Map);

    /// <summary>The endpoints, by variant name, and how each one calls the external service.</summary>
    public static IReadOnlyList<(string Variant, string Description)> Variants { get; } =
    [
        ("waitall", "three Task.Run, each a blocking HTTP call on a new client, joined by Task.WaitAll (published)"),
        ("whenall-blocking", "the same three blocking calls in Task.Run, joined by await Task.WhenAll (published)"),
        ("whenall-async", "three async HTTP calls on a new client, joined by await Task.WhenAll (published)"),
        ("async-shared-client", "three async calls on one shared HttpClient sized for the load, no Task.Run"),
        ("async-http2", "three async calls on one shared HttpClient over HTTP/2: the calls share a few connections"),
        ("sync-over-async", "three async calls on a new client, started at once and waited on with .Result: deliberately bad"),
        (Sequential, "the three blocking calls one after another on the request's thread: the published 4.5 s a request"),
    ];

    /// <summary>The endpoint that makes the three calls in turn: a published figure, not a pattern to compare, so no
    /// run has it unless named.</summary>
    public const string Sequential = "sequential";

    /// <summary>Adds an endpoint per variant to <paramref name="app"/>: <c>GET /product/{variant}/{id}</c>.</summary>
    public static void Map(WebApplication app, ProductServiceSettings settings)
    {
        ArgumentNullException.ThrowIfNull(app);
        ArgumentNullException.ThrowIfNull(settings);
        var external = Allowed(settings.ExternalBaseAddress, settings.AllowedHosts);
        var externalHttp2 = Allowed(settings.ExternalHttp2Address, settings.AllowedHosts);

        if (settings.MinThreads > 0)
        {
            // The experiment's deciding knob: how many pool threads exist before the pool has to inject any.
            // Only the worker minimum changes. Raising the I/O minimum above its maximum (1,000) made the call
            // fail as a whole, silently: --min-threads 4000 once left the default in place.
            ThreadPool.GetMinThreads(out _, out var io);
            if (!ThreadPool.SetMinThreads(settings.MinThreads, io))
            {
                ThreadPool.GetMaxThreads(out var most, out _);
                throw new ArgumentException($"The pool refused a minimum of {settings.MinThreads} worker threads (its maximum is {most}).");
            }
        }

        // A call to the external service that fails makes the product fail, and the client should be able to
        // tell why: 504 when a call outlived its client's timeout (100 s by default, which starved pools
        // reach), 502 when it failed otherwise. Blocking joins wrap the call's exception in an AggregateException.
        app.Use(async (context, next) =>
        {
            try
            {
                await next(context).ConfigureAwait(false);
            }
            catch (Exception ex) when (Upstream(ex) is { } status && !context.Response.HasStarted)
            {
                context.Response.StatusCode = status;
            }
        });

        // Sized for the load: every request's three calls may be in flight at once.
        var timeout = TimeSpan.FromSeconds(settings.CallTimeoutSeconds);
        // Every client below is on the lab's guarded handler: the external service's address as connected to is checked
        // (loopback, or a host --allow-host names), and a redirect it answers is a failed call, never followed.
        IReadOnlyList<string> allowed = settings.AllowedHosts ?? [];
        var sharedHandler = Loopback.Handler(allowed);
        sharedHandler.MaxConnectionsPerServer = Math.Max(1, settings.MaxConnections);
        var shared = new HttpClient(sharedHandler) { BaseAddress = external, Timeout = timeout };
        app.Lifetime.ApplicationStopped.Register(shared.Dispose);
        // HTTP/2 carries up to the server's stream limit (100 in Kestrel) on a connection, and opens another
        // connection when that is full: 3,000 calls at once take some 30 connections instead of 3,000.
        var multiplexedHandler = Loopback.Handler(allowed);
        multiplexedHandler.EnableMultipleHttp2Connections = true;
        var multiplexed = new HttpClient(multiplexedHandler)
        {
            BaseAddress = externalHttp2,
            Timeout = timeout,
            DefaultRequestVersion = HttpVersion.Version20,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        };
        app.Lifetime.ApplicationStopped.Register(multiplexed.Dispose);

        app.MapGet("/product/waitall/{id:int}", (int id) =>
        {
            var product = new Product { Id = id };
            Task[] calls =
            [
                Task.Run(() => product.Name = GetBlocking(external, allowed, timeout, "name", id)),
                Task.Run(() => product.Price = long.Parse(GetBlocking(external, allowed, timeout, "price", id), CultureInfo.InvariantCulture)),
                Task.Run(() => product.Category = GetBlocking(external, allowed, timeout, "category", id)),
            ];
            Task.WaitAll(calls);
            return Answer(product);
        });

        app.MapGet("/product/sequential/{id:int}", (int id) => Answer(new Product
        {
            Id = id,
            Name = GetBlocking(external, allowed, timeout, "name", id),
            Price = long.Parse(GetBlocking(external, allowed, timeout, "price", id), CultureInfo.InvariantCulture),
            Category = GetBlocking(external, allowed, timeout, "category", id),
        }));

        app.MapGet("/product/whenall-blocking/{id:int}", async (int id) =>
        {
            var product = new Product { Id = id };
            await Task.WhenAll(
                Task.Run(() => product.Name = GetBlocking(external, allowed, timeout, "name", id)),
                Task.Run(() => product.Price = long.Parse(GetBlocking(external, allowed, timeout, "price", id), CultureInfo.InvariantCulture)),
                Task.Run(() => product.Category = GetBlocking(external, allowed, timeout, "category", id))).ConfigureAwait(false);
            return Answer(product);
        });

        app.MapGet("/product/whenall-async/{id:int}", async (int id) =>
        {
            using var client = new HttpClient(Loopback.Handler(allowed)) { BaseAddress = external, Timeout = timeout };
            return Answer(await GetAllAsync(client, id).ConfigureAwait(false));
        });

        app.MapGet("/product/async-shared-client/{id:int}", async (int id) => Answer(await GetAllAsync(shared, id).ConfigureAwait(false)));

        app.MapGet("/product/async-http2/{id:int}", async (int id) => Answer(await GetAllAsync(multiplexed, id).ConfigureAwait(false)));

        app.MapGet("/product/sync-over-async/{id:int}", (int id) =>
        {
            using var client = new HttpClient(Loopback.Handler(allowed)) { BaseAddress = external, Timeout = timeout };
            // All three calls start at once, as in whenall-async; only the waiting differs.
            var name = client.GetStringAsync(Path("name", id));
            var price = client.GetStringAsync(Path("price", id));
            var category = client.GetStringAsync(Path("category", id));
#pragma warning disable VSTHRD002, CA1849 // The point of this variant: block a pool thread on async calls.
            return Answer(
                new Product { Id = id, Name = name.Result, Price = long.Parse(price.Result, CultureInfo.InvariantCulture),
                    Category = category.Result });
#pragma warning restore VSTHRD002, CA1849
        });
    }

    private static async Task<Product> GetAllAsync(HttpClient client, int id)
    {
        var name = client.GetStringAsync(Path("name", id));
        var price = client.GetStringAsync(Path("price", id));
        var category = client.GetStringAsync(Path("category", id));
        await Task.WhenAll(name, price, category).ConfigureAwait(false);
        return new Product { Id = id, Name = await name.ConfigureAwait(false),
            Price = long.Parse(await price.ConfigureAwait(false), CultureInfo.InvariantCulture), Category = await category.ConfigureAwait(false) };
    }

    // A synchronous HTTP call that holds its thread until the answer is in, on a client of its own as the
    // published service created one per call.
    private static string GetBlocking(Uri external, IReadOnlyList<string> allowed, TimeSpan timeout, string what, int id)
    {
        using var client = new HttpClient(Loopback.Handler(allowed)) { BaseAddress = external, Timeout = timeout };
        using var request = new HttpRequestMessage(HttpMethod.Get, Path(what, id));
        using var response = client.Send(request);
        response.EnsureSuccessStatusCode();
        using var reader = new StreamReader(response.Content.ReadAsStream());
        return reader.ReadToEnd();
    }

    /// <summary>The status that says how an external call failed: 504 for a timeout, 502 for any other HTTP failure;
    /// null when the failure was not a call's.</summary>
    internal static int? Upstream(Exception exception)
    {
        IEnumerable<Exception> causes = exception is AggregateException aggregate ? aggregate.Flatten().InnerExceptions : [exception];
        var list = causes.ToList();
        if (list.Any(e => e is TaskCanceledException { InnerException: TimeoutException } or TimeoutException))
        {
            return StatusCodes.Status504GatewayTimeout;
        }

        return list.Any(e => e is HttpRequestException or TaskCanceledException) ? StatusCodes.Status502BadGateway : null;
    }

    // The external service is on loopback, or on a host the user named (conclab serve --allow-host).
    private static Uri Allowed(string address, IReadOnlyList<string>? allowedHosts)
    {
        if (!Uri.TryCreate(address, UriKind.Absolute, out var uri) || uri.Scheme != Uri.UriSchemeHttp || uri.UserInfo.Length > 0)
        {
            throw new ArgumentException($"The external service's address must be an http:// URL without credentials, not '{address}'.");
        }

        return Loopback.IsHost(uri.Host) || (allowedHosts ?? []).Contains(uri.Host, StringComparer.OrdinalIgnoreCase)
            ? uri
            : throw new ArgumentException($"The external service must be on loopback, not {uri.Host}, unless --allow-host names it.");
    }

    private static Uri Path(string what, int id) => new($"{what}/{id.ToString(CultureInfo.InvariantCulture)}", UriKind.Relative);

    private static IResult Answer(Product product)
        => Microsoft.AspNetCore.Http.Results.Text(JsonSerializer.Serialize(product, LabJson.Options), "application/json");
}

/// <summary>
/// What the product service needs: where the external service is (over HTTP/1.1 and over HTTP/2), the pool's
/// minimum threads (0 leaves the default), the shared client's connection limit, and how long a call to the
/// external service may take before it fails (HttpClient's own default is 100 s).
/// </summary>
internal sealed record ProductServiceSettings(
    string ExternalBaseAddress,
    string ExternalHttp2Address,
    int MinThreads,
    int MaxConnections,
    double CallTimeoutSeconds = 100)
{
    /// <summary>Hosts other than loopback the external service may be on: those the user named to <c>conclab serve --allow-host</c>.</summary>
    public IReadOnlyList<string>? AllowedHosts { get; init; }
}

/// <summary>A product as the product service answers it.</summary>
internal sealed class Product
{
    public int Id { get; set; }

    public string? Name { get; set; }

    public long Price { get; set; }

    public string? Category { get; set; }
}
