using System.Text.RegularExpressions;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Load;

/// <summary>One variant of a load run: a name, the path it requests, and the command that starts its service.</summary>
/// <param name="Name">The variant's name: letters, digits, <c>-</c> and <c>_</c>.</param>
/// <param name="Path">The path, from <c>/</c>, with any query.</param>
/// <param name="Command">The command that starts its service; null for a service already running.</param>
internal sealed record Endpoint(string Name, string Path, string? Command = null);

/// <summary>A named command that starts a service (<c>--start NAME=COMMAND</c>): each is a variant, compared side by side.</summary>
/// <param name="Name">The variant's name, or its prefix where several endpoints are given.</param>
/// <param name="Command">The command, as <c>--start</c> takes it.</param>
internal sealed record Start(string Name, string Command);

/// <summary>
/// What <c>conclab load</c> was asked to do, typed and checked once (<see cref="Problems"/>) before anything starts:
/// the service (a URL, or a command the lab starts), its endpoints, the rates, and each step's length.
/// </summary>
internal sealed partial record LoadOptions
{
    /// <summary>The text in a command or URL that the lab replaces with a free loopback port it chose.</summary>
    public const string PortPlaceholder = "{port}";

    /// <summary>The highest rate a step may offer, per second: the schedule kept time to 50,000 a second on 2 cores.</summary>
    public const double MostRate = 50_000;

    /// <summary>The service's base URL (with <see cref="PortPlaceholder"/> where the lab picks the port); derived from
    /// <see cref="Ready"/> when not given.</summary>
    public string? Url { get; init; }

    /// <summary>The command that starts the service, once per variant and repeat; null for a service already running at
    /// <see cref="Url"/>, or where each variant has its own (<see cref="Starts"/>).</summary>
    public string? Command { get; init; }

    /// <summary>Named commands, each starting a variant's service (two builds of a service, or two services): compared side by side.</summary>
    public IReadOnlyList<Start> Starts { get; init; } = [];

    /// <summary>Whether the lab starts the service, with <see cref="Command"/> or one of <see cref="Starts"/>.</summary>
    public bool StartsService => Command is not null || Starts.Count > 0;

    /// <summary>
    /// The variants: each endpoint with <see cref="Command"/>, or each named start with each endpoint, named after the
    /// start (<c>v2</c>) where there is one endpoint and <c>start-endpoint</c> (<c>v2-sync</c>) where there are several.
    /// </summary>
    public IReadOnlyList<Endpoint> Variants => Starts.Count == 0
        ? [.. Endpoints.Select(e => e with { Command = Command })]
        : [.. Starts.SelectMany(s => Endpoints.Select(e => new Endpoint(Endpoints.Count == 1 ? s.Name : $"{s.Name}-{e.Name}", e.Path, s.Command)))];

    /// <summary>The URL that answers with success once the started service is ready.</summary>
    public string? Ready { get; init; }

    /// <summary>
    /// The process of a service already running at <see cref="Url"/>, whose runtime the lab attaches to for each step's
    /// account (its diagnostics socket, as dotnet-trace does); null reads no account of a service the lab did not start.
    /// </summary>
    public int? Pid { get; init; }

    /// <summary>Whether requests are sent over HTTP/2 from the first byte (prior knowledge, h2c on http://) instead of HTTP/1.1.</summary>
    public bool Http2 { get; init; }

    /// <summary>A host other than loopback the user allows, by name or address; null allows none.</summary>
    public string? AllowHost { get; init; }

    /// <summary>The variants.</summary>
    public IReadOnlyList<Endpoint> Endpoints { get; init; } = [];

    /// <summary>The rates to step through, per second, increasing; empty when they are searched.</summary>
    public IReadOnlyList<double> Rates { get; init; } = [];

    /// <summary>Whether the rates are searched: doubling from <see cref="StartRate"/> until a step does not keep up, then narrowing.</summary>
    public bool Auto => Rates.Count == 0 && Connections is null;

    /// <summary>A closed loop instead of rates: this many connections, each sending its next request when its last was
    /// answered (as wrk does).</summary>
    public int? Connections { get; init; }

    /// <summary>The first rate of a search, per second.</summary>
    public double StartRate { get; init; } = 16;

    /// <summary>How many steps a search spends narrowing between the last rate kept up with and the first one not.</summary>
    public int Narrowing { get; init; } = 3;

    /// <summary>Evenly spaced or Poisson arrivals.</summary>
    public Arrivals Arrivals { get; init; } = Arrivals.Constant;

    /// <summary>How long each step sends requests and is measured.</summary>
    public TimeSpan Step { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>How long each step first sends, unmeasured, at its rate.</summary>
    public TimeSpan Warmup { get; init; } = TimeSpan.FromSeconds(3);

    /// <summary>How long a request may take before it is counted as timed out.</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>How long a started service has to answer <see cref="Ready"/>.</summary>
    public TimeSpan ReadyTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>The corrected p99 a step must stay under, in milliseconds; null for ten times each variant's lowest step's p50.</summary>
    public double? SloMs { get; init; }

    /// <summary>How many times each variant's steps are run, each time against a fresh service when the lab starts it.</summary>
    public int Repeat { get; init; } = 3;

    /// <summary>The Poisson schedules' seed.</summary>
    public int Seed { get; init; } = 42;

    /// <summary>Which of the started service's runtime events are read for each step's account.</summary>
    public RuntimeEvents Events { get; init; } = RuntimeEvents.Full;

    /// <summary>Whether the quick scale was asked for (it set the defaults; recorded in the results).</summary>
    public bool Quick { get; init; }

    /// <summary>The defaults at the quick scale: 2 s steps after 0.5 s of warm-up, one repeat, a 1 s timeout (so a step
    /// lasts at most 3 s after its warm-up), a search from 32 a second with two narrowing steps.</summary>
    public static LoadOptions QuickDefaults { get; } = new()
    {
        Step = TimeSpan.FromSeconds(2),
        Warmup = TimeSpan.FromSeconds(0.5),
        Timeout = TimeSpan.FromSeconds(1),
        Repeat = 1,
        Narrowing = 2,
        StartRate = 32,
        Quick = true,
    };

    /// <summary>Every reason these options cannot run, each a line naming its flag; empty when they can.</summary>
    public IReadOnlyList<string> Problems()
    {
        var problems = new List<string>();
        ServiceProblems(problems);
        EndpointProblems(problems);
        RateProblems(problems);
        return problems;
    }

    // The service: one to start (its commands, each split now as it will be when it starts) or one running at --url,
    // and the addresses it is reached at.
    private void ServiceProblems(List<string> problems)
    {
        if (!StartsService && Url is null)
        {
            problems.Add("load needs a service: --url URL of one already running on loopback, or --start COMMAND with --ready URL.");
        }

        if (Command is not null && string.IsNullOrWhiteSpace(Command))
        {
            problems.Add("--start must name a command.");
        }

        if (Command is not null && Starts.Count > 0)
        {
            problems.Add("--start is either one command for every endpoint or, given more than once, NAME=COMMAND each: not both.");
        }

        foreach (var start in Starts)
        {
            if (!NamePattern().IsMatch(start.Name) || string.IsNullOrWhiteSpace(start.Command))
            {
                problems.Add($"--start '{start.Name}={start.Command}': NAME=COMMAND, the name 1 to 40 letters, digits, '-' or '_', and a " +
                    $"command after it.");
            }
        }

        // Each command split as it will be when it starts: a quote left open is said now, not after the run began.
        foreach (var command in Starts.Select(s => s.Command).Append(Command).OfType<string>())
        {
            try
            {
                _ = StartedService.Words(command);
            }
            catch (InvalidOperationException ex)
            {
                problems.Add(Hosting.ForeignText.Line(ex.Message, 300));
            }
        }

        if (Starts.GroupBy(s => s.Name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1) is { } named)
        {
            problems.Add($"--start names '{named.Key}' twice.");
        }

        if (StartsService && Ready is null)
        {
            problems.Add("--start needs --ready URL: the address that answers once the service is ready.");
        }

        if (!StartsService && Ready is not null)
        {
            problems.Add("--ready goes with --start: a service already running at --url is not waited for.");
        }

        if (Pid is not null && StartsService)
        {
            problems.Add("--pid goes with --url: a service the lab starts with --start has its runtime read from its start.");
        }

        if (Pid is <= 0)
        {
            problems.Add($"--pid must be a process id, a whole number of at least 1, not {Pid}.");
        }

        if (!StartsService && (Url?.Contains(PortPlaceholder, StringComparison.Ordinal) ?? false))
        {
            problems.Add($"--url may hold {PortPlaceholder} only with --start, whose service is given the port the lab picks.");
        }

        foreach (var (flag, text) in new[] { ("--url", Url), ("--ready", Ready) })
        {
            if (text is not null && CheckUrl(flag, text, AllowHost) is { } problem)
            {
                problems.Add(problem);
            }
        }
    }

    // The endpoints requested, each a path of the service's own, and the variants they make.
    private void EndpointProblems(List<string> problems)
    {
        if (Endpoints.Count == 0)
        {
            problems.Add("load needs at least one --endpoint NAME=/path.");
        }

        foreach (var endpoint in Endpoints)
        {
            if (!NamePattern().IsMatch(endpoint.Name))
            {
                problems.Add($"--endpoint '{endpoint.Name}={endpoint.Path}': a name is 1 to 40 letters, digits, '-' or '_'.");
            }

            if (!endpoint.Path.StartsWith('/') || endpoint.Path.StartsWith("//", StringComparison.Ordinal) || endpoint.Path.Any(char.IsControl)
                || endpoint.Path.Contains(' ', StringComparison.Ordinal)
                || endpoint.Path.Contains('\\', StringComparison.Ordinal) || !SameAuthority(Probe, new Uri(Probe, endpoint.Path.TrimStart('/'))))
            {
                problems.Add($"--endpoint '{endpoint.Name}={endpoint.Path}': the path must start with a single '/' and hold no spaces or " +
                    $"backslashes: it is requested from the service's URL, never elsewhere.");
            }
        }

        if (Endpoints.GroupBy(e => e.Name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1) is { } twice)
        {
            problems.Add($"--endpoint names '{twice.Key}' twice.");
        }

        if (Variants.Count > MostEndpoints)
        {
            problems.Add($"{(Starts.Count > 0 ? $"{Starts.Count} --start and {Endpoints.Count} --endpoint make {Variants.Count} variants" : $"--endpoint is given {Endpoints.Count} times")}; at most {MostEndpoints} variants are compared.");
        }
        else if (Starts.Count > 0 && Variants.GroupBy(v => v.Name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1) is { } clash)
        {
            problems.Add($"--start and --endpoint make the variant name '{clash.Key}' twice.");
        }
    }

    // The rates offered (or the connections of a closed loop), the steps' times and the repeats.
    private void RateProblems(List<string> problems)
    {
        if (Rates.Any(r => !double.IsFinite(r) || r <= 0 || r > MostRate))
        {
            problems.Add($"--rate takes rates above 0 and at most {MostRate:0} per second, or auto.");
        }

        if (Rates.Zip(Rates.Skip(1)).Any(p => p.Second <= p.First))
        {
            problems.Add("--rate's rates must increase: 50,100,200.");
        }

        if (Connections is { } connections)
        {
            Range(problems, "--connections", connections, 1, MostConnections, "connections");
            if (Rates.Count > 0)
            {
                problems.Add("--connections runs a closed loop, which offers no rate: give it or --rate, not both.");
            }
        }

        Range(problems, "--step", Step.TotalSeconds, 0.5, 600, "seconds");
        Range(problems, "--warmup", Warmup.TotalSeconds, 0, 600, "seconds");
        Range(problems, "--timeout", Timeout.TotalSeconds, 0.1, 600, "seconds");
        Range(problems, "--ready-timeout", ReadyTimeout.TotalSeconds, 1, 600, "seconds");
        Range(problems, "--repeat", Repeat, 1, 20, "repeats");
        if (SloMs is { } slo)
        {
            Range(problems, "--slo", slo, 0.1, 600_000, "milliseconds");
        }

        if (Rates.Count > 0 && Rates[^1] * Step.TotalSeconds > ArrivalSchedule.MostRequests)
        {
            problems.Add($"--rate {Rates[^1]} for --step {Step.TotalSeconds} s plans more than {ArrivalSchedule.MostRequests} requests in one step.");
        }
    }

    private const int MostEndpoints = 16;

    // A base no path may leave: any authority would do, since only whether the path keeps it is asked.
    private static readonly Uri Probe = new("http://127.0.0.1:1/");

    /// <summary>Whether <paramref name="requested"/> is on the same scheme, host and port as
    /// <paramref name="service"/>: a path joined to a URL never reaches another.</summary>
    internal static bool SameAuthority(Uri service, Uri requested)
    {
        ArgumentNullException.ThrowIfNull(service);
        ArgumentNullException.ThrowIfNull(requested);
        return requested.IsAbsoluteUri && string.Equals(service.Scheme, requested.Scheme, StringComparison.OrdinalIgnoreCase)
            && string.Equals(service.Host, requested.Host, StringComparison.OrdinalIgnoreCase) && service.Port == requested.Port;
    }

    private const int MostConnections = 10_000;

    private static void Range(List<string> problems, string flag, double value, double least, double most, string unit)
    {
        if (!double.IsFinite(value) || value < least || value > most)
        {
            problems.Add($"{flag} must be from {least} to {most} {unit}, not {value}.");
        }
    }

    /// <summary>The scheme, host and port of <paramref name="url"/> with a closing slash, any
    /// <see cref="PortPlaceholder"/> kept: the service's base URL when only its ready URL is given.</summary>
    internal static string BaseOf(string url)
    {
        var scheme = url.IndexOf("://", StringComparison.Ordinal);
        var path = scheme < 0 ? -1 : url.IndexOf('/', scheme + 3);
        return (path < 0 ? url : url[..path]) + "/";
    }

    /// <summary>
    /// Why <paramref name="text"/> cannot be a service's address: not an absolute http URL, or a host off loopback
    /// (127.0.0.0/8, ::1, localhost) that <paramref name="allowHost"/> does not name; null when it can.
    /// </summary>
    internal static string? CheckUrl(string flag, string text, string? allowHost)
    {
        var concrete = text.Replace(PortPlaceholder, "1", StringComparison.Ordinal);
        if (!Uri.TryCreate(concrete, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https") || uri.UserInfo.Length > 0)
        {
            return $"{flag} must be an http:// or https:// URL without credentials, not '{text}'.";
        }

        if (Hosting.Loopback.IsHost(uri.Host) || (allowHost is not null && string.Equals(uri.Host, allowHost, StringComparison.OrdinalIgnoreCase)))
        {
            return null;
        }

        return $"{flag} {text} is not on loopback (127.0.0.0/8, ::1, localhost); load is sent to a host of your own only with --allow-host " +
            $"{uri.Host}.";
    }

    [GeneratedRegex("^[A-Za-z0-9_-]{1,40}$")]
    private static partial Regex NamePattern();
}
