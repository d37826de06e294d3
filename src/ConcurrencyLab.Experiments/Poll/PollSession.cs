using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// What a receiver works with during one run: the connections, the ledger it reports to, the poll interval
/// and what processing a message costs. Also where a receiver records the first failure, counts the polls
/// it has dispatched and not finished, and learns that it must stop.
/// </summary>
internal sealed class PollSession : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly ManualResetEventSlim _failed = new(false, spinCount: 0);
    private Exception? _failure;
    private int _inFlight;

    public PollSession(IReadOnlyList<PollConnection> connections, DeliveryLedger ledger, int intervalMs, int workMs, int workers)
    {
        Connections = connections;
        Ledger = ledger;
        IntervalMs = intervalMs;
        WorkMs = workMs;
        Workers = workers;
    }

    public IReadOnlyList<PollConnection> Connections { get; }

    public DeliveryLedger Ledger { get; }

    public int IntervalMs { get; }

    /// <summary>What processing one message costs, in ms: blocked or awaited, as the receiver implies.</summary>
    public int WorkMs { get; }

    /// <summary>How many workers a fan-in receiver runs.</summary>
    public int Workers { get; }

    public CancellationToken Stopping => _stop.Token;

    public bool IsStopping => _stop.IsCancellationRequested;

    /// <summary>Set when a receiver recorded a failure.</summary>
    public WaitHandle Failed => _failed.WaitHandle;

    public Exception? Failure => Volatile.Read(ref _failure);

    /// <summary>Polls dispatched to the pool and not yet finished.</summary>
    public int InFlight => Volatile.Read(ref _inFlight);

    public void Stop() => _stop.Cancel();

    public void Fail(Exception exception)
    {
        Interlocked.CompareExchange(ref _failure, exception, null);
        _failed.Set();
    }

    public void Dispatched() => Interlocked.Increment(ref _inFlight);

    public void Finished() => Interlocked.Decrement(ref _inFlight);

    /// <summary>
    /// One poll of <paramref name="connection"/> by a blocking receiver: takes whatever has arrived and
    /// processes it on this thread. A poll that finds the connection held by an earlier one leaves it.
    /// </summary>
    public void PollOnce(PollConnection connection)
    {
        if (!TryBeginPoll(connection))
        {
            return;
        }

        try
        {
            foreach (var frame in connection.Frames)
            {
                if (IsStopping)
                {
                    break;
                }

                Process(connection, frame);
            }
        }
        catch (Exception ex)
        {
            Fail(ex);
        }
        finally
        {
            EndPoll(connection);
        }
    }

    /// <summary>The same poll by an async receiver: processing is awaited, not blocked on.</summary>
    public async Task PollOnceAsync(PollConnection connection)
    {
        if (!TryBeginPoll(connection))
        {
            return;
        }

        try
        {
            foreach (var frame in connection.Frames)
            {
                if (IsStopping)
                {
                    break;
                }

                await ProcessAsync(connection.Index, frame).ConfigureAwait(false);
            }
        }
        catch (Exception ex)
        {
            Fail(ex);
        }
        finally
        {
            EndPoll(connection);
        }
    }

    /// <summary>Processes one message by blocking the calling thread for the work's duration, or until the session stops.</summary>
    public void Process(PollConnection connection, Frame frame)
    {
        if (!Ledger.BeginProcessing(frame, connection.Index))
        {
            return;
        }

        if (WorkMs > 0)
        {
            // Blocks the thread as Thread.Sleep would (the pool sees neither as blocking), but a stop ends it.
            _ = Stopping.WaitHandle.WaitOne(WorkMs);
        }

        Ledger.EndProcessing();
    }

    /// <summary>Processes one message by awaiting the work's duration, holding no thread.</summary>
    public async ValueTask ProcessAsync(int connection, Frame frame)
    {
        if (!Ledger.BeginProcessing(frame, connection))
        {
            return;
        }

        if (WorkMs > 0)
        {
            await PreciseTimer.Shared.WaitAsync(WorkMs).ConfigureAwait(false);
        }

        Ledger.EndProcessing();
    }

    /// <summary>
    /// Takes the connection for a poll and reads what has arrived into its frames; false when the session is
    /// stopping or an earlier poll holds the connection (counted as skipped). A true return must be paired
    /// with <see cref="EndPoll"/>.
    /// </summary>
    private bool TryBeginPoll(PollConnection connection)
    {
        if (IsStopping)
        {
            return false;
        }

        if (!connection.TryEnter())
        {
            Ledger.CountSkippedPoll();
            return false;
        }

        Ledger.CountPoll();
        try
        {
            connection.ReadAvailable();
            return true;
        }
        catch (Exception ex)
        {
            Fail(ex);
            EndPoll(connection);
            return false;
        }
    }

    // Frames a stop cut short stay unprocessed and are counted as lost; the next poll starts empty.
    private static void EndPoll(PollConnection connection)
    {
        connection.Frames.Clear();
        connection.Exit();
    }

    public void Dispose()
    {
        _stop.Dispose();
        _failed.Dispose();
    }
}
