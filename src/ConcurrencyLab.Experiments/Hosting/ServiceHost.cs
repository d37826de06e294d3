using System.Net;
using System.Text.Json;
using ConcurrencyLab.Serialization;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Experiments.Hosting;

/// <summary>
/// The child side of a service process: a scenario's HTTP service on Kestrel, in a process of its own so
/// its threads and CPU are measured apart from the client's. It listens on 127.0.0.1 and a free port,
/// writes <c>listening http://127.0.0.1:PORT http2=http://127.0.0.1:PORT2</c> as its first line of output,
/// takes its settings as its first line of input where its command line says they come later (<see cref="SettingsOnInput"/>),
/// then commands on its standard input (<see cref="ServeCommands"/>), and runs until that closes, which
/// happens when the parent stops it or dies.
/// </summary>
internal static class ServiceHost
{
    /// <summary>The first argument of a service process, followed by the service's name and its settings as JSON.</summary>
    public const string ServiceArgument = ServiceDefinition.Argument;

    /// <summary>
    /// The settings argument that says the settings come later, as the first line of standard input: a service that
    /// needs another one's address starts beside it, and is told once that one listens.
    /// </summary>
    public const string SettingsOnInput = "-";

    /// <summary>The line a service writes once it listens, followed by its base address and then its HTTP/2 address.</summary>
    public const string ListeningPrefix = "listening ";

    /// <summary>Follows the address on the listening line: where the same service answers HTTP/2 only.</summary>
    public const string Http2Prefix = "http2=";

    /// <summary>Exit code of a service process started with arguments it does not understand.</summary>
    public const int BadRequestExitCode = ServiceDefinition.BadRequestExitCode;

    /// <summary>The accept queue a service asks for; the kernel lowers it to its own cap,
    /// <see cref="Measurement.TcpCounters.ReadMaxBacklog"/>.</summary>
    public const int AcceptBacklog = 65_535;

    // How long a stopping service lets requests in flight finish.
    private static readonly TimeSpan StopWait = TimeSpan.FromMilliseconds(500);

    /// <summary>The parent's command that starts the service's own meter; the answer is <c>reply measuring</c>.</summary>
    public const string StartCommand = "measure start";

    /// <summary>The parent's command that stops the meter; the answer is <c>reply measured</c> and the
    /// <see cref="Measurement.Measurements"/> as one line of JSON.</summary>
    public const string StopCommand = "measure stop";

    /// <summary>Begins every answer to a command, so the parent can tell answers from any other output.</summary>
    public const string ReplyPrefix = "reply ";

    /// <summary>
    /// Serves the parent's commands, one per line of <paramref name="input"/>, until it closes: the service
    /// measures itself (threads, pool threads and queue over time, CPU, memory) over the region the client
    /// measures. The commands come on standard input and are read by a thread of their own, not over HTTP:
    /// some variants starve the service's pool, and a measurement that waited for a pool thread came too
    /// late or not at all (a stop request timed out after 100 s behind a starved pool).
    /// </summary>
    internal static void ServeCommands(TextReader input, TextWriter output)
    {
        // The lab's own thread in the service: its wait for the next command is not the service's doing.
        Measurement.LabThreads.EnlistCurrent();
        Measurement.TrialMeter? meter = null;
        try
        {
            while (input.ReadLine() is { } line)
            {
                switch (line.Trim())
                {
                    case StartCommand:
                        meter?.Dispose();
                        meter = new Measurement.TrialMeter(TimeSpan.FromMilliseconds(10));
                        meter.Start();
                        output.WriteLine(ReplyPrefix + "measuring");
                        break;
                    case StopCommand when meter is null:
                        output.WriteLine(ReplyPrefix + "error no measurement was started");
                        break;
                    case StopCommand:
                        var measured = meter.Finish();
                        meter.Dispose();
                        meter = null;
                        output.WriteLine(ReplyPrefix + "measured " + JsonSerializer.Serialize(measured, LabJson.Compact));
                        break;
                    default:
                        output.WriteLine(ReplyPrefix + $"error unknown command '{line}'");
                        break;
                }

                output.Flush();
            }
        }
        finally
        {
            meter?.Dispose();
        }
    }

    /// <summary>Runs <paramref name="service"/> with its settings, <paramref name="settingsJson"/>, until standard
    /// input closes; returns the exit code.</summary>
    internal static async Task<int> ServeAsync<TSettings>(ServiceDefinition<TSettings> service, string settingsJson)
    {
        // The thread the program entered on waits for the service to end: the host's, not the service's work.
        Measurement.LabThreads.EnlistCurrent();
        var (app, listening) = Build(new IPEndPoint(IPAddress.Loopback, 0), new IPEndPoint(IPAddress.Loopback, 0));
        await using var _ = app;
        if (settingsJson == SettingsOnInput)
        {
            // Built meanwhile, which is most of a service's start; the endpoints need the settings.
            var told = await Console.In.ReadLineAsync().ConfigureAwait(false);
            if (told is null)
            {
                // The parent ended before it could say: nobody is left to serve.
                await Console.Error.WriteLineAsync("the service's settings never came on its standard input").ConfigureAwait(false);
                return BadRequestExitCode;
            }

            settingsJson = told;
        }

        try
        {
            service.Map(app, settingsJson);
        }
        catch (Exception ex) when (ex is ArgumentException or JsonException)
        {
            // Settings it cannot serve with (such as an address off loopback): one line for the parent to show.
            await Console.Error.WriteLineAsync(ex.Message).ConfigureAwait(false);
            return BadRequestExitCode;
        }

        app.MapGet("/health", () => "ok");
        await app.StartAsync().ConfigureAwait(false);
        // Kestrel writes the ports it was given into the listen options once bound.
        await Console.Out.WriteLineAsync(listening()).ConfigureAwait(false);
        await Console.Out.FlushAsync().ConfigureAwait(false);

        // The parent holds our standard input open; it closes when the parent stops us or dies, so a
        // service never outlives the run that started it. Until then it carries the parent's commands.
        var closed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        // Not disposed: the commands thread may still be waiting on it as this method returns, and the process ends soon after.
        var stopped = new ManualResetEventSlim();
        var commands = new Thread(() =>
        {
            ServeCommands(Console.In, Console.Out);
            closed.SetResult();

            // Stopping runs on the pool, which a blocking variant starves on purpose: a service of a killed run
            // took 8 s to get there. Its parent is done with it, so past a grace it ends itself outright (its
            // diagnostics socket is then left for the run journal's owner to remove).
            if (!stopped.Wait(StopWait * 2))
            {
                using var self = System.Diagnostics.Process.GetCurrentProcess();
                self.Kill();
            }
        })
        {
            IsBackground = true,
            Name = "conclab service commands",
        };
        commands.Start();
        await closed.Task.ConfigureAwait(false);

        // Requests still in flight are not waited for (the host would wait 30 s): the client that sent them
        // has finished, or is gone, and a service that outlived its run by seconds held its listeners.
        using var stopping = new CancellationTokenSource(StopWait);
        await app.StopAsync(stopping.Token).ConfigureAwait(false);
        stopped.Set();
        return 0;
    }

    /// <summary>
    /// Serves <paramref name="service"/> with <paramref name="settings"/> where <paramref name="request"/> says, until
    /// <paramref name="cancellationToken"/> is cancelled: <c>conclab serve</c>'s side, with no parent to take commands
    /// from. Throws <see cref="ArgumentException"/> for settings it cannot serve with, <see cref="IOException"/> when
    /// it cannot listen.
    /// </summary>
    internal static async Task ServeStandaloneAsync<TSettings>(
        ServiceDefinition<TSettings> service,
        TSettings settings,
        StandaloneRequest request,
        CancellationToken cancellationToken)
    {
        var (app, listening) = Build(request.Http1, request.Http2);
        await using var _ = app;
        service.Map(app, settings);
        app.MapGet("/health", () => "ok");
        try
        {
            await app.StartAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (IOException ex)
        {
            // Kestrel's own words name the address; the inner socket error says why (in use, not this host's).
            throw new IOException($"cannot listen on {request.Http1} and {request.Http2}: {(ex.InnerException ?? ex).Message}", ex);
        }

        await request.Output.WriteLineAsync(listening()).ConfigureAwait(false);
        await request.Output.FlushAsync(CancellationToken.None).ConfigureAwait(false);
        try
        {
            await Task.Delay(Timeout.Infinite, cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            // Ctrl+C or SIGTERM: the way a standalone service is meant to end.
        }

        using var stopping = new CancellationTokenSource(StopWait);
        await app.StopAsync(stopping.Token).ConfigureAwait(false);
    }

    // Kestrel on two listeners, HTTP/1.1 and HTTP/2 alone, because Kestrel speaks HTTP/2 without TLS only on an
    // endpoint that offers nothing else (it cannot tell the two apart on one cleartext port). The function gives
    // the listening line once the app has started: Kestrel writes the ports it was given into the listen options.
    private static (WebApplication App, Func<string> Listening) Build(IPEndPoint http1At, IPEndPoint http2At)
    {
        // A service takes no configuration but its settings. Left to its defaults, the builder took the current
        // folder as its root, read an appsettings.json found there, and took Kestrel endpoints from it or from the
        // environment (Kestrel__Endpoints__...): run from a web project's folder, a service also listened where that
        // project's settings said, 0.0.0.0 included, and a broken appsettings.json there ended it with a stack trace.
        // It also watched the whole tree under that folder for changes: run from /tmp (9,155 folders) a service was
        // ready in 886-1,010 ms, and in 451-642 ms once not. So the root is the lab's own folder, nothing is watched,
        // and every configuration source is removed before the app is built.
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions
        {
            ContentRootPath = AppContext.BaseDirectory,
            Args = ["--hostBuilder:reloadConfigOnChange=false"],
        });
        builder.Configuration.Sources.Clear();
        builder.Logging.ClearProviders();
        ListenOptions? http1 = null, http2 = null;
        builder.WebHost.UseKestrel(options =>
        {
            options.Listen(http1At, listen => http1 = listen);
            options.Listen(http2At, listen =>
            {
                listen.Protocols = HttpProtocols.Http2;
                http2 = listen;
            });
        });

        // A service here is hit by hundreds or thousands of connections at once. Kestrel's default accept
        // queue of 512 overflows then, and every dropped attempt is retried a full second later, which once
        // added a second to runs whose ideal is 2 s. The kernel caps the queue at net.core.somaxconn.
        builder.WebHost.UseSockets(options => options.Backlog = AcceptBacklog);
        return (builder.Build(), () => $"{ListeningPrefix}http://{Authority(http1!.IPEndPoint!)} {Http2Prefix}http://{Authority(http2!.IPEndPoint!)}");
    }

    private static string Authority(IPEndPoint endpoint) => endpoint.ToString();
}
