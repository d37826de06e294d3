using ConcurrencyLab.Reproduction.Claims;
using System.Net;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>
/// A TCP connect sweep of a fleet of hosts on loopback, mostly silent like a LAN sweep, with a per-connect
/// timeout. Reproduces the published comparison of APM, TAP, task loops and Parallel.For, then
/// the ways that wait for every host at once.
/// </summary>
public sealed class ScanScenario : BatchScenario, IReproducesPost
{
    private const string FleetTargets = "fleet";

    // The published experiment's names, mapped to the lab's strategy[@degree][-form] names.
    private static readonly Dictionary<string, string> Published = new(StringComparer.Ordinal)
    {
        ["task-run-apm"] = "task-run-waitall-apm",
        ["task-run-tap"] = "task-run-waitall-tap",
        ["whenall-async"] = "whenall",
    };

    /// <inheritdoc/>
    public override string Name => "scan";

    /// <inheritdoc/>
    public override string Summary => "connect to N loopback hosts (open, closed, silent) with a timeout: mostly waiting on silence";

    /// <inheritdoc/>
    public override string Reproduces
        => "TPL vs TAP vs APM port scan of 255 addresses (the post \"Task Parallel Library (TPL) vs Task-based Async Pattern (TAP) vs Async " +
            "Programming Model (APM)\", 2014)";

    /// <inheritdoc/>
    PublishedClaims IReproducesPost.Claims => ScanClaims.All;

    /// <inheritdoc/>
    /// <remarks>the published control and its fastest case, and every connect awaited at once.</remarks>
    internal override IReadOnlyList<string> FirstLook => ["sequential-apm", "task-run-apm", "whenall-async"];

    private static readonly Parameter<int> Hosts = Parameter.WholeNumber("hosts", 255,
        "hosts in the fleet, from 127.0.1.1 on", minimum: 1, maximum: 4000, quick: 12);

    private static readonly Parameter<int> Port = Parameter.WholeNumber("port", 0,
        "port every host uses; 0 picks a free one", minimum: 0, maximum: 65535);

    private static readonly Parameter<int> TimeoutMs = Parameter.WholeNumber("timeout-ms", 500,
        "how long a connect waits for an answer, ms (the published 500)", minimum: 1, maximum: 60_000, quick: 50);

    private static readonly Parameter<double> Open = Parameter.Number("open", 0.05, "share of hosts that accept", minimum: 0, maximum: 1);

    private static readonly Parameter<double> Closed = Parameter.Number("closed", 0.15,
        "share of hosts where nothing listens (refused at once)", minimum: 0, maximum: 1);

    private static readonly Parameter<double> Silent = Parameter.Number("silent", 0.80,
        "share of hosts that never answer (the connect times out)", minimum: 0, maximum: 1);

    private static readonly Parameter<IReadOnlyList<int>> ScanDegrees =
        DegreesParameter([64, 255], "degrees for the foreach-async, channel-workers and semaphore variants", maximum: 100_000, quick: [4, 12]);

    // Null is the fleet; otherwise the addresses of a CIDR, at most 4096 of them.
    private static readonly Parameter<IReadOnlyList<IPAddress>?> Targets = Parameter.Of<IReadOnlyList<IPAddress>?>(
        "targets",
        FleetTargets,
        "'fleet' (the lab's own hosts), or an IPv4 CIDR such as 127.0.0.0/28 to scan instead",
        text => text == FleetTargets ? (null, null)
            : TryParseCidr(text, out var addresses) ? (addresses, null)
            : (null, $"--targets must be 'fleet' or an IPv4 CIDR of at most 4096 addresses such as 127.0.0.0/28, not '{text}'."));

    private static readonly Parameter<bool> AllowNonLoopback = Parameter.Choice(
        "allow-non-loopback", false, "yes lets --targets leave 127.0.0.0/8: only your own network, on your own authority", ("yes", true),
            ("no", false));

    /// <inheritdoc/>
    public override IReadOnlyList<Parameter> Parameters { get; init; } = [Hosts, Port, TimeoutMs, Open, Closed, Silent, ScanDegrees, Targets,
        AllowNonLoopback];

    /// <inheritdoc/>
    private protected override Parameter<IReadOnlyList<int>> Degrees => ScanDegrees;

    /// <inheritdoc/>
    public override IEnumerable<string> Validate(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (parameters.Get(Open) + parameters.Get(Closed) + parameters.Get(Silent) <= 0)
        {
            yield return "--open, --closed and --silent must not all be 0.";
        }

        if (parameters.Get(Targets) is { } addresses)
        {
            if (!parameters.Get(AllowNonLoopback) && addresses.FirstOrDefault(a => !Fleet.IsLoopback(a)) is { } outside)
            {
                yield return $"--targets {parameters.Values[Targets.Name]} reaches {outside}, outside 127.0.0.0/8; add --allow-non-loopback " +
                    $"yes to scan a network of your own.";
            }
            else if (parameters.Get(Port) == 0)
            {
                yield return "--port must name the port to scan when --targets is not the fleet.";
            }
        }
        else if (parameters.Get(Port) is > 0 and var port && Fleet.CannotUse(parameters.Get(Hosts), port) is { } problem)
        {
            yield return $"--port {port} {problem}; choose another, or leave --port out for a free one.";
        }
    }

    /// <inheritdoc/>
    public override Variant DefaultBaseline(ParameterValues parameters) => Variants(parameters).Create("sequential", WorkForm.Apm);

    internal static readonly Metric Misclassified = Metric.Count("misclassified", "Misclassified") with
    {
        FlagsWhenNotZero = true,
        Description = "hosts the variant found to be other than they are (an answering host taken for a silent one, when the answer came " +
            "after the timeout)",
    };

    internal static readonly Metric FoundOpen = Metric.Count("foundOpen", "Found open") with { Direction = MetricDirection.Neither,
        Description = "hosts the variant found accepting" };

    internal static readonly Metric FoundClosed = Metric.Count("foundClosed", "Found closed") with { Direction = MetricDirection.Neither,
        Description = "hosts the variant found refusing" };

    internal static readonly Metric FoundSilent = Metric.Count("foundSilent", "Found silent") with { Direction = MetricDirection.Neither,
        Description = "hosts the variant found silent (the connect timed out)" };

    /// <inheritdoc/>
    public override IReadOnlyList<Metric> Metrics { get; init; } = [Misclassified, FoundOpen, FoundClosed, FoundSilent];

    /// <inheritdoc/>
    public override IdealBound Ideal(ParameterValues parameters, int seed)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var timeout = parameters.Get(TimeoutMs);
        if (parameters.Get(Targets) is not null)
        {
            return new IdealBound(0, "unknown: the hosts of a network that is not the fleet are not known in advance");
        }

        var layout = Layout(parameters, seed);
        if (layout.Count(HostKind.Silent) == 0)
        {
            return new IdealBound(0, "no silent host: every connect is answered in microseconds, so there is no useful bound");
        }

        // A timeout that CancelAfter keeps can end up to one step of the timers' clock early (seen here: a 50 ms
        // timeout ended at 47.4 ms), so one whole timeout is no bound for the variants that wait that way.
        var step = TimerClock.StepMs;
        return timeout > step
            ? new IdealBound(
                timeout - step, $"one connect timeout ({timeout} ms) less a step of the clock the runtime's timers keep ({step} ms, " +
                    $"measured): every silent host could be waited for at once, and a timeout set with CancelAfter can end up to a step " +
                    $"early while that clock keeps time")
            : new IdealBound(
                0, $"the connect timeout ({timeout} ms) is no longer than a step of the clock the runtime's timers keep ({step} ms), so " +
                    $"there is no useful bound");
    }

    /// <inheritdoc/>
    public override IEnumerable<string> Notes(ParameterValues parameters, bool quick)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (quick)
        {
            yield return $"quick scale: {parameters.Get(Hosts)} hosts and a {parameters.Get(TimeoutMs)} ms timeout for every variant (the " +
                $"published run: 255 hosts, 500 ms), so the sequential variants stay short.";
        }
    }

    /// <inheritdoc/>
    public override TimeSpan ExpectedTrialDuration(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return TimeSpan.FromMilliseconds((long)parameters.Get(Hosts) * parameters.Get(TimeoutMs));
    }

    // The ways that wait for every host at once, each at every --dop.
    private static readonly string[] DoneRight = ["foreach-async", "channel-workers", "semaphore"];

    /// <inheritdoc/>
    public override IReadOnlyList<Variant> DefaultVariants(ParameterValues parameters)
    {
        // The published experiment's variants, under the names it gave them (read by the one parser, as a user's
        // would be), then the ways done right at each degree.
        var space = Variants(parameters);
        string[] published =
        [
            "sequential-apm", "sequential-tap", "task-loop-tap", "task-run-apm", "task-run-tap", "mix-and-match",
            "parallel-for@default-apm", "parallel-for@default-tap", "parallel-for@999-apm", "parallel-for@999-tap",
            "whenall-async",
        ];
        return
        [
            .. published.Select(n => space.TryParse(n, out var v, out var problem) ? v : throw new InvalidOperationException(problem)),
            .. DegreesOf(parameters).SelectMany(d => DoneRight.Select(strategy => space.Create(strategy, d))),
        ];
    }

    /// <inheritdoc/>
    public override Workload CreateWorkload(ParameterValues parameters, int seed) =>
        throw new NotSupportedException("The scan workload needs its fleet running; it is built in PrepareAsync.");

    /// <inheritdoc/>
    private protected override IReadOnlyList<WorkForm> WorkloadForms(ParameterValues parameters) => [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    /// <inheritdoc/>
    private protected override IReadOnlyDictionary<string, string> PublishedNames => Published;

    /// <inheritdoc/>
    private protected override async Task<PreparedTrial> PrepareAsync(ParameterValues parameters, int seed, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var timeout = TimeSpan.FromMilliseconds(parameters.Get(TimeoutMs));
        if (parameters.Get(Targets) is { } addresses)
        {
            var port = parameters.Get(Port);
            return new PreparedTrial(
                new ScanWorkload([.. addresses.Select(a => new IPEndPoint(a, port))], timeout, parameters.Get(AllowNonLoopback)), null);
        }

        var fleet = await Fleet.StartAsync(Layout(parameters, seed), parameters.Get(Port), cancellationToken).ConfigureAwait(false);
        var endPoints = fleet.Layout.Hosts.Select(h => new IPEndPoint(h.Address, fleet.Port)).ToList();

        // Priming connects to one host of each kind the fleet has, so the region does not compile the connect's
        // three outcomes: without it a quick trial of 55 ms compiled 106 methods of the scan's own code inside it.
        var primer = fleet.Layout.Hosts.DistinctBy(h => h.Kind).Select(h => new IPEndPoint(h.Address, fleet.Port)).ToList();
        return new PreparedTrial(new ScanWorkload(endPoints, timeout) { PrimerTargets = primer }, fleet);
    }

    /// <inheritdoc/>
    private protected override (MetricValues? Metrics, string? Error) CheckResults(Workload workload, object? fixture)
    {
        if (workload is not ScanWorkload scan)
        {
            return (null, null);
        }

        var found = Enumerable.Range(0, scan.Count).Select(scan.Observed).ToList();
        var metrics = new MetricValues
        {
            [FoundOpen] = found.Count(k => k == HostKind.Open),
            [FoundClosed] = found.Count(k => k == HostKind.Closed),
            [FoundSilent] = found.Count(k => k == HostKind.Silent),
        };
        if (fixture is Fleet fleet)
        {
            // Not a failure: a variant that starves the pool reports open hosts as silent, and that is a finding.
            metrics[Misclassified] = scan.Misclassified([.. fleet.Layout.Hosts.Select(h => h.Kind)]);
        }

        return (metrics, null);
    }

    private static FleetLayout Layout(ParameterValues parameters, int seed) =>
        FleetLayout.Generate(parameters.Get(Hosts), parameters.Get(Open), parameters.Get(Closed), parameters.Get(Silent), seed);

    private static bool TryParseCidr(string text, out IReadOnlyList<IPAddress>? addresses)
    {
        addresses = [];
        if (!IPNetwork.TryParse(text, out var network) || network.BaseAddress.AddressFamily != System.Net.Sockets.AddressFamily.InterNetwork
            || network.PrefixLength < 20)
        {
            return false;
        }

        var bytes = network.BaseAddress.GetAddressBytes();
        var first = (uint)((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]);
        var count = 1u << (32 - network.PrefixLength);
        var list = new List<IPAddress>((int)count);
        for (var i = 0u; i < count; i++)
        {
            var value = first + i;
            list.Add(new IPAddress(new[] { (byte)(value >> 24), (byte)(value >> 16), (byte)(value >> 8), (byte)value }));
        }

        addresses = list;
        return true;
    }
}
