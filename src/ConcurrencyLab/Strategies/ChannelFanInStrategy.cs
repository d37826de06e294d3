using System.Threading.Channels;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>
/// The shape of the Channel case in the published delay experiment: every item's producer is started
/// at once (through PLINQ's Select, as there), each writes its index to an unbounded channel when done,
/// and a single reader drains it. Nothing limits how many items are in flight.
/// </summary>
internal sealed class ChannelFanInStrategy : Strategy
{
    public override string Id => "channel";

    public override string Description => "start every producer at once, each writes to a Channel; one reader";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Tap, WorkForm.Apm];

    public override async Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var channel = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true });
        var reader = ReadAllAsync(channel.Reader, cancellationToken);

        var producers = Enumerable.Range(0, batch.Count)
            .AsParallel()
            .Select(i => ProduceAsync(batch, i, channel.Writer, cancellationToken));
        try
        {
            await Task.WhenAll(producers).ConfigureAwait(false);
        }
        finally
        {
            channel.Writer.Complete();
        }

        var received = await reader.ConfigureAwait(false);
        if (received != batch.Count)
        {
            throw new InvalidOperationException($"The reader received {received} of {batch.Count} items.");
        }
    }

    private static async Task ProduceAsync(WorkBatch batch, int index, ChannelWriter<int> writer, CancellationToken cancellationToken)
    {
        await batch.InvokeAsync(index, cancellationToken).ConfigureAwait(false);
        await writer.WriteAsync(index, cancellationToken).ConfigureAwait(false);
    }

    private static async Task<int> ReadAllAsync(ChannelReader<int> reader, CancellationToken cancellationToken)
    {
        var received = 0;
        while (await reader.WaitToReadAsync(cancellationToken).ConfigureAwait(false))
        {
            while (reader.TryRead(out _))
            {
                received++;
            }
        }

        return received;
    }
}
