using ConcurrencyLab.Experiments.Digests;
using System.Diagnostics;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Experiments.Delay;

/// <summary>What times the asynchronous waits of a <see cref="DelayWorkload"/>.</summary>
internal enum DelayTimer
{
    /// <summary>A dedicated timer thread read with Stopwatch: waits end on time, never early.</summary>
    Precise,

    /// <summary>Task.Delay, as in the published experiment: on Linux it ticks in 4 ms steps; early ends are topped up.</summary>
    TaskDelay,
}

/// <summary>
/// Items that each wait at least a fixed time: Thread.Sleep when blocking, Task.Delay when asynchronous. Stands in
/// for I/O whose latency is all waiting, as in the published experiment.
/// </summary>
internal sealed class DelayWorkload : Workload
{
    private readonly int[] _delaysMs;

    /// <summary>Uses the given per-item delays.</summary>
    public DelayWorkload(IReadOnlyList<int> delaysMs, DelayTimer timer = DelayTimer.Precise)
    {
        Timer = timer;
        if (timer == DelayTimer.Precise)
        {
            // Start the timer thread now, outside any measured region.
            _ = PreciseTimer.Shared;
        }

        ArgumentNullException.ThrowIfNull(delaysMs);
        foreach (var delay in delaysMs)
        {
            ArgumentOutOfRangeException.ThrowIfNegative(delay, nameof(delaysMs));
        }

        _delaysMs = [.. delaysMs];
        Digest = WorkDigest.Of(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_delaysMs.AsSpan()));
    }

    /// <summary>
    /// Draws <paramref name="count"/> delays uniformly from <paramref name="minMs"/> to <paramref name="maxMs"/>
    /// inclusive. <see cref="Random"/> with a seed uses a fixed algorithm, so the same seed gives the same delays.
    /// </summary>
    public static DelayWorkload Generate(int count, int minMs, int maxMs, int seed, DelayTimer timer = DelayTimer.Precise) =>
        new(DrawDelays(count, minMs, maxMs, seed), timer);

    /// <summary>The delays <see cref="Generate"/> uses, without building a workload.</summary>
    public static int[] DrawDelays(int count, int minMs, int maxMs, int seed)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(minMs, maxMs);
        var random = new Random(seed);
        var delays = new int[count];
        for (var i = 0; i < delays.Length; i++)
        {
            delays[i] = random.Next(minMs, maxMs + 1);
        }

        return delays;
    }

    /// <summary>What asynchronous waits are timed by.</summary>
    public DelayTimer Timer { get; }

    /// <summary>The delay of each item, in milliseconds.</summary>
    public IReadOnlyList<int> DelaysMs => _delaysMs;

    public override int Count => _delaysMs.Length;

    public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Sync, WorkForm.Tap, WorkForm.Apm];

    public override string Digest { get; }

    public override Workload CreatePrimer(int count) => new DelayWorkload(Enumerable.Repeat(1, count).ToArray(), Timer);

    public override void Run(int index, CancellationToken cancellationToken)
    {
        var start = Stopwatch.GetTimestamp();
        var delay = _delaysMs[index];
        Thread.Sleep(delay);
        while (Stopwatch.GetElapsedTime(start).TotalMilliseconds < delay)
        {
            Thread.Sleep(1);
        }
    }

    public override ValueTask RunAsync(int index, CancellationToken cancellationToken) =>
        WaitAtLeastAsync(_delaysMs[index], cancellationToken);

    public override IAsyncResult BeginRun(int index, AsyncCallback? callback, object? state) =>
        TaskToAsyncResult.Begin(WaitAtLeastAsync(_delaysMs[index], CancellationToken.None).AsTask(), callback, state);

    public override void EndRun(IAsyncResult asyncResult) => TaskToAsyncResult.End(asyncResult);

    /// <summary>
    /// Waits at least <paramref name="delayMs"/>. With the precise timer the wait ends on time; with
    /// Task.Delay (the published experiment's choice), an early wake-up is topped up: Task.Delay keeps time
    /// with Environment.TickCount64, which moves in 4 ms steps on Linux, so it can end up to a step early,
    /// and asynchronous items would otherwise do less waiting than blocking ones.
    /// </summary>
    private async ValueTask WaitAtLeastAsync(int delayMs, CancellationToken cancellationToken)
    {
        if (Timer == DelayTimer.Precise)
        {
            await PreciseTimer.Shared.WaitAsync(delayMs).WaitAsync(cancellationToken).ConfigureAwait(false);
            return;
        }

        var start = Stopwatch.GetTimestamp();
        await Task.Delay(delayMs, cancellationToken).ConfigureAwait(false);
        double remaining;
        while ((remaining = delayMs - Stopwatch.GetElapsedTime(start).TotalMilliseconds) > 0)
        {
            await Task.Delay(Math.Max(1, (int)Math.Ceiling(remaining)), cancellationToken).ConfigureAwait(false);
        }
    }
}
