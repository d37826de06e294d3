namespace ConcurrencyLab.Workloads;

/// <summary>
/// What each of a batch's items does, in the forms the work can be called in.
/// Items are numbered 0 to <see cref="Count"/> - 1; a workload is built once from a seed and must
/// describe the same work for every variant and every trial, so that variants differ only in scheduling.
/// </summary>
/// <remarks>
/// Override the members of each form the workload supports: <see cref="Run"/> (blocking), <see cref="RunAsync"/>
/// (Task-returning), <see cref="BeginRun"/> with <see cref="EndRun"/> (Begin/End). The strategies then call the
/// items in every form the workload has. Members are called concurrently from many threads and must be
/// thread-safe. A trial's lifetime, all in the trial's own process: the workload is built,
/// <see cref="SetUpAsync"/> runs, the variant is primed on <see cref="CreatePrimer"/>'s workload, the measured
/// region runs every item once, then <see cref="Check"/> and <see cref="CollectMetrics"/> read what the items
/// did, and <see cref="TearDownAsync"/> runs, also when the trial failed. Only the region is measured.
/// </remarks>
public abstract class Workload
{
    private IReadOnlyList<WorkForm>? _forms;

    /// <summary>How many items a batch holds.</summary>
    public abstract int Count { get; }

    /// <summary>
    /// The forms this workload can be called in. By default, those whose members it overrides (<see cref="Run"/>
    /// for <see cref="WorkForm.Sync"/>, <see cref="RunAsync"/> for <see cref="WorkForm.Tap"/>, <see cref="BeginRun"/>
    /// for <see cref="WorkForm.Apm"/>), in that order; the first is the one a strategy that can call several uses
    /// when a variant's name gives none.
    /// </summary>
    public virtual IReadOnlyList<WorkForm> Forms => _forms ??= OverriddenForms(GetType());

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

    /// <summary>
    /// Makes what one trial's items need and must not be measured making, such as a connection or a warm cache;
    /// runs in the trial's process before priming and the measured region. Nothing by default.
    /// </summary>
    public virtual ValueTask SetUpAsync(CancellationToken cancellationToken) => ValueTask.CompletedTask;

    /// <summary>Undoes <see cref="SetUpAsync"/> after the measured region, also when the trial failed. Nothing by default.</summary>
    public virtual ValueTask TearDownAsync() => ValueTask.CompletedTask;

    /// <summary>
    /// Why the items' work was wrong (a value computed wrongly, an item that saw an error it swallowed), checked
    /// after the measured region; the trial then fails with this reason. Null, the default, when all is well.
    /// </summary>
    public virtual string? Check() => null;

    /// <summary>
    /// Sets the values of the scenario's own metrics for this trial (declared once in the scenario's
    /// <c>Metrics</c>), read after the measured region: cache hits, bytes sent, retries. They reach the tables,
    /// <c>results.json</c>, the CSV and the report like the lab's own. Nothing by default.
    /// </summary>
    public virtual void CollectMetrics(Measurement.MetricValues metrics)
    {
    }

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

    private static WorkForm[] OverriddenForms(Type type)
    {
        static bool Overrides(Type type, string name, Type[] parameters) =>
            type.GetMethod(name, parameters)?.DeclaringType is { } declaring && declaring != typeof(Workload);

        var forms = new List<WorkForm>();
        if (Overrides(type, nameof(Run), [typeof(int), typeof(CancellationToken)]))
        {
            forms.Add(WorkForm.Sync);
        }

        if (Overrides(type, nameof(RunAsync), [typeof(int), typeof(CancellationToken)]))
        {
            forms.Add(WorkForm.Tap);
        }

        if (Overrides(type, nameof(BeginRun), [typeof(int), typeof(AsyncCallback), typeof(object)]))
        {
            forms.Add(WorkForm.Apm);
        }

        return [.. forms];
    }
}
