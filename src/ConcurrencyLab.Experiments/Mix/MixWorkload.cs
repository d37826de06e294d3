using ConcurrencyLab.Workloads;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Experiments.Mix;

/// <summary>Where an item's CPU work sits around its wait.</summary>
internal enum CpuPlace
{
    /// <summary>All of it before the wait: the start of a request's handler.</summary>
    Before,

    /// <summary>All of it after the wait: processing a reply.</summary>
    After,

    /// <summary>Half before and half after.</summary>
    Split,
}

/// <summary>The shape of a mix, as its options describe it.</summary>
internal sealed record MixShape(int Items, double CpuMs, WaitShape Wait, CpuPlace Place, double LockMs, int Downstream);

/// <summary>
/// One item of a described workload: CPU work (by calibrated count), a wait (a blocking sleep in the sync
/// form, a timer awaited in the task form), optionally through a downstream limit of K at once, and optionally
/// a lock held over CPU work, shared by every item.
/// </summary>
internal sealed class MixWorkload : Workload
{
    private readonly MixShape _shape;
    private readonly double[] _waitsMs;
    private readonly long _cpuRounds;
    private readonly long _lockRounds;
    private readonly Lock _gate = new();
    private readonly SemaphoreSlim? _downstream;
    private readonly int _measureEvery;
    private long _measuredNs;
    private int _measuredItems;

    public MixWorkload(MixShape shape, int seed, double roundsPerMs)
    {
        _shape = shape;
        _waitsMs = shape.Wait.Draw(shape.Items, seed);
        _cpuRounds = (long)Math.Round(shape.CpuMs * roundsPerMs);
        _lockRounds = (long)Math.Round(shape.LockMs * roundsPerMs);
        _downstream = shape.Downstream > 0 ? new SemaphoreSlim(shape.Downstream, shape.Downstream) : null;

        // Each reading of a thread's clock is a system call (0.72 us here), two for each stretch of work timed, one to
        // four stretches an item: items of under 2 ms of CPU are measured one in every ceil(2 / ms), so the readings
        // cost at most 0.3% of the work (0.07% where an item's CPU is one stretch).
        var itemMs = shape.CpuMs + shape.LockMs;
        _measureEvery = itemMs <= 0 || !ThreadCpuClock.Available ? 0 : (int)Math.Clamp(Math.Ceiling(2 / itemMs), 1, int.MaxValue);
    }

    /// <summary>
    /// The CPU an item's work took in the region, by its thread's own clock (<see cref="ThreadCpuClock"/>), in
    /// milliseconds: the mean over the items measured. The ideal assumes the calibrated count takes what was asked.
    /// </summary>
    internal static readonly Metric ItemCpu = Metric.Milliseconds("itemCpuMs", "Item CPU") with
    {
        Direction = MetricDirection.Neither,
        Description = "the CPU each item's work took in the region by its thread's own clock, ms (the mean over the items measured): what " +
            "--cpu-ms and --lock-ms asked, if the run's calibration held in the trial",
    };

    /// <summary>The items measured so far; 0 where none is (no CPU work, or no thread clock on this system).</summary>
    internal int MeasuredItems => Volatile.Read(ref _measuredItems);

    /// <inheritdoc/>
    public override void CollectMetrics(MetricValues metrics)
    {
        ArgumentNullException.ThrowIfNull(metrics);
        if (MeasuredItems > 0)
        {
            metrics[ItemCpu] = Math.Round(Interlocked.Read(ref _measuredNs) / 1e6 / MeasuredItems, 4);
        }
    }

    public override int Count => _shape.Items;

    /// <summary>The shape the options described.</summary>
    public MixShape Shape => _shape;

    /// <summary>Each item's wait, as drawn.</summary>
    public IReadOnlyList<double> WaitsMs => _waitsMs;

    /// <inheritdoc/>
    public override string Digest => $"{_shape} rounds {_cpuRounds}+{_lockRounds} waits {_waitsMs.Sum():0.###}";

    public override void Run(int index, CancellationToken cancellationToken)
    {
        Cpu(index, before: true);
        _downstream?.Wait(cancellationToken);
        try
        {
            Thread.Sleep(TimeSpan.FromMilliseconds(_waitsMs[index]));
        }
        finally
        {
            _downstream?.Release();
        }

        Cpu(index, before: false);
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        Cpu(index, before: true);
        if (_downstream is not null)
        {
            await _downstream.WaitAsync(cancellationToken).ConfigureAwait(false);
        }

        try
        {
            // The lab's precise timer: on time like a reply from elsewhere, where Task.Delay rounds up on Linux.
            await PreciseTimer.Shared.WaitAsync((int)Math.Round(_waitsMs[index])).ConfigureAwait(false);
        }
        finally
        {
            _downstream?.Release();
        }

        Cpu(index, before: false);
    }

    // The item's CPU work on this side of its wait, and the locked part with the rest of it; each part timed by the
    // thread's own clock where this item is one of those measured (the wait for the lock is not CPU, and not counted).
    private void Cpu(int index, bool before)
    {
        var share = (_shape.Place, before) switch
        {
            (CpuPlace.Before, true) or (CpuPlace.After, false) => 1.0,
            (CpuPlace.Split, _) => 0.5,
            _ => 0.0,
        };
        if (share <= 0)
        {
            return;
        }

        var measured = _measureEvery > 0 && index % _measureEvery == 0;
        var start = measured ? ThreadCpuClock.NowNs() : 0;
        CpuWork.Run((long)(_cpuRounds * share));
        var ns = measured ? ThreadCpuClock.NowNs() - start : 0;
        if (_lockRounds > 0)
        {
            lock (_gate)
            {
                start = measured ? ThreadCpuClock.NowNs() : 0;
                CpuWork.Run((long)(_lockRounds * share));
                ns += measured ? ThreadCpuClock.NowNs() - start : 0;
            }
        }

        if (measured)
        {
            Interlocked.Add(ref _measuredNs, ns);

            // An item is counted once: on the side of its wait where its work starts.
            if (before || _shape.Place == CpuPlace.After)
            {
                Interlocked.Increment(ref _measuredItems);
            }
        }
    }
}
