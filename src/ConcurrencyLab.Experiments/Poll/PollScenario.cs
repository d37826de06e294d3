using ConcurrencyLab.Reproduction.Claims;
using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Experiments.Poll.Receivers;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// A server holding many real connections on loopback, each carrying a message now and then; the variants
/// receive them by dedicated threads, by polling through the pool, Task, async methods or Parallel.For,
/// or by leaving the waiting to the runtime's socket engine. Reproduces the post "Implementing Concurrency in C#", where 500 in-memory
/// objects were polled every 50 ms.
/// </summary>
public sealed class PollScenario : Scenario, IReproducesPost
{
    private const int PrimerMessages = 4;

    /// <inheritdoc/>
    public override string Name => "poll";

    /// <inheritdoc/>
    public override string Summary => "receive from N mostly idle loopback connections: threads vs polling through the pool vs pending receives";

    /// <inheritdoc/>
    public override string Reproduces
        => "threads vs ThreadPool vs Task vs await vs Parallel polling 500 connections (the post \"Implementing Concurrency in C#\")";

    /// <inheritdoc/>
    PublishedClaims IReproducesPost.Claims => PollClaims.All;

    /// <inheritdoc/>
    /// <remarks>a thread per connection, polling through the pool and with await, and a pending receive per connection.</remarks>
    internal override IReadOnlyList<string> FirstLook => ["threads", "threadpool", "await", "receive-async"];

    internal static readonly Parameter<int> Connections = Parameter.WholeNumber("connections", 500,
        "connections the server holds open (the published 500)", minimum: 1, maximum: 4000);

    internal static readonly Parameter<int> IntervalMs = Parameter.WholeNumber("interval-ms", 50,
        "poll interval, ms; the server's schedule is cut into intervals of this length", minimum: 1, maximum: 10_000);

    internal static readonly Parameter<double> HitRate = Parameter.Number("hit-rate", 0.01,
        "share of a connection's intervals that carry a message (the published 1 in 100)", minimum: 1e-6, maximum: 1);

    internal static readonly Parameter<int> WorkMs = Parameter.WholeNumber(
        "work-ms", 0,
            "what processing one message costs, ms: blocked or awaited as the variant implies (the published supplements: 100, 500)", minimum: 0,
                maximum: 60_000);

    internal static readonly Parameter<double> Duration = Parameter.Number("duration", 10,
        "seconds the server sends for", minimum: 0.01, maximum: 3600, quick: 1);

    internal static readonly Parameter<double> Drain = Parameter.Number(
        "drain", 30,
            "seconds after the last send the receivers get to process their backlog; a message still unprocessed then counts as lost", minimum: 0,
                maximum: 3600);

    internal static readonly Parameter<int> Workers = Parameter.WholeNumber(
        "workers", 64, "workers of the channel-fanin variant; it needs at least messages/s x work-ms/1000 of them", minimum: 1, maximum: 10_000);

    /// <inheritdoc/>
    public override IReadOnlyList<Parameter> Parameters { get; init; } = [Connections, IntervalMs, HitRate, WorkMs, Duration, Drain, Workers];

    /// <inheritdoc/>
    public override IEnumerable<string> Validate(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var interval = parameters.Get(IntervalMs);
        var durationMs = parameters.Get(Duration) * 1000;
        if (durationMs < interval)
        {
            yield return $"--duration ({parameters.Get(Duration).ToString(CultureInfo.InvariantCulture)} s) must cover at least one " +
                $"interval ({interval} ms).";
        }
        else if (parameters.Get(Connections) * (durationMs / interval) > 20_000_000)
        {
            yield return "--connections x --duration / --interval-ms must be at most 20,000,000 connection-intervals; shorten the run or " +
                "lengthen the interval.";
        }
    }

    private static readonly VariantSpace Receivers = new("poll", "receiver",
        [.. ReceiverCatalog.All.Select(r => new VariantFamily(r.Id, r.Description))]);

    /// <inheritdoc/>
    public override VariantSpace Variants(ParameterValues parameters) => Receivers;

    /// <inheritdoc/>
    public override IReadOnlyList<Variant> DefaultVariants(ParameterValues parameters) => [.. Receivers.Families.Select(f => Receivers.Create(f.Id))];

    /// <inheritdoc/>
    public override Variant DefaultBaseline(ParameterValues parameters) => Receivers.Create("threads");

    /// <inheritdoc/>
    public override IdealBound Ideal(ParameterValues parameters, int seed)
    {
        var schedule = Schedule(parameters, seed);
        var work = parameters.Get(WorkMs);
        if (schedule.Count == 0)
        {
            return new IdealBound(0, "no message is scheduled at these settings, so there is no bound");
        }

        var last = schedule.LastOffsetMs.ToString("0.#", CultureInfo.InvariantCulture);
        return new IdealBound(
            schedule.LastOffsetMs + work,
            $"the last of {schedule.Count} messages goes out at {last} ms and takes {work} ms to process, so no receiver finishes sooner");
    }

    /// <inheritdoc/>
    public override TimeSpan ExpectedTrialDuration(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return TimeSpan.FromSeconds(parameters.Get(Duration) + 2);
    }

    internal static readonly Metric MessagesPerSec = Metric.Rate("messagesPerSec", "Msgs/s") with
    {
        Visibility = MetricVisibility.Everywhere,
        Description = "messages processed per second of sending",
    };

    internal static readonly Metric PollsPerSec = Metric.Rate("pollsPerSec", "Polls/s") with
    {
        Direction = MetricDirection.Neither,
        Visibility = MetricVisibility.Everywhere,
        Description = "connections polled per second of the region (0 for the variants that wait for data instead of polling)",
    };

    internal static readonly Metric SteadyStateMs = Metric.Milliseconds("steadyStateMs", "Steady") with
    {
        Format = MetricFormat.Number,
        Visibility = MetricVisibility.Everywhere,
        NegativeMeansNever = true,
        Description = "how long the receive rate took to first reach 95% of the send rate; -1: never while the server sent; absent: no " +
            "window held enough messages to judge",
    };

    internal static readonly Metric Sent = Metric.Count("sent", "Sent") with { Direction = MetricDirection.Neither,
        Description = "messages the server sent" };

    internal static readonly Metric Received = Metric.Count("received", "Received") with { Direction = MetricDirection.HigherIsBetter,
        Description = "messages processed, each counted once" };

    internal static readonly Metric Lost = Metric.Count("lost", "Lost") with
    {
        Description = "messages sent and not processed by the end of the drain time",
    };

    internal static readonly Metric Duplicated = Metric.Count("duplicated", "Duplicated") with { Description = "messages processed more than once" };

    internal static readonly Metric Misrouted = Metric.Count("misrouted", "Misrouted") with
    {
        Description = "messages taken from a connection other than their own",
    };

    internal static readonly Metric Polls = Metric.Count("polls", "Polls") with { Direction = MetricDirection.Neither,
        Description = "times a receiver looked at a connection" };

    internal static readonly Metric SkippedPolls = Metric.Count("skippedPolls", "Skipped polls") with { Direction = MetricDirection.Neither,
        Description = "polls skipped because the connection's earlier poll had not finished" };

    internal static readonly Metric SteadyWindowMs = Metric.Milliseconds("steadyWindowMs", "Steady window") with
    {
        Direction = MetricDirection.Neither,
        Description = "the window over which the receive rate was compared with the send rate",
    };

    /// <inheritdoc/>
    public override IReadOnlyList<Metric> Metrics { get; init; } =
        [MessagesPerSec, PollsPerSec, SteadyStateMs, Sent, Received, Lost, Duplicated, Misrouted, Polls, SkippedPolls, SteadyWindowMs];

    /// <inheritdoc/>
    public override IEnumerable<string> Notes(ParameterValues parameters, bool quick)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (quick)
        {
            yield return $"quick scale: the server sends for {parameters.Get(Duration).ToString(CultureInfo.InvariantCulture)} s (the full " +
                $"run: {Duration.DefaultValue} s).";
        }

        yield return "item latency here is delivery latency: from the server's send stamp to the start of processing. Steady is how long " +
            "the receive rate took to first reach 95% of the send rate, allowing a lag of 2 intervals + work-ms; never: not while the " +
            "server sent (-1 in the JSON).";
    }

    /// <inheritdoc/>
    public override async Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        var receiver = ReceiverCatalog.Find(context.Variant.Family)
            ?? throw new ArgumentException($"'{context.Variant.Family}' is not a poll receiver.", nameof(context));
        var parameters = context.Parameters;
        var settings = new SessionSettings(
            parameters.Get(IntervalMs),
            parameters.Get(WorkMs),
            parameters.Get(Workers),
            TimeSpan.FromSeconds(parameters.Get(Drain)));
        var schedule = Schedule(parameters, context.Seed);

        using var fixture = await PollFixture.StartAsync(parameters.Get(Connections), cancellationToken).ConfigureAwait(false);
        if (context.Prime)
        {
            // A few messages through the same receiver compile its paths; too few to make the pool grow. They go on
            // as many connections as messages (the first ones), and the receiver is given only those: given all 500, `threads` made
            // 500 threads to prime and its start-up took 2.4-2.7 s (medians) against 0.35-0.45 s for the pool's receivers.
            var primer = SendSchedule.Primer(fixture.Connections.Count, settings.IntervalMs, PrimerMessages);
            var drain = TimeSpan.FromMilliseconds(settings.IntervalMs + settings.WorkMs) + TimeSpan.FromSeconds(10);
            var primed = await RunSessionAsync(fixture, receiver, primer, settings with { Drain = drain }, meter: null,
                cancellationToken, connections: primer.Count).ConfigureAwait(false);
            if (primed.Error is not null)
            {
                return new TrialOutcome { ItemsPlanned = schedule.Count, ItemsCompleted = 0, Error = "while priming: " + primed.Error };
            }
        }

        var run = await RunSessionAsync(fixture, receiver, schedule, settings, context.Meter, cancellationToken).ConfigureAwait(false);
        return run with { WorkloadDigest = schedule.Digest() };
    }

    internal static SendSchedule Schedule(ParameterValues parameters, int seed)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return SendSchedule.Generate(
            parameters.Get(Connections),
            parameters.Get(IntervalMs),
            parameters.Get(HitRate),
            parameters.Get(Duration) * 1000,
            seed);
    }

    /// <summary>
    /// Sends <paramref name="schedule"/> and has <paramref name="receiver"/> take it, then reports what
    /// arrived. The measured region runs on a dedicated thread created before it starts: it starts the meter,
    /// the server and the receiver, blocks until the last message has been processed (or the drain time
    /// passes) and stops the meter at once, so the end is not delayed by a starved pool.
    /// </summary>
    internal static async Task<TrialOutcome> RunSessionAsync(
        PollFixture fixture, Receiver receiver, SendSchedule schedule, SessionSettings settings, TrialMeter? meter,
            CancellationToken cancellationToken, int? connections = null)
    {
        // Disposed only once the receiver has stopped: a receiver still running would signal disposed events.
        var ledger = new DeliveryLedger(schedule.Count);
        var polled = connections is { } first && first < fixture.Connections.Count ? [.. fixture.Connections.Take(first)] : fixture.Connections;
        var session = new PollSession(polled, ledger, settings.IntervalMs, settings.WorkMs, settings.Workers);
        var stopped = false;
        try
        {
            (var outcome, stopped) = await RunSessionAsync(fixture, receiver, schedule, settings, meter, ledger, session, cancellationToken)
                .ConfigureAwait(false);
            return outcome;
        }
        finally
        {
            if (stopped)
            {
                session.Dispose();
                ledger.Dispose();
            }
        }
    }

    // The outcome, and whether the receiver stopped (only then may the session and ledger be disposed).
    private static async Task<(TrialOutcome Outcome, bool Stopped)> RunSessionAsync(
        PollFixture fixture,
        Receiver receiver,
        SendSchedule schedule,
        SessionSettings settings,
        TrialMeter? meter,
        DeliveryLedger ledger,
        PollSession session,
        CancellationToken cancellationToken)
    {
        var started = new TaskCompletionSource<(SendJob Job, Task Receiving, long Origin, double WallMs)>(
            TaskCreationOptions.RunContinuationsAsynchronously);
        var conductor = new Thread(() =>
        {
            try
            {
                meter?.Start();
                var origin = Stopwatch.GetTimestamp();
                var job = fixture.Server.Send(schedule, origin);
                var receiving = receiver.StartAsync(session);
                var limit = TimeSpan.FromMilliseconds(schedule.DurationMs) + settings.Drain;
                var remaining = limit - Stopwatch.GetElapsedTime(origin);
                using (cancellationToken.Register(session.Stop))
                {
                    WaitHandle.WaitAny([ledger.AllProcessed, session.Failed, session.Stopping.WaitHandle], remaining > TimeSpan.Zero ? remaining
                        : TimeSpan.Zero);
                }

                // When every message was processed, the region ends at the moment the last one finished, not
                // when this thread woke to see it: on 2 busy cores that wake-up can come late.
                var finished = ledger.AllProcessedTimestamp is > 0 and var at ? at : Stopwatch.GetTimestamp();
                var wall = meter?.Stop(finished).WallMs ?? Stopwatch.GetElapsedTime(origin, finished).TotalMilliseconds;

                // Stopped here, not by the awaiting code: its continuation queues behind every poll already in
                // a starved pool's queue, and those polls would go on processing the backlog until it ran.
                session.Stop();
                started.TrySetResult((job, receiving, origin, wall));
            }
            catch (Exception ex)
            {
                session.Stop();
                if (meter is { Started: true })
                {
                    meter.Stop();
                }

                started.TrySetException(ex);
            }
        })
        {
            IsBackground = true,
            Name = "conclab poll trial",
        };
        conductor.Start();
        var (job, receiving, origin, wallMs) = await started.Task.ConfigureAwait(false);
        var stopLimit = StopLimit(settings.WorkMs);
        var stopped = await Task.WhenAny(receiving, Task.Delay(stopLimit, CancellationToken.None)).ConfigureAwait(false) == receiving;
        var stopProblem = stopped ? null : $"the receiver did not stop within {stopLimit.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s";

        // The schedule may still be going out when the run ended early (a failure); the server keeps its
        // sending thread, so wait for the job to finish or fail rather than leave it half sent.
        var sendProblem = await SendProblemAsync(job, schedule).ConfigureAwait(false);
        return (Outcome(schedule, job, ledger, session, origin, wallMs, settings, stopProblem ?? sendProblem), stopped);
    }

    private static async Task<string?> SendProblemAsync(SendJob job, SendSchedule schedule)
    {
        var waitMs = Math.Max(0, schedule.DurationMs - Stopwatch.GetElapsedTime(job.Origin).TotalMilliseconds) + 5_000;
        if (await Task.WhenAny(job.Completion, Task.Delay(TimeSpan.FromMilliseconds(waitMs), CancellationToken.None))
            .ConfigureAwait(false) != job.Completion)
        {
            return $"the server sent {job.Sent} of {schedule.Count} messages and did not finish";
        }

        return job.Completion.IsFaulted
            ? $"the server sent {job.Sent} of {schedule.Count} messages, then failed: {job.Completion.Exception!.GetBaseException().Message}" : null;
    }

    private static TrialOutcome Outcome(
        SendSchedule schedule, SendJob job, DeliveryLedger ledger, PollSession session, long origin, double wallMs,
            SessionSettings settings, string? problem)
    {
        var toMs = 1000.0 / Stopwatch.Frequency;
        var sentMs = new double[job.Sent];
        var startedMs = new List<double>(ledger.Unique);
        var latencies = new List<double>(ledger.Unique);
        for (var id = 0; id < job.Sent; id++)
        {
            sentMs[id] = (job.SentTimestamps[id] - origin) * toMs;
            var start = ledger.StartTimestamps[id];
            if (start != 0)
            {
                startedMs.Add((start - origin) * toMs);
                latencies.Add((start - job.SentTimestamps[id]) * toMs);
            }
        }

        var sendingMs = Math.Max(schedule.DurationMs, settings.IntervalMs);
        var rate = schedule.Count * 1000.0 / sendingMs;
        var window = SteadyState.WindowMs(settings.IntervalMs, rate, sendingMs);
        var metrics = new MetricValues
        {
            [Sent] = job.Sent,
            [Received] = ledger.Unique,
            [Lost] = ledger.Lost,
            [Duplicated] = ledger.Duplicated,
            [Misrouted] = ledger.Misrouted,
            [Polls] = ledger.Polls,
            [SkippedPolls] = ledger.SkippedPolls,
            [MessagesPerSec] = ledger.Unique * 1000.0 / sendingMs,
            [PollsPerSec] = wallMs > 0 ? ledger.Polls * 1000.0 / wallMs : 0,
            [SteadyWindowMs] = window,
        };

        // Left out when no window held enough messages to judge a rate (a sparse schedule, or a lag longer than the run).
        if (SteadyState.FirstReachedMs(sentMs, startedMs, window, settings.IntervalMs,
            sendingMs, SteadyState.AllowedLagMs(settings.IntervalMs, settings.WorkMs)) is { } steady)
        {
            metrics[SteadyStateMs] = steady;
        }

        var error = session.Failure is { } failure
            ? TrialFailure.Describe(failure)
            : problem;
        if (error is null && (ledger.Lost > 0 || ledger.Duplicated > 0 || ledger.Misrouted > 0))
        {
            var drain = settings.Drain.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture);
            error = $"of {schedule.Count} messages sent, {ledger.Lost} lost (not processed {drain} s after the last send), " +
                $"{ledger.Duplicated} duplicated, {ledger.Misrouted} misrouted.";
        }

        return new TrialOutcome
        {
            ItemsPlanned = schedule.Count,
            ItemsCompleted = ledger.Unique,
            ItemsDuplicated = ledger.Duplicated,
            LatenciesMs = latencies,
            Metrics = metrics,
            Error = error,
        };
    }

    /// <summary>
    /// How long stopped receivers get to wind down: a message they were processing, plus 30 s for a pool
    /// working through its queue of polls, which return at once once the session is stopped.
    /// </summary>
    internal static TimeSpan StopLimit(int workMs) => TimeSpan.FromMilliseconds(workMs) + TimeSpan.FromSeconds(30);

    internal sealed record SessionSettings(int IntervalMs, int WorkMs, int Workers, TimeSpan Drain);
}
