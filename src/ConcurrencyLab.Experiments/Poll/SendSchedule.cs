using ConcurrencyLab.Experiments.Digests;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// When the server sends each message, from the seed: every connection, in every poll interval, carries a
/// message with probability <c>hitRate</c>, at a uniformly random moment inside that interval. Messages are
/// numbered in the order they are due, so a message's number is its index here.
/// </summary>
internal sealed class SendSchedule
{
    private SendSchedule(int[] connections, double[] offsetsMs, double durationMs)
    {
        Connections = connections;
        OffsetsMs = offsetsMs;
        DurationMs = durationMs;
    }

    /// <summary>The connection each message goes out on.</summary>
    public IReadOnlyList<int> Connections { get; }

    /// <summary>When each message is due, in ms from the start of sending; ascending.</summary>
    public IReadOnlyList<double> OffsetsMs { get; }

    /// <summary>How long the server sends for.</summary>
    public double DurationMs { get; }

    public int Count => Connections.Count;

    /// <summary>When the last message is due; 0 when there is none.</summary>
    public double LastOffsetMs => Count == 0 ? 0 : OffsetsMs[Count - 1];

    /// <summary>Messages per second the server sends on average.</summary>
    public static double ExpectedRatePerSecond(int connections, double intervalMs, double hitRate) =>
        connections * hitRate * 1000 / intervalMs;

    public static SendSchedule Generate(int connections, double intervalMs, double hitRate, double durationMs, int seed)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(connections);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(intervalMs);
        var random = new Random(seed);
        var slots = (int)Math.Floor(durationMs / intervalMs);
        var due = new List<(double Offset, int Connection)>((int)Math.Min(1 << 20, connections * slots * hitRate * 1.2 + 16));
        for (var slot = 0; slot < slots; slot++)
        {
            for (var connection = 0; connection < connections; connection++)
            {
                // Both draws happen for every pair, so the schedule of one connection does not depend on another's luck.
                var hit = random.NextDouble() < hitRate;
                var within = random.NextDouble();
                if (hit)
                {
                    due.Add(((slot + within) * intervalMs, connection));
                }
            }
        }

        due.Sort((a, b) => a.Offset != b.Offset ? a.Offset.CompareTo(b.Offset) : a.Connection.CompareTo(b.Connection));
        return new SendSchedule([.. due.Select(d => d.Connection)], [.. due.Select(d => d.Offset)], slots * intervalMs);
    }

    /// <summary>A handful of messages in the first interval, one per connection, to warm a receiver before it is measured.</summary>
    public static SendSchedule Primer(int connections, double intervalMs, int count)
    {
        var n = Math.Min(count, connections);
        return new SendSchedule([.. Enumerable.Range(0, n)], [.. Enumerable.Range(0, n).Select(i => intervalMs * i / Math.Max(1, n))], intervalMs);
    }

    /// <summary>A fingerprint of the schedule, equal across trials that sent the same messages at the same times.</summary>
    public string Digest()
    {
        var bytes = new byte[Count * 12];
        for (var i = 0; i < Count; i++)
        {
            BitConverter.TryWriteBytes(bytes.AsSpan(i * 12), Connections[i]);
            BitConverter.TryWriteBytes(bytes.AsSpan((i * 12) + 4), OffsetsMs[i]);
        }

        return WorkDigest.Of(bytes);
    }
}
