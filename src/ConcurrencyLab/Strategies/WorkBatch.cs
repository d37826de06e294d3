using System.Diagnostics;
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
    private readonly long[] _beganAt;
    private readonly long[] _finishedAt;
    private readonly int[] _runs;
    private long _startedAt;
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
        _beganAt = new long[workload.Count];
        _finishedAt = new long[workload.Count];
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
    public void MarkStart() => _startedAt = Stopwatch.GetTimestamp();

    /// <summary>Runs item <paramref name="index"/> and blocks until it is done, whatever the form.</summary>
    /// <remarks>For the task form this is sync-over-async, as a blocking strategy given a task-returning call does it.</remarks>
    public void Invoke(int index, CancellationToken cancellationToken = default)
    {
        Begin(index);
        switch (Form)
        {
            case WorkForm.Sync:
                _workload.Run(index, cancellationToken);
                break;
            case WorkForm.Tap:
                _workload.RunAsyncAndWait(index, cancellationToken);
                break;
            default:
                _workload.EndRun(_workload.BeginRun(index, null, null));
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
                _workload.Run(index, cancellationToken);
                Finish(index);
                return ValueTask.CompletedTask;
            case WorkForm.Tap:
                var pending = _workload.RunAsync(index, cancellationToken);
                if (pending.IsCompletedSuccessfully)
                {
                    Finish(index);
                    return ValueTask.CompletedTask;
                }

                return AwaitThenFinish(pending, index);
            default:
                return AwaitThenFinish(new ValueTask(Task.Factory.FromAsync(_workload.BeginRun, _workload.EndRun, index, null)), index);
        }
    }

    /// <summary>Starts item <paramref name="index"/> in the Begin/End form; <see cref="EndInvoke"/> completes it.</summary>
    public IAsyncResult BeginInvoke(int index, AsyncCallback? callback, object? state)
    {
        Debug.Assert(Form == WorkForm.Apm, "Begin/End is only offered in the APM form.");
        Begin(index);
        return _workload.BeginRun(index, callback, state);
    }

    /// <summary>Completes an item started with <see cref="BeginInvoke"/>.</summary>
    public void EndInvoke(int index, IAsyncResult asyncResult)
    {
        _workload.EndRun(asyncResult);
        Finish(index);
    }

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
    /// The longest time an item took from its call to its end, in milliseconds; null when none finished. With
    /// the fewest items at once (sequential), it is what one item costs; a lower bound on any variant's time.
    /// </summary>
    public double? LongestItemMs()
    {
        double? longest = null;
        for (var i = 0; i < Count; i++)
        {
            if (Volatile.Read(ref _runs[i]) > 0 && _beganAt[i] != 0)
            {
                var ms = Stopwatch.GetElapsedTime(_beganAt[i], _finishedAt[i]).TotalMilliseconds;
                longest = Math.Max(longest ?? 0, ms);
            }
        }

        return longest;
    }

    // The first call of an item; a second run of it (a duplicate) keeps the first's start.
    private void Begin(int index)
    {
        if (_beganAt[index] == 0)
        {
            _beganAt[index] = Stopwatch.GetTimestamp();
        }
    }

    private async ValueTask AwaitThenFinish(ValueTask pending, int index)
    {
        await pending.ConfigureAwait(false);
        Finish(index);
    }

    private void Finish(int index)
    {
        _finishedAt[index] = Stopwatch.GetTimestamp();

        // The increment publishes _finishedAt[index]: readers check _runs before reading the timestamp.
        if (Interlocked.Increment(ref _runs[index]) == 1)
        {
            Interlocked.Increment(ref _completed);
        }
    }
}
