using System.Net;
using System.Net.Sockets;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.TestWorkloads;

/// <summary>
/// Two items: the first takes a lock, says so, and holds it for the given time; the second waits until the
/// first holds it and then asks for it, so it is blocked for almost exactly the time the lock is held.
/// </summary>
internal sealed class HeldLockWorkload(int holdMs) : Workload
{
    // A plain object, as most code's locks are: C# emits no sequence point for a lock on a System.Threading.Lock
    // (SDK 10), so its wait would be placed on the line before.
    private readonly object _gate = new();
    private volatile bool _held;

    public override int Count => 2;

    public override void Run(int index, CancellationToken cancellationToken)
    {
        if (index == 0)
        {
            lock (_gate)
            {
                _held = true;
                Thread.Sleep(holdMs); // holds: lock
            }
        }
        else
        {
            // Spin rather than wait on an event: the test counts the lock's wait, and no other.
            while (!_held)
            {
                Thread.SpinWait(100);
            }

            lock (_gate) // blocks: lock
            {
                _held = false;
            }
        }
    }
}

/// <summary>Items that each wait the given time: a blocked thread in the sync form, a timer in the task form.</summary>
internal sealed class SleepWorkload(int count, int waitMs, bool collect) : Workload
{
    public override int Count => count;

    public override void Run(int index, CancellationToken cancellationToken)
    {
        Collect();
        Thread.Sleep(waitMs); // blocks: sleep
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        Collect();
        await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
    }

    private void Collect()
    {
        if (collect)
        {
            GC.Collect();
        }
    }
}

/// <summary>
/// Items that each wait the given time on a task a timer completes: the sync form blocks its thread on the task's
/// <c>Result</c> (sync over async), the task form awaits it.
/// </summary>
internal sealed class ResultWorkload(int count, int waitMs) : Workload
{
    public override int Count => count;

    public override void Run(int index, CancellationToken cancellationToken) => GC.KeepAlive(Delayed(waitMs).Result); // blocks: result

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken) => await Delayed(waitMs).ConfigureAwait(false);

    private static async Task<int> Delayed(int ms)
    {
        await Task.Delay(ms).ConfigureAwait(false);
        return ms;
    }
}

/// <summary>
/// Items that each connect to a loopback server of the workload's and block in a synchronous read until it answers,
/// the given time later. The server blocks no thread of its own: it accepts and answers on timers, so the only
/// blocked threads are the items'.
/// </summary>
#pragma warning disable CA1001 // TearDownAsync disposes them: the lab calls it after the trial, as it calls SetUpAsync before.
internal sealed class SocketReadWorkload(int count, int waitMs) : Workload
#pragma warning restore CA1001
{
    private readonly CancellationTokenSource _stop = new();
    private TcpListener? _listener;
    private Task _serving = Task.CompletedTask;

    public override int Count => count;

    public override ValueTask SetUpAsync(CancellationToken cancellationToken)
    {
        _listener = new TcpListener(IPAddress.Loopback, 0);
        _listener.Start(count);
        _serving = ServeAsync(_listener, _stop.Token);
        return ValueTask.CompletedTask;
    }

    public override void Run(int index, CancellationToken cancellationToken)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        socket.Connect((IPEndPoint)_listener!.LocalEndpoint);
        var buffer = new byte[1];
        if (socket.Receive(buffer) != 1) // blocks: socket
        {
            throw new InvalidOperationException("the server closed before it answered");
        }
    }

    public override async ValueTask TearDownAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        _listener?.Stop();
        try
        {
            await _serving.ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }

        _stop.Dispose();
    }

    private async Task ServeAsync(TcpListener listener, CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            var accepted = await listener.AcceptSocketAsync(cancellationToken).ConfigureAwait(false);
            _ = AnswerAsync(accepted, cancellationToken);
        }
    }

    private async Task AnswerAsync(Socket accepted, CancellationToken cancellationToken)
    {
        using (accepted)
        {
            await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
            await accepted.SendAsync(new byte[] { 1 }, SocketFlags.None, cancellationToken).ConfigureAwait(false);
        }
    }
}

/// <summary>
/// Items whose blocking form sleeps three times as long as their task form waits on a timer: a bound taken from
/// the blocking form alone would be beaten by every variant that awaits.
/// </summary>
internal sealed class UnevenFormsWorkload(int count, int waitMs) : Workload
{
    public override int Count => count;

    public override void Run(int index, CancellationToken cancellationToken) => Thread.Sleep(3 * waitMs);

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken) =>
        await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
}
