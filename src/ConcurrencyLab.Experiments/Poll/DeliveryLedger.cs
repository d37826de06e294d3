using System.Diagnostics;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// What the receiving side did with every message the schedule sends: how often each was processed, when
/// processing began, and how many polls the receivers made. Every count is kept with Interlocked
/// operations, so receivers on any number of threads can report at once and the totals stay exact.
/// </summary>
internal sealed class DeliveryLedger : IDisposable
{
    private readonly int[] _deliveries;
    private readonly long[] _startTimestamps;
    private readonly ManualResetEventSlim _allProcessed = new(false, spinCount: 0);
    private int _unique;
    private int _duplicated;
    private int _misrouted;
    private int _processed;
    private long _polls;
    private long _skippedPolls;
    private long _allProcessedTimestamp;

    public DeliveryLedger(int expected)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(expected);
        Expected = expected;
        _deliveries = new int[expected];
        _startTimestamps = new long[expected];
        if (expected == 0)
        {
            _allProcessed.Set();
        }
    }

    /// <summary>How many messages the schedule sends.</summary>
    public int Expected { get; }

    /// <summary>Messages processed at least once.</summary>
    public int Unique => Volatile.Read(ref _unique);

    /// <summary>Processings of messages that had already been processed.</summary>
    public int Duplicated => Volatile.Read(ref _duplicated);

    /// <summary>Frames that named an unknown message or arrived on another connection than their own.</summary>
    public int Misrouted => Volatile.Read(ref _misrouted);

    /// <summary>Polls that looked at a connection (whether or not it had data).</summary>
    public long Polls => Interlocked.Read(ref _polls);

    /// <summary>Polls that found the connection already being read by an earlier poll, and left it.</summary>
    public long SkippedPolls => Interlocked.Read(ref _skippedPolls);

    /// <summary>Set when every expected message has been processed once and its processing has finished.</summary>
    public WaitHandle AllProcessed => _allProcessed.WaitHandle;

    /// <summary>Waits until every message has been processed, or the timeout passes.</summary>
    public bool WaitAllProcessed(TimeSpan timeout) => _allProcessed.Wait(timeout);

    /// <summary>The Stopwatch timestamp at which the last processing finished; 0 until then.</summary>
    public long AllProcessedTimestamp => Interlocked.Read(ref _allProcessedTimestamp);

    public void CountPoll() => Interlocked.Increment(ref _polls);

    public void CountSkippedPoll() => Interlocked.Increment(ref _skippedPolls);

    /// <summary>
    /// Records that processing of <paramref name="frame"/>, read from <paramref name="connection"/>, begins now.
    /// Returns whether this is its first processing; a frame that names no expected message is counted as
    /// misrouted and returns false.
    /// </summary>
    public bool BeginProcessing(Frame frame, int connection)
    {
        var now = Stopwatch.GetTimestamp();
        if ((uint)frame.Id >= (uint)Expected || frame.Connection != connection)
        {
            Interlocked.Increment(ref _misrouted);
            return false;
        }

        if (Interlocked.Increment(ref _deliveries[frame.Id]) != 1)
        {
            Interlocked.Increment(ref _duplicated);
            return false;
        }

        // Only the first processing writes the slot, so no other thread writes it concurrently.
        _startTimestamps[frame.Id] = now;
        Interlocked.Increment(ref _unique);
        return true;
    }

    /// <summary>Records that the processing <see cref="BeginProcessing"/> reported as first has finished.</summary>
    public void EndProcessing()
    {
        // Exactly one thread sees the count reach Expected, so the timestamp is written once.
        if (Interlocked.Increment(ref _processed) == Expected)
        {
            Interlocked.Exchange(ref _allProcessedTimestamp, Stopwatch.GetTimestamp());
            _allProcessed.Set();
        }
    }

    /// <summary>
    /// When processing of each message began, as a Stopwatch timestamp, 0 for messages never processed. Read
    /// it once the receivers have stopped.
    /// </summary>
    public IReadOnlyList<long> StartTimestamps => _startTimestamps;

    /// <summary>Messages never processed.</summary>
    public int Lost => Expected - Unique;

    public void Dispose() => _allProcessed.Dispose();
}
