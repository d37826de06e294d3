using System.Globalization;
using ConcurrencyLab.Workloads;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using ConcurrencyLab.Experiments.Hosting;

namespace ConcurrencyLab.Experiments.Fanout;

/// <summary>
/// The slow external service of the fanout experiment: name, price and category of a product, each answered
/// after its configured delay. The delay is awaited on a Stopwatch-driven timer, so a waiting request holds
/// no thread and the service itself never becomes the bottleneck under load.
/// </summary>
internal static class ExternalService
{
    /// <summary>The service's name on the command line of its process.</summary>
    public const string Name = "external";

    /// <summary>The service as the fanout scenario registers it and its trials start it.</summary>
    public static ServiceDefinition<ExternalServiceSettings> Definition { get; } = new(Name, Map);

    /// <summary>Adds the endpoints to <paramref name="app"/> for the delays in <paramref name="settings"/>.</summary>
    public static void Map(WebApplication app, ExternalServiceSettings settings)
    {
        ArgumentNullException.ThrowIfNull(app);
        ArgumentNullException.ThrowIfNull(settings);

        // The timer and its thread are made as the service starts, not by the measured round's first call.
        _ = PreciseTimer.Shared;
        app.MapGet("/name/{id:int}", (int id) => AnswerAsync(id, settings.NameMs, $"Name {id.ToString(CultureInfo.InvariantCulture)}"));
        app.MapGet("/price/{id:int}", (int id) => AnswerAsync(id, settings.PriceMs, (id * 1000L).ToString(CultureInfo.InvariantCulture)));
        app.MapGet("/category/{id:int}", (int id) => AnswerAsync(id, settings.CategoryMs, $"Category {id.ToString(CultureInfo.InvariantCulture)}"));
    }

    /// <summary>Whether a product id asks for an answer without the delay: priming requests, which warm the code paths and not the clock.</summary>
    public static bool IsPriming(int id) => id < 0;

    /// <summary>
    /// How long a call for <paramref name="id"/> waits on the timer before its answer, in ms, or null for no wait: its
    /// delay, or for a priming call a wait of no time. A priming call that answered at once would leave the measured
    /// round's calls to compile, on their way, the timer's queue and every asynchronous path of this handler, of minimal
    /// APIs and of Kestrel beneath it: some forty methods, which a quick trial's JIT listing showed in the region.
    /// </summary>
    internal static int? TimerWaitMs(int id, int delayMs) => delayMs <= 0 ? null : IsPriming(id) ? 0 : delayMs;

    private static async Task<IResult> AnswerAsync(int id, int delayMs, string body)
    {
        if (TimerWaitMs(id, delayMs) is { } waitMs)
        {
            await PreciseTimer.Shared.WaitAsync(waitMs).ConfigureAwait(false);
        }

        return Microsoft.AspNetCore.Http.Results.Text(body);
    }
}

/// <summary>How long each endpoint of the <see cref="ExternalService"/> waits before it answers, already time-scaled.</summary>
internal sealed record ExternalServiceSettings(int NameMs, int PriceMs, int CategoryMs);
