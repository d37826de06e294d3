using System.Security.Cryptography;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios.Delay;

/// <summary>
/// Items that each wait a fixed time: Thread.Sleep when blocking, Task.Delay when asynchronous. Stands in
/// for I/O whose latency is all waiting, as in the published experiment.
/// </summary>
public sealed class DelayWorkload : Workload
{
    private readonly int[] _delaysMs;

    /// <summary>Uses the given per-item delays.</summary>
    public DelayWorkload(IReadOnlyList<int> delaysMs)
    {
        ArgumentNullException.ThrowIfNull(delaysMs);
        foreach (var delay in delaysMs)
        {
            ArgumentOutOfRangeException.ThrowIfNegative(delay, nameof(delaysMs));
        }

        _delaysMs = [.. delaysMs];
        Digest = Convert.ToHexStringLower(SHA256.HashData(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_delaysMs.AsSpan())))[..16];
    }

    /// <summary>
    /// Draws <paramref name="count"/> delays uniformly from <paramref name="minMs"/> to <paramref name="maxMs"/>
    /// inclusive. <see cref="Random"/> with a seed uses a fixed algorithm, so the same seed gives the same delays.
    /// </summary>
    public static DelayWorkload Generate(int count, int minMs, int maxMs, int seed)
    {
        var random = new Random(seed);
        var delays = new int[count];
        for (var i = 0; i < delays.Length; i++)
        {
            delays[i] = random.Next(minMs, maxMs + 1);
        }

        return new DelayWorkload(delays);
    }

    /// <summary>The delay of each item, in milliseconds.</summary>
    public IReadOnlyList<int> DelaysMs => _delaysMs;

    public override int Count => _delaysMs.Length;

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override string Digest { get; }

    public override void Run(int index, CancellationToken cancellationToken) => Thread.Sleep(_delaysMs[index]);

    public override ValueTask RunAsync(int index, CancellationToken cancellationToken) =>
        new(Task.Delay(_delaysMs[index], cancellationToken));

    public override IAsyncResult BeginRun(int index, AsyncCallback? callback, object? state) =>
        TaskToAsyncResult.Begin(Task.Delay(_delaysMs[index]), callback, state);

    public override void EndRun(IAsyncResult asyncResult) => TaskToAsyncResult.End(asyncResult);
}
