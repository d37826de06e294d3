using System.Security.Cryptography;
using ConcurrencyLab.Workloads;

namespace MyWorkload;

/// <summary>
/// A typical service step: wait for a remote reply (2-8 ms, seeded), then hash what came back (CPU).
/// Offers a blocking form and a Task form, so every strategy has something to run.
/// </summary>
internal sealed class FetchAndHashWorkload : Workload
{
    private readonly int[] _replyMs;
    private readonly byte[] _payload;

    public FetchAndHashWorkload(int items, int seed)
    {
        var random = new Random(seed);
        _replyMs = [.. Enumerable.Range(0, items).Select(_ => random.Next(2, 9))];
        _payload = new byte[64 * 1024];
        random.NextBytes(_payload);
    }

    public override int Count => _replyMs.Length;

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap];

    public override string Digest => string.Join('-', _replyMs.Take(8));

    public override void Run(int index, CancellationToken cancellationToken)
    {
        Thread.Sleep(_replyMs[index]);
        SHA256.HashData(_payload);
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        await Task.Delay(_replyMs[index], cancellationToken);
        SHA256.HashData(_payload);
    }
}
