using System.Diagnostics;
using System.Runtime.CompilerServices;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Strategies;

/// <summary>
/// The items a strategy schedules: a workload bound to one form, which records when each item
/// finished and how many times it ran. Strategies call <see cref="Invoke"/> (blocking) or
/// <see cref="InvokeAsync"/> (asynchronous) and never time anything themselves.
/// </summary>
internal sealed class WorkBatch
{
    private readonly Workload _workload;
    private readonly long[] _finishedAt;
    private readonly long[] _begunAt;
    private readonly int[] _runs;
    private long _startedAt;
    private int _startedOn;
    private long _callerTicks;
    private int _completed;

    /// <summary>Binds <paramref name="workload"/> to <paramref name="form"/>.</summary>
    public WorkBatch(Workload workload, WorkForm form)
    {
        ArgumentNullException.ThrowIfNull(workload);
        if (!workload.Supports(form))
        {
            throw new ArgumentException($"The workload has no {form.ToSuffix()} form.", nameof(form));
        }

        _workload = workload;
        Form = form;
        _finishedAt = new long[workload.Count];
        _begunAt = new long[workload.Count];
        _runs = new int[workload.Count];
    }

    /// <summary>The number of items.</summary>
    public int Count => _finishedAt.Length;

    /// <summary>The form every item is called in.</summary>
    public WorkForm Form { get; }

    /// <summary>Items that finished without throwing, counting each index once.</summary>
    public int Completed => Volatile.Read(ref _completed);

    /// <summary>Extra runs of items that had already run: a correct strategy leaves this at zero.</summary>
    public int Duplicated
    {
        get
        {
            var duplicated = 0;
            for (var i = 0; i < _runs.Length; i++)
            {
                duplicated += Math.Max(0, Volatile.Read(ref _runs[i]) - 1);
            }

            return duplicated;
        }
    }

    /// <summary>Marks the instant the batch was handed to the strategy; latencies count from here.</summary>
    public void MarkStart()
    {
        _startedOn = Environment.CurrentManagedThreadId;
        _startedAt = Stopwatch.GetTimestamp();
    }

    /// <summary>
    /// Marks the instant the strategy's call returned to the handing-over thread (its first await, or its end): from
    /// here that thread is the pool's again, and what it runs is no longer the caller's share (<see cref="CallerMs"/>).
    /// </summary>
    public void MarkHandedBack() => _startedOn = 0;

    /// <summary>Runs item <paramref name="index"/> and blocks until it is done, whatever the form.</summary>
    /// <remarks>For the task form this is sync-over-async, as a blocking strategy given a task-returning call does it.</remarks>
    public void Invoke(int index, CancellationToken cancellationToken = default)
    {
        Begin(index);
        switch (Form)
        {
            case WorkForm.Sync:
                CallRun(index, cancellationToken);
                break;
            case WorkForm.Tap:
                CallRunAsyncAndWait(index, cancellationToken);
                break;
            default:
                CallEndRun(CallBeginRun(index, null, null));
                break;
        }

        Finish(index);
    }

    /// <summary>Runs item <paramref name="index"/> asynchronously; a synchronous workload runs inline on the caller.</summary>
    public ValueTask InvokeAsync(int index, CancellationToken cancellationToken = default)
    {
        Begin(index);
        switch (Form)
        {
            case WorkForm.Sync:
                CallRun(index, cancellationToken);
                Finish(index, Returned(index));
                return ValueTask.CompletedTask;
            case WorkForm.Tap:
                var pending = CallRunAsync(index, cancellationToken);
                var returned = Returned(index);
                if (pending.IsCompletedSuccessfully)
                {
                    Finish(index, returned);
                    return ValueTask.CompletedTask;
                }

                return AwaitThenFinish(pending, index);
            default:
                var started = new ValueTask(Task.Factory.FromAsync(CallBeginRun, CallEndRun, index, null));
                Returned(index);
                return AwaitThenFinish(started, index);
        }
    }

    /// <summary>Starts item <paramref name="index"/> in the Begin/End form; <see cref="EndInvoke"/> completes it.</summary>
    public IAsyncResult BeginInvoke(int index, AsyncCallback? callback, object? state)
    {
        Debug.Assert(Form == WorkForm.Apm, "Begin/End is only offered in the APM form.");
        Begin(index);
        var started = CallBeginRun(index, callback, state);
        Returned(index);
        return started;
    }

    /// <summary>Completes an item started with <see cref="BeginInvoke"/>.</summary>
    public void EndInvoke(int index, IAsyncResult asyncResult)
    {
        CallEndRun(asyncResult);
        Finish(index);
    }

    // The workload is called from these alone, each compiled without optimisation and never inlined: the JIT can then
    // neither inline the item's code into the lab's loop (guessing the workload's type, as profile-guided
    // optimisation does) nor this call into it, so a stack sampled in an item shows the item's own method, not
    // the lab's. A call or two per item, a few nanoseconds (docs/method.md has the measurement).
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
    private void CallRun(int index, CancellationToken cancellationToken) => _workload.Run(index, cancellationToken);

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
    private ValueTask CallRunAsync(int index, CancellationToken cancellationToken) => _workload.RunAsync(index, cancellationToken);

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
    private void CallRunAsyncAndWait(int index, CancellationToken cancellationToken) => _workload.RunAsyncAndWait(index, cancellationToken);

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
    private IAsyncResult CallBeginRun(int index, AsyncCallback? callback, object? state) => _workload.BeginRun(index, callback, state);

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
    private void CallEndRun(IAsyncResult asyncResult) => _workload.EndRun(asyncResult);

    /// <summary>Milliseconds from <see cref="MarkStart"/> to each finished item, in no particular order.</summary>
    public double[] CompletionLatenciesMs()
    {
        var latencies = new List<double>(Count);
        for (var i = 0; i < Count; i++)
        {
            if (Volatile.Read(ref _runs[i]) > 0)
            {
                latencies.Add(Stopwatch.GetElapsedTime(_startedAt, _finishedAt[i]).TotalMilliseconds);
            }
        }

        return [.. latencies];
    }

    /// <summary>
    /// How long each item took, from the strategy calling it to its end, in milliseconds by index: what the item
    /// cost in this trial, whatever ran beside it; null unless every item finished exactly once.
    /// </summary>
    public double[]? ItemTimesMs()
    {
        if (Completed != Count || Duplicated > 0)
        {
            return null;
        }

        var times = new double[Count];
        for (var i = 0; i < times.Length; i++)
        {
            times[i] = Math.Round(Stopwatch.GetElapsedTime(_begunAt[i], _finishedAt[i]).TotalMilliseconds, 3);
        }

        return times;
    }

    /// <summary>
    /// For items run one after another: the longest any took, the gap between one item's end and the next's (the
    /// first's from the batch's start), in milliseconds; null when none finished. Read from the end times the
    /// batch records anyway, so timing it costs the items nothing.
    /// </summary>
    public double? LongestItemInSeriesMs()
    {
        var ends = Enumerable.Range(0, Count).Where(i => Volatile.Read(ref _runs[i]) > 0).Select(i => _finishedAt[i]).Order().ToList();
        if (ends.Count == 0)
        {
            return null;
        }

        var longest = ends[0] - _startedAt;
        for (var i = 1; i < ends.Count; i++)
        {
            longest = Math.Max(longest, ends[i] - ends[i - 1]);
        }

        return Stopwatch.GetElapsedTime(0, longest).TotalMilliseconds;
    }

    /// <summary>
    /// Milliseconds the thread that handed the batch over (<see cref="MarkStart"/>) spent, before the strategy's
    /// call returned to it (<see cref="MarkHandedBack"/>), inside the items it started asynchronously, before each
    /// call returned: an asynchronous item's work before its first await, a
    /// synchronous one run inline. That thread runs them one after another, so no other core can share this time.
    /// Items the caller runs to their end by blocking (<see cref="Invoke"/>) are its share of the work, not counted.
    /// </summary>
    public double CallerMs() => Stopwatch.GetElapsedTime(0, _callerTicks).TotalMilliseconds;

    /// <summary>
    /// How many items were in flight at once, from <see cref="MarkStart"/> to the last item's end (to now, where some
    /// item has not ended), against <paramref name="allowed"/>, the most the strategy lets run at once. Read from the
    /// start and end times the batch records anyway, so counting costs the items nothing; null when no item began.
    /// </summary>
    public Measurement.ItemsInFlight? InFlight(int? allowed)
    {
        var end = Completed == Count && Count > 0 ? _finishedAt.Max() : Stopwatch.GetTimestamp();
        return Measurement.ItemsInFlight.Of(_begunAt, _finishedAt, _startedAt, end, Stopwatch.Frequency, allowed);
    }

    /// <summary>Milliseconds from <see cref="MarkStart"/> to the first item's call: the strategy's own start (threads
    /// made, a pipeline built); null when no item began.</summary>
    public double? FirstItemMs()
    {
        long? first = null;
        for (var i = 0; i < _begunAt.Length; i++)
        {
            if (_begunAt[i] != 0 && (first is null || _begunAt[i] < first))
            {
                first = _begunAt[i];
            }
        }

        return first is { } at ? Math.Max(0, Stopwatch.GetElapsedTime(_startedAt, at).TotalMilliseconds) : null;
    }

    private async ValueTask AwaitThenFinish(ValueTask pending, int index)
    {
        await pending.ConfigureAwait(false);
        Finish(index);
    }

    private void Begin(int index) => _begunAt[index] = Stopwatch.GetTimestamp();

    // An asynchronous call came back to its caller: on the thread that handed the batch over, the time inside it was
    // that thread's alone. Only that one thread adds, and the sum is read once the batch is done, so it needs no
    // lock. Gives the clock it read, for an item that finished with the call; 0 when it read none.
    private long Returned(int index)
    {
        if (Environment.CurrentManagedThreadId != _startedOn)
        {
            return 0;
        }

        var now = Stopwatch.GetTimestamp();
        _callerTicks += now - _begunAt[index];
        return now;
    }

    private void Finish(int index, long at = 0)
    {
        _finishedAt[index] = at != 0 ? at : Stopwatch.GetTimestamp();

        // The increment publishes _finishedAt[index]: readers check _runs before reading the timestamp.
        if (Interlocked.Increment(ref _runs[index]) == 1)
        {
            Interlocked.Increment(ref _completed);
        }
    }
}
