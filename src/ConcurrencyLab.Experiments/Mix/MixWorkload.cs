using ConcurrencyLab.Workloads;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Hosting;

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

    public MixWorkload(MixShape shape, int seed, double roundsPerMs)
    {
        _shape = shape;
        _waitsMs = shape.Wait.Draw(shape.Items, seed);
        _cpuRounds = (long)Math.Round(shape.CpuMs * roundsPerMs);
        _lockRounds = (long)Math.Round(shape.LockMs * roundsPerMs);
        _downstream = shape.Downstream > 0 ? new SemaphoreSlim(shape.Downstream, shape.Downstream) : null;
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
        Cpu(before: true);
        _downstream?.Wait(cancellationToken);
        try
        {
            Thread.Sleep(TimeSpan.FromMilliseconds(_waitsMs[index]));
        }
        finally
        {
            _downstream?.Release();
        }

        Cpu(before: false);
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        Cpu(before: true);
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

        Cpu(before: false);
    }

    // The item's CPU work on this side of its wait, and the locked part with the rest of it.
    private void Cpu(bool before)
    {
        var share = (_shape.Place, before) switch
        {
            (CpuPlace.Before, true) or (CpuPlace.After, false) => 1.0,
            (CpuPlace.Split, _) => 0.5,
            _ => 0.0,
        };
        if (share > 0)
        {
            CpuWork.Run((long)(_cpuRounds * share));
            if (_lockRounds > 0)
            {
                lock (_gate)
                {
                    CpuWork.Run((long)(_lockRounds * share));
                }
            }
        }
    }
}
