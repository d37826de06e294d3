using System.Diagnostics;
using ConcurrencyLab.Results;
using HdrHistogram;

namespace ConcurrencyLab.Load;

/// <summary>
/// One step of open-loop load: requests sent at the times an <see cref="ArrivalSchedule"/> fixed in advance,
/// whatever the service does, each timed twice: from the time it was meant to be sent (the latency a user waiting
/// on that schedule sees, corrected for coordinated omission as wrk2 does) and from the time it was really sent
/// (the service time). The schedule runs on a thread of its own, so a busy or starved thread pool cannot hold a
/// send back from its time unseen: a send that starts late is counted, and its lag is in the first figure.
/// </summary>
internal static class OpenLoopStep
{
    /// <summary>A send this many milliseconds after its time is counted as late (<see cref="LoadStep.Late"/>).</summary>
    public const double LateMs = 5;

    /// <summary>The longest latency the histograms hold; longer ones are recorded as this.</summary>
    public static readonly TimeSpan LongestRecorded = TimeSpan.FromMinutes(10);

    /// <summary>
    /// Runs a step: <paramref name="send"/> once at each time of a schedule at <paramref name="ratePerSecond"/> over
    /// <paramref name="duration"/>, each given <paramref name="timeout"/> to finish; then waits for the last.
    /// </summary>
    /// <param name="send">One request: done when its reply is; it throws for an error, and must honour the token for a timeout.</param>
    /// <param name="ratePerSecond">The offered rate.</param>
    /// <param name="duration">How long requests are sent for.</param>
    /// <param name="arrivals">Evenly spaced, or a Poisson process.</param>
    /// <param name="seed">The Poisson schedule's seed.</param>
    /// <param name="timeout">How long one request may take before it is counted as timed out and abandoned.</param>
    /// <param name="cancellationToken">Stops the schedule; the requests under way are then abandoned.</param>
    public static async Task<LoadStep> RunAsync(
        Func<CancellationToken, Task> send,
        double ratePerSecond,
        TimeSpan duration,
        Arrivals arrivals,
        int seed,
        TimeSpan timeout,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(send);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        var offsets = ArrivalSchedule.OffsetsMs(ratePerSecond, duration, arrivals, seed);
        var recording = new Recording();
        var requests = new Task[offsets.Length];
        var sent = 0;
        var start = Stopwatch.GetTimestamp();

        // Each request is started on the schedule's own thread, at its time; what it awaits runs wherever it runs.
        // The thread says when it is done, so no pool thread waits on it.
        var scheduled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var schedule = new Thread(() =>
        {
            for (var i = 0; i < offsets.Length && !cancellationToken.IsCancellationRequested; i++)
            {
                var intended = start + (long)(offsets[i] * Stopwatch.Frequency / 1000);
                WaitUntil(intended, cancellationToken);
                requests[i] = One(send, intended, timeout, recording, cancellationToken);
                sent = i + 1;
            }

            scheduled.SetResult();
        })
        {
            IsBackground = true,
            Name = "conclab open-loop schedule",
        };
        schedule.Start();
        await scheduled.Task.ConfigureAwait(false);
        await Task.WhenAll(requests.Take(sent)).ConfigureAwait(false);
        cancellationToken.ThrowIfCancellationRequested();

        var seconds = duration.TotalSeconds;
        var span = Math.Max(seconds, Stopwatch.GetElapsedTime(start, recording.LastDone).TotalSeconds);
        return recording.Result(ratePerSecond, offsets.Length, sent, seconds, span);
    }

    // Sleeps while the time is more than 2 ms away, then nanosleeps (on Linux) until it comes: a sleep alone can wake a
    // millisecond or more late, and a spin or yield in the last stretch cost a core at 512 requests a second (their
    // gaps are all under 2 ms), CPU taken from a service on the same machine.
    private static void WaitUntil(long timestamp, CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            var leftMs = (timestamp - Stopwatch.GetTimestamp()) * 1000.0 / Stopwatch.Frequency;
            if (leftMs <= 0)
            {
                return;
            }

            if (leftMs > 2)
            {
                Thread.Sleep(TimeSpan.FromMilliseconds(leftMs - 1.5));
            }
            else
            {
                Workloads.PreciseTimer.SpinUntil(timestamp);
            }
        }
    }

    // One request, timed from its intended time (null: from its send, as in a closed loop, where a request is meant to
    // go when it goes and cannot be late).
    internal static async Task One(
        Func<CancellationToken, Task> send,
        long? intendedAt,
        TimeSpan timeout,
        Recording recording,
        CancellationToken cancellationToken)
    {
        var sentAt = Stopwatch.GetTimestamp();
        var intended = intendedAt ?? sentAt;
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(timeout);
        string? failure = null;
        var timedOut = false;
        try
        {
            await send(limit.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested && limit.IsCancellationRequested)
        {
            timedOut = true;
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            failure = KindOf(ex);
        }
        catch (OperationCanceledException)
        {
            // The step was stopped: this request is abandoned, not counted.
            return;
        }

        recording.Add(intended, sentAt, Stopwatch.GetTimestamp(), failure, timedOut);
    }

    // A failure's kind as a report says it: the status an HTTP reply had, how a request failed, or the exception's type.
    private static string KindOf(Exception ex) => ex switch
    {
        RequestFailedException failed => failed.Kind,
        HttpRequestException { HttpRequestError: not HttpRequestError.Unknown } http => http.HttpRequestError.ToString(),
        _ => ex.GetType().Name,
    };

    // What the requests measured, added to from many threads under one lock: a few microseconds a request.
    internal sealed class Recording
    {
        private readonly Lock _lock = new();
        private readonly LongHistogram _latency = Histogram();
        private readonly LongHistogram _service = Histogram();
        private readonly LongHistogram _lag = Histogram();
        private readonly Dictionary<string, int> _failed = new(StringComparer.Ordinal);
        private int _completed;
        private int _timedOut;
        private int _late;

        public long LastDone { get; private set; }

        public void Add(long intended, long sentAt, long doneAt, string? failure, bool timedOut)
        {
            lock (_lock)
            {
                LastDone = Math.Max(LastDone, doneAt);
                var lagMs = Math.Max(0, Stopwatch.GetElapsedTime(intended, sentAt).TotalMilliseconds);
                _lag.RecordValue(Micros(lagMs));
                _late += lagMs > LateMs ? 1 : 0;
                if (timedOut)
                {
                    _timedOut++;
                    return;
                }

                if (failure is not null)
                {
                    _failed[failure] = _failed.GetValueOrDefault(failure) + 1;
                    return;
                }

                _completed++;
                _latency.RecordValue(Micros(Stopwatch.GetElapsedTime(intended, doneAt).TotalMilliseconds));
                _service.RecordValue(Micros(Stopwatch.GetElapsedTime(sentAt, doneAt).TotalMilliseconds));
            }
        }

        public LoadStep Result(double offered, int planned, int sent, double seconds, double span)
        {
            lock (_lock)
            {
                return new LoadStep
                {
                    OfferedPerSecond = offered,
                    Planned = planned,
                    Sent = sent,
                    Completed = _completed,
                    TimedOut = _timedOut,
                    Failed = new Dictionary<string, int>(_failed, StringComparer.Ordinal),
                    Late = _late,
                    SentPerSecond = sent / seconds,
                    CompletedPerSecond = _completed / span,
                    Latency = Quantiles(_latency),
                    Service = Quantiles(_service),
                    Lag = Quantiles(_lag),
                };
            }
        }

        private static LongHistogram Histogram() => new(Micros(LongestRecorded.TotalMilliseconds), 3);

        private static long Micros(double ms) => (long)Math.Clamp(Math.Round(ms * 1000), 0, LongestRecorded.TotalMilliseconds * 1000);

        private static LatencyQuantiles? Quantiles(LongHistogram histogram) =>
            histogram.TotalCount == 0
                ? null
                : new LatencyQuantiles(Ms(histogram.GetValueAtPercentile(50)), Ms(histogram.GetValueAtPercentile(90)),
                    Ms(histogram.GetValueAtPercentile(99)), Ms(histogram.GetValueAtPercentile(99.9)), Ms(histogram.GetMaxValue()));

        private static double Ms(long micros) => micros / 1000.0;
    }
}

/// <summary>A request that was answered, but not with success: its kind is what the report counts it under (<c>HTTP 503</c>).</summary>
internal sealed class RequestFailedException : Exception
{
    /// <summary>A failure of <paramref name="kind"/>.</summary>
    public RequestFailedException(string kind)
        : base(kind) => Kind = kind;

    /// <summary>The failure's kind.</summary>
    public string Kind { get; }
}
