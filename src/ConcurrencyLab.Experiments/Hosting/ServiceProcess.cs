using ConcurrencyLab.Diagnostics;
using System.Diagnostics;
using System.Net;
using System.Text.Json;
using ConcurrencyLab.Serialization;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Experiments.Hosting;

/// <summary>
/// The parent side of a <see cref="ServiceHost"/> process: starts it, waits until it answers on loopback,
/// and stops it when disposed, also when the run that needed it failed.
/// </summary>
internal sealed class ServiceProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly Task<string> _errors;
    private readonly SemaphoreSlim _commands = new(1, 1);
    private readonly string? _startTime;
    private bool? _exitedWhenDisposed;

    private ServiceProcess(Process process, string? startTime, Uri baseAddress, Uri http2Address, Task<string> errors)
    {
        _process = process;
        _startTime = startTime;
        BaseAddress = baseAddress;
        Http2Address = http2Address;
        _errors = errors;
    }

    /// <summary>Where the service listens: http://127.0.0.1:PORT/.</summary>
    public Uri BaseAddress { get; }

    /// <summary>Where the same service answers HTTP/2 without TLS (prior knowledge), and nothing else.</summary>
    public Uri Http2Address { get; }

    /// <summary>The service process's id, for reading its threads and CPU from outside.</summary>
    public int ProcessId => _process.Id;

    /// <summary>Whether the process is still running (after disposal: whether it was still running then).</summary>
    public bool IsRunning => _exitedWhenDisposed is { } exited ? !exited : !_process.HasExited;

    /// <summary>
    /// Starts <paramref name="service"/> with <paramref name="settings"/> through <paramref name="launcher"/>
    /// and returns once it has answered a health check; throws with the service's own error output when it
    /// does not come up within <paramref name="timeout"/>. The program <paramref name="launcher"/> starts must
    /// know the service (its scenario lists it in <see cref="Scenarios.Scenario.Services"/>). Given the runner's
    /// <paramref name="eventPort"/> (<see cref="Scenarios.TrialContext.TakeServiceEventPort"/>), the service's runtime
    /// reports its events to the runner, as the trial's own does.
    /// </summary>
    public static Task<ServiceProcess> StartAsync<TSettings>(SelfLauncher launcher, ServiceDefinition<TSettings> service, TSettings settings,
        TimeSpan timeout, string? eventPort = null, CancellationToken cancellationToken = default) =>
        StartAsync(launcher, service, Task.FromResult(settings), timeout, eventPort, cancellationToken: cancellationToken);

    /// <summary>
    /// Starts <paramref name="service"/> at once and hands it its settings when <paramref name="settings"/> gives them,
    /// as the first line of its standard input: a service that needs another's address starts beside that one, its
    /// runtime and host built meanwhile, not after it. The <paramref name="timeout"/> counts from now, the wait for
    /// the settings included; if <paramref name="settings"/> fails, the process is stopped and its exception thrown.
    /// <paramref name="listening"/>, when given, is told the service's addresses as soon as it listens, before its health
    /// check (or fails as the start does), so a service that needs them can be told while this one's first answer is made.
    /// </summary>
    public static async Task<ServiceProcess> StartAsync<TSettings>(
        SelfLauncher launcher,
        ServiceDefinition<TSettings> service,
        Task<TSettings> settings,
        TimeSpan timeout,
        string? eventPort = null,
        TaskCompletionSource<(Uri Http1, Uri Http2)>? listening = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(launcher);
        ArgumentNullException.ThrowIfNull(service);
        ArgumentNullException.ThrowIfNull(settings);
        var name = service.Name;
        var known = settings.IsCompletedSuccessfully;
        var info = launcher.CreateStartInfo(
            [ServiceHost.ServiceArgument, name, known ? ServiceDefinition<TSettings>.Serialize(settings.Result) : ServiceHost.SettingsOnInput],
            redirectInput: true);
        if (eventPort is not null)
        {
            info.Environment[RuntimeEventSession.PortVariable] = eventPort;
        }

        var process = Process.Start(info) ?? throw new InvalidOperationException($"The {name} service process could not be started.");
        var startTime = ProcessIdentity.StartTimeOf(process.Id);
        ChildAnnouncement.AnnounceIfRequested(process.Id);
        var errors = process.StandardError.ReadToEndAsync(CancellationToken.None);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        try
        {
            if (!known)
            {
                var told = ServiceDefinition<TSettings>.Serialize(await settings.WaitAsync(deadline.Token).ConfigureAwait(false));
                await process.StandardInput.WriteLineAsync(told.AsMemory(), deadline.Token).ConfigureAwait(false);
                await process.StandardInput.FlushAsync(deadline.Token).ConfigureAwait(false);
            }

            var (address, http2) = await ReadAddressesAsync(process, deadline.Token).ConfigureAwait(false);
            listening?.TrySetResult((address, http2));
            var started = new ServiceProcess(process, startTime, address, http2, errors);
            await started.WaitHealthyAsync(deadline.Token).ConfigureAwait(false);
            return started;
        }
        catch (Exception ex)
        {
            listening?.TrySetException(ex);

            // Whatever went wrong, no service is left running: not when its settings never came either.
            Stop(process);
            if (process.HasExited)
            {
                ProcessIdentity.RemoveDiagnosticsSocket(process.Id, startTime);
            }

            if (ex is not (OperationCanceledException or InvalidOperationException or HttpRequestException or IOException))
            {
                process.Dispose();
                throw;
            }

            // Its own words say best why it failed; the output ends once the process has.
            var stderr = await Task.WhenAny(errors, Task.Delay(2000, CancellationToken.None)).ConfigureAwait(false) == errors
                ? (await errors.ConfigureAwait(false)).Trim()
                : string.Empty;
            process.Dispose();
            cancellationToken.ThrowIfCancellationRequested();
            var reason = ex is OperationCanceledException ? $"it did not answer within {timeout.TotalSeconds:0.#} s" : ex.Message.TrimEnd('.');
            throw new InvalidOperationException(
                $"The {name} service did not come up: {reason}{(stderr.Length > 0 ? ": " + stderr.Split('\n')[0].TrimEnd('\r') : ".")}", ex);
        }
    }

    /// <summary>Starts the service's own meter, for a region the caller is about to measure.</summary>
    public async Task StartMeasuringAsync(CancellationToken cancellationToken = default)
    {
        var answer = await CommandAsync(ServiceHost.StartCommand, cancellationToken).ConfigureAwait(false);
        if (answer != "measuring")
        {
            throw new InvalidOperationException($"The service did not start measuring: {answer}");
        }
    }

    /// <summary>Stops the service's meter and returns what it read of itself since <see cref="StartMeasuringAsync"/>.</summary>
    public async Task<Measurement.Measurements> StopMeasuringAsync(CancellationToken cancellationToken = default)
    {
        const string measured = "measured ";
        var answer = await CommandAsync(ServiceHost.StopCommand, cancellationToken).ConfigureAwait(false);
        return answer.StartsWith(measured, StringComparison.Ordinal)
            ? JsonSerializer.Deserialize<Measurement.Measurements>(answer[measured.Length..], LabJson.Options)
                ?? throw new InvalidOperationException("The service returned no measurements.")
            : throw new InvalidOperationException($"The service did not report its measurements: {answer}");
    }

    // One command at a time: write it to the service's standard input and read its answer from its output.
    // A thread of the service's own answers, so a live service answers at once, however starved its pool.
    private async Task<string> CommandAsync(string command, CancellationToken cancellationToken)
    {
        await _commands.WaitAsync(cancellationToken).ConfigureAwait(false);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(CommandTimeout);
        try
        {
            await _process.StandardInput.WriteLineAsync(command.AsMemory(), deadline.Token).ConfigureAwait(false);
            await _process.StandardInput.FlushAsync(deadline.Token).ConfigureAwait(false);
            while (await _process.StandardOutput.ReadLineAsync(deadline.Token).ConfigureAwait(false) is { } line)
            {
                if (line.StartsWith(ServiceHost.ReplyPrefix, StringComparison.Ordinal))
                {
                    return line[ServiceHost.ReplyPrefix.Length..];
                }
            }

            throw new InvalidOperationException($"The service exited before it answered '{command}'.");
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new InvalidOperationException($"The service did not answer '{command}' within {CommandTimeout.TotalSeconds:0} s.");
        }
        finally
        {
            _commands.Release();
        }
    }

    private static readonly TimeSpan CommandTimeout = TimeSpan.FromSeconds(60);

    /// <summary>Closes the service's standard input, which ends it; kills it if it has not ended within 5 s.</summary>
    public async ValueTask DisposeAsync()
    {
        try
        {
            try
            {
                _process.StandardInput.Close();
            }
            catch (Exception ex) when (ex is IOException or ObjectDisposedException)
            {
                // The service already died and its pipe is broken: nothing to close; wait or kill as usual.
            }

            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await _process.WaitForExitAsync(grace.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            Stop(_process);
        }
        finally
        {
            _ = await Task.WhenAny(_errors, Task.Delay(1000, CancellationToken.None)).ConfigureAwait(false);
            _exitedWhenDisposed = _process.HasExited;
            if (_exitedWhenDisposed == true)
            {
                // Killed, by us or anyone, it left its diagnostics socket; after a normal exit there is none.
                ProcessIdentity.RemoveDiagnosticsSocket(_process.Id, _startTime);
            }

            _process.Dispose();
            _commands.Dispose();
        }
    }

    private static async Task<(Uri Http1, Uri Http2)> ReadAddressesAsync(Process process, CancellationToken cancellationToken)
    {
        while (await process.StandardOutput.ReadLineAsync(cancellationToken).ConfigureAwait(false) is { } line)
        {
            if (!line.StartsWith(ServiceHost.ListeningPrefix, StringComparison.Ordinal))
            {
                continue;
            }

            var parts = line[ServiceHost.ListeningPrefix.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length == 2 && parts[1].StartsWith(ServiceHost.Http2Prefix, StringComparison.Ordinal))
            {
                return (Loopback(parts[0]), Loopback(parts[1][ServiceHost.Http2Prefix.Length..]));
            }

            throw new InvalidOperationException($"The service's listening line is not understood: {line}");
        }

        throw new InvalidOperationException("The service exited before it listened.");
    }

    // The service binds 127.0.0.1 itself; refuse anything else rather than send traffic there.
    private static Uri Loopback(string text)
    {
        if (!Uri.TryCreate(text, UriKind.Absolute, out var address) || !IPAddress.TryParse(address.Host, out var ip) || !IPAddress.IsLoopback(ip))
        {
            throw new InvalidOperationException($"The service reported {text}, which is not an address on loopback.");
        }

        return new Uri(address.GetLeftPart(UriPartial.Authority) + "/");
    }

    private async Task WaitHealthyAsync(CancellationToken cancellationToken)
    {
        using var client = new HttpClient(ConcurrencyLab.Hosting.Loopback.Handler()) { BaseAddress = BaseAddress };
        while (true)
        {
            try
            {
                using var response = await client.GetAsync(new Uri("health", UriKind.Relative), cancellationToken).ConfigureAwait(false);
                if (response.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (HttpRequestException) when (!_process.HasExited)
            {
                // Listening but not answering yet: try again shortly.
            }

            if (_process.HasExited)
            {
                throw new InvalidOperationException("The service exited before it answered.");
            }

            await Task.Delay(20, cancellationToken).ConfigureAwait(false);
        }
    }

    private static void Stop(Process process)
    {
        try
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
                process.WaitForExit(5000);
            }
        }
        catch (InvalidOperationException)
        {
            // It ended on its own in the meantime.
        }
    }
}
