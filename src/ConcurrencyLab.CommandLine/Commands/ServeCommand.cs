using System.CommandLine;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// <c>conclab serve NAME</c>: one of the scenarios' services on its own, listening where it is told until Ctrl+C or
/// SIGTERM, for a load run (<c>conclab load --start</c>), a host of its own, or a crank agent. It writes one ready
/// line, <c>listening http://HOST:PORT http2=http://HOST:PORT2</c>, once it answers. Loopback unless
/// <c>--allow-host</c> names the address: as everywhere in the lab, another host is the user's explicit choice.
/// </summary>
internal static class ServeCommand
{
    public static Command? Create(IReadOnlyList<Scenario> scenarios)
    {
        var services = scenarios.SelectMany(s => s.Standalone).ToList();
        if (services.Count == 0)
        {
            return null;
        }

        var serve = new Command(
            "serve", "One of the lab's services on its own, until Ctrl+C: for conclab load, another host, or a crank agent. It prints " +
                "'listening http://HOST:PORT http2=http://HOST:PORT2' once it answers.");
        foreach (var service in services)
        {
            var switches = new Switches();
            var command = new Command(service.Name, service.Summary);
            foreach (var option in switches.All)
            {
                command.Options.Add(option);
            }

            var parameterOptions = ParameterOptions.Add(command, service.Parameters, hasQuick: false);
            command.SetAction((parse, cancellationToken) => ExecuteAsync(service, switches, parameterOptions, parse, cancellationToken));
            serve.Subcommands.Add(command);
        }

        return serve;
    }

    private static async Task<int> ExecuteAsync(
        StandaloneService service,
        Switches switches,
        IReadOnlyList<(Parameter Descriptor, Option Option)> parameterOptions,
        ParseResult parse,
        CancellationToken cancellationToken)
    {
        var errors = new List<string>();
        var values = ParameterValues.Create(service.Parameters, ParameterOptions.Read(parse, parameterOptions), quick: false,
            out var parameterErrors);
        errors.AddRange(parameterErrors);
        var allowed = new HashSet<string>(parse.GetValue(switches.AllowHost) ?? [], StringComparer.OrdinalIgnoreCase);
        var host = Host(parse.GetValue(switches.Host) ?? "127.0.0.1", allowed, errors);
        var port = Port(parse, switches.Port, errors);
        var http2Port = parse.GetValue(switches.Http2Port) is null ? (port is > 0 and < 65_535 ? port + 1 : 0)
            : Port(parse, switches.Http2Port, errors);
        if (port is > 0 && port == http2Port)
        {
            errors.Add($"--port and --http2-port must differ: Kestrel speaks HTTP/2 without TLS only on a port of its own.");
        }

        // Where it cannot listen (an address this host lacks, a port in use or one this user may not bind), it says so
        // in one line before it starts anything, its own external service included.
        if (errors.Count == 0 && host is not null)
        {
            foreach (var (flag, number) in new[] { ("--port", port), ("--http2-port", http2Port) })
            {
                if (number is > 0 && Unbindable(flag, new IPEndPoint(host, number.Value)) is { } problem)
                {
                    errors.Add(problem);
                }
            }
        }

        if (errors.Count > 0 || host is null)
        {
            await ErrorLine.WriteAsync(errors).ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        // This process's runtime may report to a load run's event session (conclab load --start sets the port); a
        // service this one starts in turn must not connect there too, and wait for ever.
        Environment.SetEnvironmentVariable(RuntimeEventSession.PortVariable, null);
        var request = new StandaloneRequest(values, new IPEndPoint(host, port ?? 0), new IPEndPoint(host, http2Port ?? 0),
            allowed, Console.Out, Console.Error)
        {
            AnnounceChild = CrankJob.IsRunning() ? CrankJob.Announce : _ => { },
        };
        try
        {
            await service.ServeAsync(request, cancellationToken).ConfigureAwait(false);
            return ExitCode.Ok;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped before it was ready (its own external service still starting, say).
            return ExitCode.Cancelled;
        }
        catch (Exception ex) when (ex is ArgumentException or IOException or InvalidOperationException or SocketException)
        {
            await ErrorLine.WriteAsync($"{service.Name}: {ex.Message}").ConfigureAwait(false);
            return ExitCode.BadInput;
        }
    }

    // Why nothing could listen at endpoint, tried by binding it for a moment; null where something could.
    private static string? Unbindable(string flag, IPEndPoint endpoint)
    {
        using var socket = new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            socket.Bind(endpoint);
            return null;
        }
        catch (SocketException ex)
        {
            var why = ex.SocketErrorCode switch
            {
                SocketError.AddressAlreadyInUse => "is in use",
                SocketError.AddressNotAvailable => "is not an address of this host",
                SocketError.AccessDenied => "may not be bound by this user",
                _ => $"cannot be bound ({ex.SocketErrorCode})",
            };
            return $"{flag}: {endpoint} {why}.";
        }
    }

    // An address to listen on: loopback, or one --allow-host names (0.0.0.0 included, which is every interface).
    private static IPAddress? Host(string text, HashSet<string> allowed, List<string> errors)
    {
        var address = string.Equals(text, "localhost", StringComparison.OrdinalIgnoreCase) ? IPAddress.Loopback
            : IPAddress.TryParse(text.Trim('[', ']'), out var parsed) ? parsed : null;
        if (address is null)
        {
            errors.Add($"--host must be an IP address to listen on, such as 127.0.0.1, not '{text}'.");
            return null;
        }

        if (!Loopback.IsHost(address.ToString()) && !allowed.Contains(address.ToString()) && !allowed.Contains(text))
        {
            errors.Add($"--host {text} is not loopback (127.0.0.0/8, ::1); a service listens elsewhere only with --allow-host {text}, on " +
                $"your own authority.");
            return null;
        }

        return address;
    }

    private static int? Port(ParseResult parse, Option<string> option, List<string> errors)
    {
        var text = parse.GetValue(option);
        if (text is null)
        {
            return 0;
        }

        if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port <= 65_535)
        {
            return port;
        }

        errors.Add($"{option.Name} must be a port from 0 (a free one) to 65535, not '{text}'.");
        return null;
    }

    /// <summary>The options every service takes besides its own settings.</summary>
    private sealed class Switches
    {
        public readonly Option<string> Host = new(
            "--host") { Description = "The address to listen on [default: 127.0.0.1]; another than loopback needs --allow-host naming it" };
        public readonly Option<string> Port = new(
            "--port") { Description = "The HTTP/1.1 port; 0 takes a free one, which the ready line says [default: 0]" };
        public readonly Option<string> Http2Port = new(
            "--http2-port") { Description = "The HTTP/2 port (cleartext, prior knowledge) [default: --port + 1, or a free one when --port is 0]" };
        public readonly Option<string[]> AllowHost = new(
            "--allow-host") { Description = "A host other than loopback the service may listen on or call: only your own, on your own " +
                "authority; may be given more than once", AllowMultipleArgumentsPerToken = false };

        public Option[] All => [Host, Port, Http2Port, AllowHost];
    }
}
