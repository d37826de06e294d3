using System.Net;
using System.Net.Sockets;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>
/// A fleet of TCP hosts on loopback addresses, one port, made of real sockets:
/// <list type="bullet">
/// <item>open: a listener that accepts;</item>
/// <item>closed: nothing listens, so the kernel refuses the connect at once;</item>
/// <item>silent: a listener that never accepts, whose accept queue is kept full by one of the fleet's own
/// connections, so the kernel drops further SYNs and the client waits for its timeout. No root or packet
/// filter is needed.</item>
/// </list>
/// Disposing closes every socket the fleet made. Two fleets on the same addresses at once may pick the same
/// port and answer for each other's closed hosts: run one at a time.
/// </summary>
internal sealed class Fleet : IAsyncDisposable
{
    private const int AttemptsToFindAPort = 10;
    private const int QueueLooks = 20;
    private static readonly TimeSpan SilenceCheck = TimeSpan.FromMilliseconds(150);

    private readonly List<Socket> _sockets = [];
    private readonly List<Task> _acceptLoops = [];
    private readonly CancellationTokenSource _stop = new();
    private int _accepted;

    private Fleet(FleetLayout layout) => Layout = layout;

    /// <summary>Which host is which.</summary>
    public FleetLayout Layout { get; }

    /// <summary>The port every host uses.</summary>
    public int Port { get; private set; }

    /// <summary>Connections the open hosts have accepted.</summary>
    public int Accepted => Volatile.Read(ref _accepted);

    /// <summary>Sockets the fleet holds open (listeners and the connections that keep silent hosts full).</summary>
    public int OpenSockets
    {
        get
        {
            lock (_sockets)
            {
                return _sockets.Count;
            }
        }
    }

    /// <summary>
    /// Stands the fleet up on <paramref name="port"/>, or on a free port when it is 0, and checks that every
    /// silent host really is silent before returning.
    /// </summary>
    public static async Task<Fleet> StartAsync(FleetLayout layout, int port = 0, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(layout);
        ArgumentOutOfRangeException.ThrowIfNegative(port);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(port, IPEndPoint.MaxPort);
        foreach (var host in layout.Hosts)
        {
            if (!IsLoopback(host.Address))
            {
                throw new ArgumentException($"The fleet lives on loopback only; {host.Address} is not in 127.0.0.0/8.", nameof(layout));
            }
        }

        for (var attempt = 1; ; attempt++)
        {
            var fleet = new Fleet(layout);
            try
            {
                await fleet.BindAsync(port, cancellationToken).ConfigureAwait(false);
                return fleet;
            }
            catch (SocketException ex) when (ex.SocketErrorCode == SocketError.AddressAlreadyInUse && port == 0 && attempt < AttemptsToFindAPort)
            {
                // The port picked on the first address is taken on another: try a different one.
                await fleet.DisposeAsync().ConfigureAwait(false);
            }
            catch
            {
                await fleet.DisposeAsync().ConfigureAwait(false);
                throw;
            }
        }
    }

    /// <summary>Whether <paramref name="address"/> is in 127.0.0.0/8.</summary>
    public static bool IsLoopback(IPAddress address)
    {
        ArgumentNullException.ThrowIfNull(address);
        if (address.IsIPv4MappedToIPv6)
        {
            address = address.MapToIPv4();
        }

        return address.AddressFamily == AddressFamily.InterNetwork && address.GetAddressBytes()[0] == 127;
    }

    /// <summary>Closes every socket and waits for the accept loops to end.</summary>
    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        lock (_sockets)
        {
            foreach (var socket in _sockets)
            {
                socket.Dispose();
            }

            _sockets.Clear();
        }

        try
        {
            await Task.WhenAll(_acceptLoops).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // The loops end by their listener being closed.
        }

        _stop.Dispose();
    }

    /// <summary>
    /// Why the fleet's <paramref name="hosts"/> could not stand on <paramref name="port"/> (another run's fleet
    /// or another program listens on one of their addresses, or the port needs privileges), or null when they
    /// could: asked before a run, so such a port is refused in one line instead of failing every trial.
    /// </summary>
    internal static string? CannotUse(int hosts, int port)
    {
        foreach (var host in FleetLayout.Generate(hosts, 1, 0, 0, seed: 0).Hosts)
        {
            using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            try
            {
                probe.Bind(new IPEndPoint(host.Address, port));
            }
            catch (SocketException ex) when (ex.SocketErrorCode == SocketError.AddressAlreadyInUse)
            {
                return $"is taken on {host.Address} (another run's fleet, or another program, listens there)";
            }
            catch (SocketException ex)
            {
                return $"cannot be bound on {host.Address}: {ex.Message}";
            }
        }

        return null;
    }

    private async Task BindAsync(int port, CancellationToken cancellationToken)
    {
        var silent = new List<(Socket Listener, IPEndPoint EndPoint)>();
        foreach (var host in Layout.Hosts.Where(h => h.Kind != HostKind.Closed))
        {
            var listener = Track(new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp));
            listener.Bind(new IPEndPoint(host.Address, port));
            port = ((IPEndPoint)listener.LocalEndPoint!).Port;
            if (host.Kind == HostKind.Open)
            {
                listener.Listen(512);
                _acceptLoops.Add(AcceptAsync(listener));
            }
            else
            {
                // Backlog 0: Linux then queues one connection; the fleet fills that place itself and never accepts.
                listener.Listen(0);
                silent.Add((listener, new IPEndPoint(host.Address, port)));
            }
        }

        Port = port;
        await Task.WhenAll(silent.Select(host => FillAsync(host.EndPoint, cancellationToken))).ConfigureAwait(false);
        await Task.WhenAll(silent.Select(host => EnsureSilentAsync(host.Listener, host.EndPoint, cancellationToken))).ConfigureAwait(false);
    }

    /// <summary>
    /// Where the kernel says so, a silent host is known silent at once: Linux drops a SYN to a listener whose
    /// accept queue is full (<c>tcp_conn_request</c>), and reports that queue's length and limit for a listener
    /// (<see cref="AcceptQueue.IsFull"/>). Elsewhere, or when the queue has not filled within a few milliseconds,
    /// a connect is tried and must go unanswered for <see cref="SilenceCheck"/>, as every host of every trial
    /// once was (150 ms of each scan trial's start-up).
    /// </summary>
    private static async Task EnsureSilentAsync(Socket listener, IPEndPoint endPoint, CancellationToken cancellationToken)
    {
        for (var look = 0; look < QueueLooks && AcceptQueue.IsFull(listener) is { } full; look++)
        {
            if (full)
            {
                return;
            }

            // The filler's connect can return before the kernel has queued its connection on the listener's side.
            await Task.Delay(1, cancellationToken).ConfigureAwait(false);
        }

        await CheckSilentAsync(endPoint, cancellationToken).ConfigureAwait(false);
    }

    private async Task FillAsync(IPEndPoint endPoint, CancellationToken cancellationToken)
    {
        var filler = Track(new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp));
        await filler.ConnectAsync(endPoint, cancellationToken).ConfigureAwait(false);
    }

    private static async Task CheckSilentAsync(IPEndPoint endPoint, CancellationToken cancellationToken)
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(SilenceCheck);
        try
        {
            await probe.ConnectAsync(endPoint, timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return;
        }

        throw new InvalidOperationException($"The silent host {endPoint} answered a connect; this kernel does not drop SYNs to a full accept queue.");
    }

    private async Task AcceptAsync(Socket listener)
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                var connection = await listener.AcceptAsync(_stop.Token).ConfigureAwait(false);
                Interlocked.Increment(ref _accepted);

                // A scan only needs the handshake; closing at once keeps the fleet's socket count flat.
                connection.Dispose();
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // Stopped.
        }
    }

    private Socket Track(Socket socket)
    {
        lock (_sockets)
        {
            _sockets.Add(socket);
        }

        return socket;
    }
}
