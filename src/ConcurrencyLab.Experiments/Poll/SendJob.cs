namespace ConcurrencyLab.Experiments.Poll;

/// <summary>One schedule being sent: what went out, when, and whether the server got through it.</summary>
internal sealed class SendJob
{
    private readonly long[] _sentTimestamps;
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _sent;

    public SendJob(SendSchedule schedule, long origin)
    {
        Schedule = schedule;
        Origin = origin;
        _sentTimestamps = new long[schedule.Count];
    }

    public SendSchedule Schedule { get; }

    /// <summary>Time zero of the schedule, a Stopwatch timestamp.</summary>
    public long Origin { get; }

    /// <summary>Messages sent so far; they are sent in order of their number.</summary>
    public int Sent => Volatile.Read(ref _sent);

    /// <summary>The Stopwatch timestamp at which each sent message went out.</summary>
    public IReadOnlyList<long> SentTimestamps => _sentTimestamps;

    /// <summary>Completes when every message is out; faults when the server could not send one.</summary>
    public Task Completion => _done.Task;

    internal void Record(int id, long timestamp)
    {
        _sentTimestamps[id] = timestamp;
        Volatile.Write(ref _sent, id + 1);
    }

    internal void Complete() => _done.TrySetResult();

    internal void Fail(Exception exception) => _done.TrySetException(exception);
}
