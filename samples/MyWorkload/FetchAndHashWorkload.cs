using System.Diagnostics;
using System.Security.Cryptography;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;

namespace MyWorkload;

/// <summary>How many SHA-256 rounds over the payload take a millisecond on this machine, measured once per run.</summary>
public sealed record Calibration(int RoundsPerMs)
{
    internal static readonly byte[] Payload = new byte[4096];

    /// <summary>Hashes for about 200 ms and counts.</summary>
    public static Calibration Measure()
    {
        var rounds = 0;
        var watch = Stopwatch.StartNew();
        while (watch.ElapsedMilliseconds < 200)
        {
            SHA256.HashData(Payload);
            rounds++;
        }

        return new Calibration(Math.Max(1, (int)(rounds / watch.Elapsed.TotalMilliseconds)));
    }
}

/// <summary>
/// A typical service step: wait for a remote reply (the sweep's wait), then hash what came back (CPU). It offers
/// a blocking form (Run) and a Task form (RunAsync), so every strategy has something to run; the lab reads the
/// forms from the methods it overrides.
/// </summary>
internal sealed class FetchAndHashWorkload(int items, double cpuMs, int waitMs, WorkloadContext context) : Workload
{
    /// <summary>The most items under way at once in a trial: how much concurrency the variant really got.</summary>
    public static readonly Metric PeakInFlight = Metric.Count("peak-in-flight", "Peak in flight") with
    {
        Direction = MetricDirection.Neither,
        Visibility = MetricVisibility.Everywhere,
        Description = "the most items under way at the same moment",
    };

    private int _roundsPerItem;
    private int _inFlight;
    private int _peak;

    public override int Count => items;

    public override string Digest => $"{items}x({waitMs} ms + {cpuMs} ms)";

    /// <summary>Per trial, before its measured region: reads the run's calibration, made once in the runner.</summary>
    public override ValueTask SetUpAsync(CancellationToken cancellationToken)
    {
        _roundsPerItem = (int)Math.Round(context.RunSetUp<Calibration>().RoundsPerMs * cpuMs);
        return ValueTask.CompletedTask;
    }

    public override void Run(int index, CancellationToken cancellationToken)
    {
        Enter();
        Thread.Sleep(waitMs);
        Hash();
        Interlocked.Decrement(ref _inFlight);
    }

    public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
    {
        Enter();
        await Task.Delay(waitMs, cancellationToken).ConfigureAwait(false);
        Hash();
        Interlocked.Decrement(ref _inFlight);
    }

    public override void CollectMetrics(MetricValues metrics) => metrics[PeakInFlight] = _peak;

    public IdealBound Ideal()
    {
        var cpu = items * cpuMs / Environment.ProcessorCount;
        return new IdealBound(Math.Max(waitMs + cpuMs, cpu), $"every item waiting at once ({waitMs} ms), or all cores hashing ({cpu:0} ms), whichever is longer");
    }

    private void Enter()
    {
        var now = Interlocked.Increment(ref _inFlight);
        int peak;
        while (now > (peak = Volatile.Read(ref _peak)) && Interlocked.CompareExchange(ref _peak, now, peak) != peak)
        {
        }
    }

    private void Hash()
    {
        for (var i = 0; i < _roundsPerItem; i++)
        {
            SHA256.HashData(Calibration.Payload);
        }
    }
}
