using ConcurrencyLab.Experiments.Digests;
using System.Net;
using System.Net.Sockets;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>
/// Item i connects to target i with a timeout and records what it found: open (connected), closed
/// (refused) or silent (no answer before the timeout). Every form honours the timeout:
/// <list type="bullet">
/// <item>sync: BeginConnect, then a blocking wait on its handle for the timeout, as the published scanner did
/// (the blocking use of the APM form);</item>
/// <item>tap: ConnectAsync with a CancellationToken that fires at the timeout; a blocking caller instead waits
/// on the task with the timeout (<see cref="RunAsyncAndWait"/>), as the published scanner did;</item>
/// <item>apm: BeginConnect with a registered wait that closes the socket at the timeout, so EndConnect returns.</item>
/// </list>
/// Targets outside 127.0.0.0/8 are refused unless the caller explicitly allows them.
/// </summary>
internal sealed class ScanWorkload : Workload
{
    private readonly IReadOnlyList<IPEndPoint> _targets;
    private readonly int[] _observed;

    /// <summary>Scans <paramref name="targets"/> with a per-connect <paramref name="timeout"/>.</summary>
    /// <param name="targets">One endpoint per item.</param>
    /// <param name="timeout">How long a connect may wait for an answer.</param>
    /// <param name="allowNonLoopback">Allow targets outside 127.0.0.0/8: only ever on the user's explicit request.</param>
    public ScanWorkload(IReadOnlyList<IPEndPoint> targets, TimeSpan timeout, bool allowNonLoopback = false)
    {
        ArgumentNullException.ThrowIfNull(targets);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        if (!allowNonLoopback && targets.FirstOrDefault(t => !Fleet.IsLoopback(t.Address)) is { } outside)
        {
            throw new ArgumentException($"{outside.Address} is outside 127.0.0.0/8; scanning other networks must be allowed explicitly.",
                nameof(targets));
        }

        _targets = targets;
        Timeout = timeout;
        _observed = new int[targets.Count];
        Array.Fill(_observed, -1);

        // The port is left out: a fleet may get a different free port in each trial, and the work is the same.
        var description = string.Join(',', targets.Select(t => t.Address.ToString())) + "/"
            + timeout.TotalMilliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        Digest = WorkDigest.Of(System.Text.Encoding.UTF8.GetBytes(description));
    }

    /// <summary>How long a connect may wait.</summary>
    public TimeSpan Timeout { get; }

    /// <summary>
    /// Where the primer connects: a host of each kind, so priming takes the open, refused and silent paths the
    /// measured items take; empty for the default primer (targets the lab did not make, whose kinds it cannot know).
    /// </summary>
    public IReadOnlyList<IPEndPoint> PrimerTargets { get; init; } = [];

    /// <summary>How long a primer's connect waits for a silent host: long enough for loopback's answers, short enough not to matter.</summary>
    internal static readonly TimeSpan PrimerTimeout = TimeSpan.FromMilliseconds(10);

    /// <inheritdoc/>
    public override Workload CreatePrimer(int count) => PrimerTargets.Count == 0
        ? base.CreatePrimer(count)
        : new ScanWorkload(
            [.. Enumerable.Range(0, Math.Max(count, PrimerTargets.Count)).Select(i => PrimerTargets[i % PrimerTargets.Count])], TimeSpan.FromTicks(Math.Min(Timeout.Ticks, PrimerTimeout.Ticks)));

    public override string Digest { get; }

    public override int Count => _targets.Count;

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    /// <summary>What item <paramref name="index"/> found, or null if it has not run.</summary>
    public HostKind? Observed(int index) => Volatile.Read(ref _observed[index]) is var kind and >= 0 ? (HostKind)kind : null;

    /// <summary>Items whose finding differs from <paramref name="expected"/>, counting items that never ran.</summary>
    public int Misclassified(IReadOnlyList<HostKind> expected)
    {
        ArgumentNullException.ThrowIfNull(expected);
        return Enumerable.Range(0, Count).Count(i => Observed(i) != expected[i]);
    }

    /// <summary>BeginConnect, then a blocking wait for the timeout: the same call as a blocking caller of the APM form.</summary>
    public override void Run(int index, CancellationToken cancellationToken) => EndRun(BeginRun(index, null, null));

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        using var socket = NewSocket();
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(Timeout);
        HostKind found;
        try
        {
            await socket.ConnectAsync(_targets[index], timeout.Token).ConfigureAwait(false);
            found = HostKind.Open;
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionRefused)
        {
            found = HostKind.Closed;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            found = HostKind.Silent;
        }

        Record(index, found);
    }

    /// <summary>
    /// The published scanner's blocking TAP call: ConnectAsync, then <c>Wait(timeout)</c> on its task. The
    /// wait ends at the timeout on the caller's own thread, whatever the pool is doing; a completion that
    /// arrives later is too late, and the host reads as silent.
    /// </summary>
    public override void RunAsyncAndWait(int index, CancellationToken cancellationToken)
    {
        using var socket = NewSocket();
        var connect = socket.ConnectAsync(_targets[index], cancellationToken).AsTask();
        HostKind found;
        try
        {
            found = connect.Wait(Timeout, cancellationToken) ? HostKind.Open : HostKind.Silent;
        }
        catch (AggregateException ex) when (ex.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionRefused })
        {
            found = HostKind.Closed;
        }

        if (found == HostKind.Silent)
        {
            // Closing the socket ends the pending connect; observe its outcome so it is not left unobserved.
            socket.Close();
            _ = connect.ContinueWith(
                static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
        }

        Record(index, found);
    }

    public override IAsyncResult BeginRun(int index, AsyncCallback? callback, object? state)
    {
        var attempt = new ApmAttempt(index, NewSocket());
        var result = new ApmResult(attempt, state);

        // The caller's callback and EndRun must see this wrapper, not the socket's own IAsyncResult.
        // The connect may complete before BeginConnect returns, so the callback records it too.
        var pending = attempt.Socket.BeginConnect(
            _targets[index],
            inner =>
            {
                result.Inner ??= inner;
                callback?.Invoke(result);
            },
            null);
        result.Inner ??= pending;
        if (callback is null)
        {
            // No callback: the caller will block in EndRun, which enforces the timeout on its own thread.
            return result;
        }

        // The APM has no timeout of its own: a registered wait closes the socket when it runs out,
        // which completes the connect with an error that EndRun reads as silence.
        attempt.Timer = ThreadPool.RegisterWaitForSingleObject(
            pending.AsyncWaitHandle,
            static (state, timedOut) =>
            {
                if (timedOut)
                {
                    var a = (ApmAttempt)state!;
                    a.TimedOut = true;
                    a.Socket.Close();
                }
            },
            attempt,
            Timeout,
            executeOnlyOnce: true);
        return result;
    }

    public override void EndRun(IAsyncResult asyncResult)
    {
        var result = (ApmResult)asyncResult;
        var attempt = result.Attempt;
        var inner = result.Inner!;

        // Called before completion, EndRun is a blocking wait: enforce the timeout here, on the caller's
        // thread, rather than rely on the registered wait, whose callback needs a pool thread that
        // blocking callers may all be holding.
        if (!inner.IsCompleted)
        {
            var remaining = Timeout - System.Diagnostics.Stopwatch.GetElapsedTime(attempt.Started);
            if (remaining <= TimeSpan.Zero || !inner.AsyncWaitHandle.WaitOne(remaining))
            {
                // Silent. Do not call EndConnect: after the close it would wait for the aborted connect's
                // completion, which on Linux comes through the very pool a blocking caller is starving.
                attempt.TimedOut = true;
                attempt.Timer?.Unregister(null);
                attempt.Socket.Close();
                Record(attempt.Index, HostKind.Silent);
                return;
            }
        }

        HostKind found;
        try
        {
            attempt.Socket.EndConnect(inner);
            found = HostKind.Open;
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionRefused && !attempt.TimedOut)
        {
            found = HostKind.Closed;
        }
        catch (Exception ex) when (attempt.TimedOut && ex is SocketException or ObjectDisposedException)
        {
            found = HostKind.Silent;
        }
        finally
        {
            attempt.Timer?.Unregister(null);
            attempt.Socket.Dispose();
        }

        Record(attempt.Index, found);
    }

    private static Socket NewSocket() => new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);

    private void Record(int index, HostKind found) => Volatile.Write(ref _observed[index], (int)found);

    private sealed class ApmAttempt(int index, Socket socket)
    {
        public int Index { get; } = index;

        public Socket Socket { get; } = socket;

        public RegisteredWaitHandle? Timer { get; set; }

        public long Started { get; } = System.Diagnostics.Stopwatch.GetTimestamp();

        public volatile bool TimedOut;
    }

    /// <summary>The socket's own IAsyncResult, carrying the attempt so EndRun can find it, and the caller's state.</summary>
    private sealed class ApmResult(ApmAttempt attempt, object? state) : IAsyncResult
    {
        private IAsyncResult? _inner;

        public IAsyncResult? Inner
        {
            get => Volatile.Read(ref _inner);
            set => Interlocked.CompareExchange(ref _inner, value, null);
        }

        public ApmAttempt Attempt { get; } = attempt;

        public object? AsyncState { get; } = state;

        public WaitHandle AsyncWaitHandle => Inner!.AsyncWaitHandle;

        public bool CompletedSynchronously => Inner!.CompletedSynchronously;

        public bool IsCompleted => Inner!.IsCompleted;
    }
}
