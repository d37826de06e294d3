using System.Diagnostics;
using ConcurrencyLab.Workloads;

namespace ConclabWorkload;

/// <summary>
/// One batch of items, each a wait then some CPU work. The lab calls <see cref="Run"/> from the strategies that block
/// a thread per item, and <see cref="RunAsync"/> from the ones that await; put your own code in both, the same work in
/// each form.
/// </summary>
internal sealed class ItemWorkload(int count, int waitMs, double cpuMs, int seed) : Workload
{
    // The same seed gives every variant the same work: each item's wait varies by up to a fifth around the mean.
    private readonly int[] _waits = [.. Enumerable.Range(0, count).Select(i => (int)Math.Round(waitMs * (0.9 + (0.2 * new Random(seed + i).NextDouble()))))];

    /// <inheritdoc/>
    public override int Count => count;

    /// <inheritdoc/>
    public override void Run(int index, CancellationToken cancellationToken)
    {
        Thread.Sleep(_waits[index]);
        Work();
    }

    /// <inheritdoc/>
    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        await Task.Delay(_waits[index], cancellationToken).ConfigureAwait(false);
        Work();
    }

    // Busy for cpuMs, a stand-in for parsing, resizing, hashing (of wall time: where threads outnumber cores, each
    // gets less CPU than that in it).
    private void Work()
    {
        var until = Stopwatch.GetTimestamp() + (long)(cpuMs * Stopwatch.Frequency / 1000);
        var spin = 0UL;
        while (Stopwatch.GetTimestamp() < until)
        {
            spin = unchecked((spin * 6364136223846793005UL) + 1442695040888963407UL);
        }

        GC.KeepAlive(spin);
    }
}
