namespace ConcurrencyLab.Workloads;

/// <summary>
/// What each of a batch's items does, in the forms the work can be called in.
/// Items are numbered 0 to <see cref="Count"/> - 1; a workload is built once from a seed and must
/// describe the same work for every variant and every trial, so that variants differ only in scheduling.
/// </summary>
/// <remarks>
/// Override the members of each form the workload supports and list those forms in <see cref="Forms"/>.
/// Members are called concurrently from many threads and must be thread-safe.
/// </remarks>
public abstract class Workload
{
    /// <summary>How many items a batch holds.</summary>
    public abstract int Count { get; }

    /// <summary>The forms this workload can be called in.</summary>
    public abstract IReadOnlyList<WorkForm> Forms { get; }

    /// <summary>
    /// A short fingerprint of the items (for example a hash of their parameters). Trials record it so a
    /// report can show that every variant ran identical work.
    /// </summary>
    public virtual string Digest => string.Empty;

    /// <summary>
    /// A small workload that takes the same code paths as this one but finishes at once; a trial runs the
    /// variant over it, unmeasured, so the JIT's first compilation is not charged to the measured run.
    /// The default waits about a millisecond per item in each form; override it to exercise your own code.
    /// </summary>
    public virtual Workload CreatePrimer(int count) => new DryWorkload(count, Forms);

    /// <summary>Whether the workload can be called in <paramref name="form"/>.</summary>
    public bool Supports(WorkForm form) => Forms.Contains(form);

    /// <summary>Performs item <paramref name="index"/>, blocking the calling thread.</summary>
    public virtual void Run(int index, CancellationToken cancellationToken) =>
        throw new NotSupportedException($"{GetType().Name} has no synchronous form.");

    /// <summary>Performs item <paramref name="index"/> asynchronously.</summary>
    public virtual ValueTask RunAsync(int index, CancellationToken cancellationToken) =>
        throw new NotSupportedException($"{GetType().Name} has no task-based form.");

    /// <summary>
    /// How a blocking caller (a loop, a pool thread, Parallel.For) runs the task-based form. The default
    /// waits until the task completes. Override it when the code being reproduced waited differently,
    /// for example <c>task.Wait(timeout)</c>, which returns at the timeout even when the task's completion
    /// is stuck behind a starved thread pool.
    /// </summary>
    public virtual void RunAsyncAndWait(int index, CancellationToken cancellationToken)
    {
        var pending = RunAsync(index, cancellationToken);
        if (pending.IsCompleted)
        {
            pending.GetAwaiter().GetResult();
        }
        else
        {
            pending.AsTask().GetAwaiter().GetResult();
        }
    }

    /// <summary>Starts item <paramref name="index"/> in the Begin/End pattern.</summary>
    public virtual IAsyncResult BeginRun(int index, AsyncCallback? callback, object? state) =>
        throw new NotSupportedException($"{GetType().Name} has no Begin/End form.");

    /// <summary>Completes an item started by <see cref="BeginRun"/>.</summary>
    public virtual void EndRun(IAsyncResult asyncResult) =>
        throw new NotSupportedException($"{GetType().Name} has no Begin/End form.");
}
