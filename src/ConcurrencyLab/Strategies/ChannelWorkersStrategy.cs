using System.Threading.Channels;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>
/// A producer writes every index to a bounded channel and N worker tasks read and run them: the usual
/// throttled pipeline. Synchronous items run inline in the workers and so hold a pool thread each.
/// </summary>
internal sealed class ChannelWorkersStrategy : Strategy
{
    public override string Id => "channel-workers";

    public override string Description => "a Channel feeding N consumer tasks";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Tap, WorkForm.Sync, WorkForm.Apm];

    public override bool HasDegree => true;

    public override string DefaultDegreeMeaning => "Environment.ProcessorCount workers";

    public override async Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var workerCount = degree.Or(Environment.ProcessorCount);

        // Bounded at twice the workers: enough that no worker waits on the producer, small enough to show back-pressure.
        var channel = Channel.CreateBounded<int>(new BoundedChannelOptions(Math.Max(1, workerCount * 2))
        {
            SingleWriter = true,
            FullMode = BoundedChannelFullMode.Wait,
        });

        var workers = new Task[workerCount];
        for (var w = 0; w < workers.Length; w++)
        {
            workers[w] = Task.Run(() => WorkAsync(batch, channel.Reader, cancellationToken), cancellationToken);
        }

        try
        {
            for (var i = 0; i < batch.Count; i++)
            {
                await channel.Writer.WriteAsync(i, cancellationToken).ConfigureAwait(false);
            }
        }
        finally
        {
            channel.Writer.Complete();
        }

        await Task.WhenAll(workers).ConfigureAwait(false);
    }

    private static async Task WorkAsync(WorkBatch batch, ChannelReader<int> reader, CancellationToken cancellationToken)
    {
        while (await reader.WaitToReadAsync(cancellationToken).ConfigureAwait(false))
        {
            while (reader.TryRead(out var index))
            {
                await batch.InvokeAsync(index, cancellationToken).ConfigureAwait(false);
            }
        }
    }
}
