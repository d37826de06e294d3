using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>
/// A way of scheduling a batch of work items: the thing a variant compares.
/// Implementations are stateless singletons listed in <see cref="StrategyCatalog"/>.
/// </summary>
internal abstract class Strategy
{
    private protected Strategy()
    {
    }

    /// <summary>The stable, lowercase identifier used in variant names, such as <c>foreach-async</c>.</summary>
    public abstract string Id { get; }

    /// <summary>One line saying what the strategy does, in .NET terms.</summary>
    public abstract string Description { get; }

    /// <summary>The forms this strategy can call items in; the first is the one it is written for.</summary>
    public abstract IReadOnlyList<WorkForm> Forms { get; }

    /// <summary>The form the strategy is written for; variant names leave it out.</summary>
    public WorkForm PreferredForm => Forms[0];

    /// <summary>
    /// Whether the strategy holds a thread (the caller's or the pool's) for the whole of each item. Given
    /// task-based items, such a strategy blocks on them: sync over async.
    /// </summary>
    public virtual bool HoldsThreads => PreferredForm == WorkForm.Sync;

    /// <summary>Whether the strategy takes a degree of parallelism (<c>@N</c> in a variant name).</summary>
    public virtual bool HasDegree => false;

    /// <summary>The largest degree the API accepts.</summary>
    public virtual int MaxDegree => int.MaxValue;

    /// <summary>What <c>@default</c> means for this strategy.</summary>
    public virtual string DefaultDegreeMeaning => string.Empty;

    /// <summary>
    /// Whether a batch scenario runs the strategy when no variants are named; false for those run only when
    /// named, because another strategy already shows what they would, or they reproduce one published program.
    /// </summary>
    public virtual bool RunByDefault => true;

    /// <summary>
    /// Whether a batch scenario also runs the strategy at its API's own degree (<c>@default</c>) when no variants
    /// are named, besides the degrees of <c>--dop</c>: where that default is itself a finding.
    /// </summary>
    public virtual bool RunAtDefaultDegree => false;

    /// <summary>
    /// The most of <paramref name="items"/> items the strategy lets run at once at <paramref name="degree"/>: by
    /// default, every item for one without a degree, its degree (<see cref="DefaultMostAtOnce"/> for the API's
    /// default) for one with; never more than the items. What its items in flight are measured against.
    /// </summary>
    public virtual int MostAtOnce(Degree degree, int items) =>
        Math.Clamp(!HasDegree ? items : degree.IsDefault ? DefaultMostAtOnce(items) : degree.Value, Math.Min(1, items), Math.Max(0, items));

    /// <summary>How many items at once the API's default degree (<c>@default</c>) lets run: the core count unless said otherwise.</summary>
    private protected virtual int DefaultMostAtOnce(int items) => Environment.ProcessorCount;

    /// <summary>Whether the strategy can call items in <paramref name="form"/>.</summary>
    public bool Supports(WorkForm form) => Forms.Contains(form);

    /// <summary>
    /// Runs every item of <paramref name="batch"/> exactly once and returns when all are done.
    /// Blocking strategies do their work on the calling thread and return a completed task.
    /// </summary>
    public abstract Task ExecuteAsync(WorkBatch batch, Degree degree, CancellationToken cancellationToken = default);

    /// <inheritdoc/>
    public override string ToString() => Id;
}
