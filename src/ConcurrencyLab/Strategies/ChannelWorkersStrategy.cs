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

        // A worker whose item throws stops everything: otherwise, once every worker had failed, nothing
        // would read the bounded channel and the producer would wait on it for ever.
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var workers = new Task[workerCount];
        for (var w = 0; w < workers.Length; w++)
        {
            workers[w] = Task.Run(() => WorkAsync(batch, channel.Reader, stop), CancellationToken.None);
        }

        try
        {
            for (var i = 0; i < batch.Count; i++)
            {
                await channel.Writer.WriteAsync(i, stop.Token).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            // A worker failed; its exception comes out of the WhenAll below.
        }
        finally
        {
            channel.Writer.TryComplete();
        }

        await Task.WhenAll(workers).ConfigureAwait(false);
        cancellationToken.ThrowIfCancellationRequested();
    }

    private static async Task WorkAsync(WorkBatch batch, ChannelReader<int> reader, CancellationTokenSource stop)
    {
        try
        {
            while (await reader.WaitToReadAsync(stop.Token).ConfigureAwait(false))
            {
                while (reader.TryRead(out var index))
                {
                    await batch.InvokeAsync(index, stop.Token).ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // Stopped because another worker failed or the trial was cancelled: not this worker's error.
        }
        catch
        {
            await stop.CancelAsync().ConfigureAwait(false);
            throw;
        }
    }
}
