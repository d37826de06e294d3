using System.Net;
using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Load;

/// <summary>What a load run tells whoever shows it, as it goes.</summary>
internal interface ILoadObserver
{
    /// <summary>A step was measured; <paramref name="outcome"/> is how it fared against the variant's SLO so far.</summary>
    void StepDone(string variant, LoadStep step, StepOutcome outcome, double? sloMs);

    /// <summary>Something the reader should know at once: a service that would not start, a step cut short.</summary>
    void Note(string note);

    /// <summary>A service the run started answers: its process and the processes it had started by then, in that order.</summary>
    void ServiceStarted(string variant, IReadOnlyCollection<int> processIds)
    {
    }
}

/// <summary>
/// A load run: for each repeat, each variant in turn (rotated, as a run's trials are), against a fresh service when
/// the lab starts it, the rates stepped or searched, each step an unmeasured warm-up then a measured open-loop step;
/// then each variant's saturation point. The load generator is this process; the service is another.
/// </summary>
internal static class LoadRun
{
    /// <summary>The name of the one scenario a load run's results hold.</summary>
    public const string ScenarioName = "load";

    /// <summary>Runs <paramref name="options"/> (checked already: <see cref="LoadOptions.Problems"/> is empty) and
    /// returns everything measured, also when stopped.</summary>
    public static async Task<RunResult> RunAsync(LoadOptions options, ILoadObserver observer, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(observer);
        var started = DateTime.UtcNow.ToString("O", CultureInfo.InvariantCulture);

        // As a run does: what killed runs left is removed first, and this one writes down what it makes (the event
        // sessions' sockets and samples), so a next run removes them if this one is killed outright.
        var runNotes = RunJournal.RemoveLeftovers().ToList();
        using var journal = RunJournal.TryBegin(runNotes);
        var steps = options.Variants.ToDictionary(e => e.Name, _ => new List<LoadStep>(), StringComparer.Ordinal);
        var notes = options.Variants.ToDictionary(e => e.Name, _ => new List<string>(), StringComparer.Ordinal);
        var slos = options.Variants.ToDictionary(e => e.Name, _ => options.SloMs, StringComparer.Ordinal);
        var cancelled = false;
        var gaveUp = false;
        for (var repeat = 0; repeat < options.Repeat && !cancelled && !gaveUp; repeat++)
        {
            // Rotated each repeat, so no variant always runs first on a cold machine or last on a hot one.
            var order = options.Variants.Skip(repeat % options.Variants.Count).Concat(options.Variants.Take(repeat % options.Variants.Count))
                .ToList();
            foreach (var endpoint in order)
            {
                if (cancellationToken.IsCancellationRequested)
                {
                    cancelled = true;
                    break;
                }

                var context = new VariantRun(options, endpoint, repeat, observer, slos);
                try
                {
                    await context.RunAsync(cancellationToken).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
                {
                    cancelled = true;
                }
#pragma warning disable CA1031 // A failure inside one variant's repeat is recorded, and the run goes on with what it has.
                catch (Exception ex) when (ex is not OperationCanceledException)
#pragma warning restore CA1031
                {
                    context.Notes.Add($"repeat {repeat + 1}: stopped by an error in the lab: {ex.GetType().Name}: {ex.Message}".ReplaceLineEndings(
                        " "));
                }

                steps[endpoint.Name].AddRange(context.Steps);
                notes[endpoint.Name].AddRange(context.Notes);
                foreach (var note in context.Notes)
                {
                    observer.Note($"{endpoint.Name}: {note}");
                }

                // A service that would not start before anything was measured will not for the next variant either:
                // stopped at once, rather than after a ready timeout for each.
                if (context.Steps.Count == 0 && steps.Values.All(s => s.Count == 0) && !cancellationToken.IsCancellationRequested)
                {
                    gaveUp = true;
                    break;
                }
            }
        }

        var variants = options.Variants.Select(e => new LoadVariant
        {
            Name = e.Name,
            Path = e.Path,
            Command = options.Starts.Count > 0 ? e.Command : null,
            SloMs = slos[e.Name] is { } slo ? Math.Round(slo, 3) : null,
            Steps = steps[e.Name],
            Saturation = steps[e.Name].Count > 0 && options.Connections is null
                ? Saturation.Of(steps[e.Name], slos[e.Name], Environment.ProcessorCount) : null,
            Notes = notes[e.Name],
        }).ToList();
        var load = new LoadResult
        {
            Url = options.Url ?? LoadOptions.BaseOf(options.Ready!),
            Command = options.Command,
            ProcessId = options.Pid,
            Protocol = options.Http2 ? "HTTP/2" : "HTTP/1.1",
            Arrivals = options.Arrivals.ToString().ToLowerInvariant(),
            Searched = options.Auto,
            StepSeconds = options.Step.TotalSeconds,
            WarmupSeconds = options.Warmup.TotalSeconds,
            TimeoutSeconds = options.Timeout.TotalSeconds,
            SloMs = options.SloMs,
            Variants = variants,
        };
        var scenario = new ScenarioResult
        {
            Name = ScenarioName,
            Parameters = Parameters(options),
            IdealMs = 0,
            IdealReason = "a service under load has no ideal here: each variant is measured against its own SLO",
            Baseline = options.Variants[0].Name,
            Variants = [],
            Load = load,
            Notes = [.. runNotes, .. cancelled ? ["stopped by Ctrl+C: the steps measured before are kept; the step under way was not"]
                : gaveUp ? ["stopped: the service could not be started, so no variant was measured"]
                : Array.Empty<string>()],
        };
        return new RunResult
        {
            ToolVersion = RunResult.CurrentToolVersion,
            StartedAt = started,
            Environment = EnvironmentInfo.Current(),
            Settings = new RunSettings
            {
                Repeat = options.Repeat,
                Warmup = 0,
                Seed = options.Seed,
                Quick = options.Quick,
                Isolated = options.StartsService,
                Events = options.StartsService || options.Pid is not null ? options.Events : RuntimeEvents.Off,
            },
            Scenarios = [scenario],
            Cancelled = cancelled,
        };
    }

    private static Dictionary<string, string> Parameters(LoadOptions options)
    {
        var parameters = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["rate"] = options.Connections is { } connections ? $"closed loop, {connections} connections" : options.Auto ? $"auto from " +
                $"{Num(options.StartRate)}" : string.Join(",", options.Rates.Select(Num)),
            ["arrivals"] = options.Arrivals.ToString().ToLowerInvariant(),
            ["step"] = $"{Num(options.Step.TotalSeconds)} s",
            ["warmup"] = $"{Num(options.Warmup.TotalSeconds)} s",
            ["timeout"] = $"{Num(options.Timeout.TotalSeconds)} s",
            ["slo"] = options.SloMs is { } slo ? $"{Num(slo)} ms" : $"{Num(Saturation.DefaultSloFactor)}x the lowest step's p50",
            ["endpoints"] = string.Join(",", options.Variants.Select(e => $"{e.Name}={e.Path}")),
        };
        return parameters;
    }

    private static string Num(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);

    // One variant's steps in one repeat. When the lab starts the service, a step that did not keep up leaves a backlog
    // a service goes on working through after its client has given up on it (a sync endpoint ran its timed-out
    // requests for seconds, and every step after it completed none): the next step gets a fresh service.
    private sealed class VariantRun(LoadOptions options, Endpoint endpoint, int repeat, ILoadObserver observer, Dictionary<string, double?> slos)
    {
        private readonly List<(int Index, long Start, long End)> _measured = [];
        private RuntimeEventSession? _session;
        private StartedService? _service;
        private Process? _attached;
        private Uri? _path;
        private long _origin = Stopwatch.GetTimestamp();
        private bool _originSet;

        public List<LoadStep> Steps { get; } = [];

        public List<string> Notes { get; } = [];

        public async Task RunAsync(CancellationToken cancellationToken)
        {
            try
            {
                if (!await StartServiceAsync(cancellationToken).ConfigureAwait(false))
                {
                    return;
                }

                using var client = Client(options.Timeout, options.Http2, options.AllowHost);
                async Task Send(CancellationToken token)
                {
                    using var response = await client.GetAsync(_path, HttpCompletionOption.ResponseContentRead, token).ConfigureAwait(false);
                    if (!response.IsSuccessStatusCode)
                    {
                        throw new RequestFailedException($"HTTP {(int)response.StatusCode}");
                    }
                }

                var seed = options.Seed + (repeat * 7919);
                if (options.Connections is { } connections)
                {
                    await StepAsync(Send, 0, seed, cancellationToken, connections).ConfigureAwait(false);
                }
                else if (options.Auto)
                {
                    await SearchAsync(Send, seed, cancellationToken).ConfigureAwait(false);
                }
                else
                {
                    foreach (var rate in options.Rates)
                    {
                        if (await StepAsync(Send, rate, seed, cancellationToken).ConfigureAwait(false) is not { } outcome
                            || outcome is StepOutcome.Stopped or StepOutcome.Died)
                        {
                            break;
                        }
                    }
                }
            }
            finally
            {
                await EndServiceAsync().ConfigureAwait(false);
            }
        }

        // A service for the next steps: the lab's own start of it (with a port of its own where asked, and the runtime's
        // events read), or the one at --url. False when it could not be started; the note says why.
        private async Task<bool> StartServiceAsync(CancellationToken cancellationToken)
        {
            var port = endpoint.Command is not null
                && (endpoint.Command + options.Ready + options.Url).Contains(LoadOptions.PortPlaceholder, StringComparison.Ordinal)
                ? StartedService.FreePort().ToString(CultureInfo.InvariantCulture)
                : null;
            string Concrete(string text) => port is null ? text : text.Replace(LoadOptions.PortPlaceholder, port, StringComparison.Ordinal);
            var baseUrl = new Uri(Concrete(options.Url ?? LoadOptions.BaseOf(options.Ready!)));
            _path = new Uri(baseUrl, endpoint.Path.TrimStart('/'));
            if (!LoadOptions.SameAuthority(baseUrl, _path))
            {
                throw new InvalidOperationException($"--endpoint {endpoint.Path} reaches {_path.GetLeftPart(UriPartial.Authority)}, not the " +
                    $"service at {baseUrl.GetLeftPart(UriPartial.Authority)}");
            }
            if (endpoint.Command is not { } command)
            {
                // A service already running is asked once before it is loaded: any reply will do, but nothing at all
                // (nothing listening) is no service to measure, not a step of failed requests.
                var guarded = Loopback.Handler(options.AllowHost);
                guarded.ConnectTimeout = TimeSpan.FromSeconds(5);
                using var probe = new HttpClient(guarded)
                {
                    Timeout = TimeSpan.FromSeconds(10),
                    DefaultRequestVersion = options.Http2 ? HttpVersion.Version20 : HttpVersion.Version11,
                    DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
                };
                try
                {
                    using var reply = await probe.GetAsync(baseUrl, cancellationToken).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
                {
                    var how = ex is HttpRequestException http ? http.HttpRequestError.ToString() : "no reply within 10 s";
                    Notes.Add($"repeat {repeat + 1}: not measured: nothing answered at {baseUrl} ({how})");
                    return false;
                }

                if (options.Pid is { } pid)
                {
                    await AttachAsync(pid, baseUrl).ConfigureAwait(false);
                }

                return true;
            }

            _session = RuntimeEventSession.Listen(options.Events, out var eventsNote);
            if (eventsNote is not null && !Notes.Contains(eventsNote))
            {
                Notes.Add(eventsNote);
            }

            try
            {
                _service = await StartedService.StartAsync(Concrete(command), new Uri(Concrete(options.Ready!)), options.ReadyTimeout,
                    _session, options.AllowHost, cancellationToken).ConfigureAwait(false);
                observer.ServiceStarted(endpoint.Name, _service.ProcessIds);
            }
            catch (InvalidOperationException ex)
            {
                Notes.Add($"repeat {repeat + 1}: not measured further: {ex.Message}");
                await EndServiceAsync().ConfigureAwait(false);
                return false;
            }

            if (!_originSet)
            {
                _origin = _service.StartedAt;
                _originSet = true;
            }

            return true;
        }

        // The runtime of the process --pid names, read for the steps to come: only where that process is the one listening
        // at the URL's port, since an account of another process would be put on this service's steps.
        private async Task AttachAsync(int pid, Uri baseUrl)
        {
            void Note(string note)
            {
                if (!Notes.Contains(note))
                {
                    Notes.Add(note);
                }
            }

            // Another user's process is not the lab's to read, whatever it listens on.
            if (Listening.OwnedByThisUser(pid) is false)
            {
                Note($"--pid {pid}: that process runs as another user, so no runtime account was read: the lab reads only its own user's processes");
                return;
            }

            switch (Listening.Holds(pid, baseUrl.Port))
            {
                case false:
                    Note($"--pid {pid}: that process is not running or does not listen on port {baseUrl.Port}, so no runtime account was " +
                        $"read: it would not be the service's");
                    return;
                case null:
                    Note($"--pid {pid}: whether it is the process listening on port {baseUrl.Port} could not be checked here (its open " +
                        $"sockets cannot be read, which only Linux's /proc tells), so no runtime account was read: it might not be the service's");
                    return;
            }

            try
            {
                _attached = Process.GetProcessById(pid);
            }
            catch (ArgumentException)
            {
                Note($"--pid {pid}: that process is not running, so no runtime account was read");
                return;
            }

            _session = RuntimeEventSession.AttachTo(pid, options.Events);
            if (_session is not null && await _session.Attaching.ConfigureAwait(false) is { } failed)
            {
                Note(failed);
            }
        }

        // The CPU the process --pid names has used so far, in milliseconds; null when it cannot be read or has ended.
        private double? AttachedCpuMs() => _attached is null ? null : StartedService.CpuMsOf(_attached);

        // Stops a started service, then reads the runtime's account of each step it served, once its events are all in.
        private async Task EndServiceAsync()
        {
            // The service's main threads (one per process of its tree: a thread's id is its process's for the first)
            // wait in app.Run() for it to end, by design: no part of what the steps made it do.
            var mains = _service?.ProcessIds ?? (_attached is { } attached ? [attached.Id] : []);
            if (_attached is not null)
            {
                // A service the lab did not start goes on running: its sessions are ended, so their streams end.
                if (_session is not null)
                {
                    await _session.StopAsync().ConfigureAwait(false);
                }

                _attached.Dispose();
                _attached = null;
            }

            if (_service is not null)
            {
                // A service that ends on SIGTERM ends its event sessions itself, with their rundown; one that does not
                // (a starved pool cannot run its shutdown) has its sessions ended before it is killed, so its frames
                // are named all the same.
                var session = _session;
                await _service.StopAsync(session is null ? null : session.StopAsync).ConfigureAwait(false);
                _service = null;
            }

            if (_session is not null)
            {
                if (_measured.Count > 0)
                {
                    var accounts = await _session.AccountsAsync([.. _measured.Select(m => (m.Start, m.End))], note: null, mains)
                        .ConfigureAwait(false);
                    for (var i = 0; i < _measured.Count; i++)
                    {
                        Steps[_measured[i].Index] = Steps[_measured[i].Index] with { Runtime = accounts[i] };
                    }
                }

                await _session.DisposeAsync().ConfigureAwait(false);
                _session = null;
            }

            _measured.Clear();
        }

        // Doubling from the start rate until a step fails, then halving the gap between the last rate kept up with and
        // the first not; a first step that fails halves the rate down (to 1 a second at the least) to find one that keeps up.
        private async Task SearchAsync(Func<CancellationToken, Task> send, int seed, CancellationToken cancellationToken)
        {
            double? kept = null, failed = null;
            var rate = options.StartRate;
            while (true)
            {
                var outcome = await StepAsync(send, rate, seed, cancellationToken).ConfigureAwait(false);
                if (outcome is null or StepOutcome.Stopped or StepOutcome.Died or StepOutcome.Generator)
                {
                    return;
                }

                if (outcome == StepOutcome.KeptUp)
                {
                    kept = rate;
                    if (failed is not null || rate * 2 > LoadOptions.MostRate)
                    {
                        break;
                    }

                    rate *= 2;
                }
                else
                {
                    failed = rate;
                    if (kept is not null || rate / 2 < 1)
                    {
                        break;
                    }

                    rate = Math.Max(1, Math.Round(rate / 2));
                }
            }

            if (kept is not { } low || failed is not { } high)
            {
                return;
            }

            for (var i = 0; i < options.Narrowing; i++)
            {
                var middle = Math.Round((low + high) / 2);
                if (middle <= low || middle >= high)
                {
                    return;
                }

                var outcome = await StepAsync(send, middle, seed, cancellationToken).ConfigureAwait(false);
                switch (outcome)
                {
                    case StepOutcome.KeptUp:
                        low = middle;
                        break;
                    case StepOutcome.Completions or StepOutcome.Latency:
                        high = middle;
                        break;
                    default:
                        return;
                }
            }
        }

        // A fresh service first where the last step did not keep up; then a warm-up at the rate, and the measured step.
        // Null when there is no service to load.
        private async Task<StepOutcome?> StepAsync(
            Func<CancellationToken, Task> send,
            double rate,
            int seed,
            CancellationToken cancellationToken,
            int? connections = null)
        {
            // A service that ended by itself between steps is recorded, not started again: its death is a finding.
            if (_service is { HasExited: true } gone)
            {
                Notes.Add($"repeat {repeat + 1}: the service exited (code {gone.ExitCode}) before the step at {Num(rate)}/s; the steps " +
                    $"before it are kept; its last output: {gone.LastLines()}");
                return null;
            }

            if (endpoint.Command is not null && Steps.Count > 0 && Saturation.Judge(Steps[^1], slos[endpoint.Name]) != StepOutcome.KeptUp)
            {
                await EndServiceAsync().ConfigureAwait(false);
                if (!await StartServiceAsync(cancellationToken).ConfigureAwait(false))
                {
                    return null;
                }
            }

            var service = _service;
            Task<LoadStep> Measure(TimeSpan duration, int stepSeed) => connections is { } n
                ? ClosedLoopStep.RunAsync(send, n, duration, options.Timeout, cancellationToken)
                : OpenLoopStep.RunAsync(send, rate, duration, options.Arrivals, stepSeed, options.Timeout, cancellationToken);
            if (options.Warmup > TimeSpan.Zero)
            {
                await Measure(options.Warmup, seed - 1).ConfigureAwait(false);
            }

            using var self = Process.GetCurrentProcess();
            var generatorBefore = self.TotalProcessorTime;
            var serviceBefore = service is not null ? service.CpuMs() : AttachedCpuMs();
            var start = Stopwatch.GetTimestamp();
            var measured = await Measure(options.Step, seed).ConfigureAwait(false);
            var end = Stopwatch.GetTimestamp();
            self.Refresh();
            var serviceAfter = service is not null ? service.CpuMs() : AttachedCpuMs();
            var died = service is { HasExited: true };
            var step = measured with
            {
                Repeat = repeat,
                OfferedPerSecond = connections is null ? rate : Math.Round(measured.OfferedPerSecond, 2),
                Connections = connections,
                StartMs = Math.Round(Stopwatch.GetElapsedTime(_origin, start).TotalMilliseconds, 1),
                WallMs = Math.Round(Stopwatch.GetElapsedTime(start, end).TotalMilliseconds, 1),
                SentPerSecond = Math.Round(measured.SentPerSecond, 2),
                CompletedPerSecond = Math.Round(measured.CompletedPerSecond, 2),
                GeneratorCpuMs = Math.Round((self.TotalProcessorTime - generatorBefore).TotalMilliseconds, 1),
                ServiceCpuMs = serviceBefore is { } b && serviceAfter is { } a ? Math.Round(a - b, 1) : null,
                Stopped = died,
                ServiceExitCode = died ? service!.ExitCode : null,
            };
            if (died)
            {
                Notes.Add($"repeat {repeat + 1}: the service exited (code {service!.ExitCode}) during the step at {Num(rate)}/s; the steps " +
                    $"before it are kept, this one is not judged; its last output: {service.LastLines()}");
            }

            Steps.Add(step);
            if (service is not null || _session is not null)
            {
                _measured.Add((Steps.Count - 1, start, end));
            }

            // The SLO by default comes from this variant's first step that completed a request, in the first repeat.
            if (connections is null && slos[endpoint.Name] is null && repeat == 0 && Saturation.DefaultSloMs([step]) is { } slo)
            {
                slos[endpoint.Name] = slo;
            }

            var outcome = Saturation.Judge(step, slos[endpoint.Name]);
            observer.StepDone(endpoint.Name, step, outcome, slos[endpoint.Name]);
            return outcome;
        }

        // HTTP/2 is spoken from the first byte (prior knowledge, as h2c needs), over as many connections as the server's
        // stream limit asks for, so a step's requests are never queued behind a full connection in the lab's own client.
        private static HttpClient Client(TimeSpan timeout, bool http2, string? allowHost)
        {
            // The lab's guarded handler (loopback or --allow-host, checked on the address connected to; no redirect).
            var handler = Loopback.Handler(allowHost);
            handler.UseCookies = false;
            handler.ConnectTimeout = timeout;
            handler.PooledConnectionIdleTimeout = TimeSpan.FromSeconds(30);
            handler.MaxConnectionsPerServer = int.MaxValue;
            handler.EnableMultipleHttp2Connections = true;
            return new HttpClient(handler)
            {
                Timeout = Timeout.InfiniteTimeSpan,
                DefaultRequestVersion = http2 ? HttpVersion.Version20 : HttpVersion.Version11,
                DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
            };
        }
    }
}
