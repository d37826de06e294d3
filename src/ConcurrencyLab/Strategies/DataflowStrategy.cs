using System.Threading.Tasks.Dataflow;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>A Dataflow ActionBlock with MaxDegreeOfParallelism: post every index, complete, await Completion.</summary>
internal sealed class DataflowStrategy : Strategy
{
    public override string Id => "dataflow";

    public override string Description => "ActionBlock with MaxDegreeOfParallelism = N";

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Tap, WorkForm.Sync, WorkForm.Apm];

    public override bool HasDegree => true;

    public override string DefaultDegreeMeaning => "1, ActionBlock's own default";

    /// <inheritdoc/>
    private protected override int DefaultMostAtOnce(int items) => 1;

    public override async Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default)
    {
        var options = new ExecutionDataflowBlockOptions { CancellationToken = cancellationToken };
        if (!degree.IsDefault)
        {
            options.MaxDegreeOfParallelism = degree.Value;
        }

        var block = new ActionBlock<int>(i => batch.InvokeAsync(i, cancellationToken).AsTask(), options);
        for (var i = 0; i < batch.Count; i++)
        {
            // Post fails only once the block has faulted; its Completion then carries the item's exception.
            if (!block.Post(i))
            {
                break;
            }
        }

        block.Complete();
        await block.Completion.ConfigureAwait(false);
    }
}
