using System.Text;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Measurement;

public sealed class MeasurementTests
{
    [Fact]
    public void ParseThreadCount_ReadsField20_EvenWithSpacesAndParensInTheName()
    {
        var line = "4242 (my (odd) app) S 1 4242 4242 0 -1 4194560 1234 0 0 0 15 3 0 0 20 0 37 0 123456 1000000 500 18446744073709551615";
        Assert.Equal(37, ProcessCounters.ParseThreadCount(Encoding.ASCII.GetBytes(line)));
    }

    [Fact]
    public void ReadThreadCount_OnThisProcess_IsPositive()
    {
        using var counters = new ProcessCounters();
        Assert.True(counters.ReadThreadCount() > 1);
    }

    [Fact]
    public void Latency_Percentiles_OfOneToHundred()
    {
        var latencies = Enumerable.Range(1, 100).Select(i => (double)i).ToList();
        var p = LatencyDistribution.Summarise(latencies);

        // HDR buckets at three significant digits: within 0.1% of the exact order statistic.
        Assert.Equal(50, p.P50Ms, 1);
        Assert.Equal(95, p.P95Ms, 1);
        Assert.Equal(99, p.P99Ms, 1);
        Assert.Equal(100, p.MaxMs);
        Assert.Equal(new LatencyPercentiles(0, 0, 0, 0), LatencyDistribution.Summarise([]));
    }

    [Fact]
    public void Meter_SeesMoreThreadsWhileDedicatedThreadsRun()
    {
        const int Extra = 40;
        using var meter = new TrialMeter(TimeSpan.FromMilliseconds(5));
        using var release = new ManualResetEventSlim(false);
        using var started = new CountdownEvent(Extra);

        meter.Start();
        var threads = Enumerable.Range(0, Extra).Select(_ => new Thread(() =>
        {
            started.Signal();
            release.Wait();
        })).ToList();
        threads.ForEach(t => t.Start());
        started.Wait();

        // Give the sampler a few intervals to see them all alive.
        Thread.Sleep(60);
        release.Set();
        threads.ForEach(t => t.Join());
        var m = meter.Stop();

        Assert.True(m.PeakThreads >= m.ThreadsAtStart + Extra, $"peak {m.PeakThreads}, at start {m.ThreadsAtStart}");
        Assert.Contains(m.Samples, s => s.Threads >= m.ThreadsAtStart + Extra);
        Assert.True(m.Samples.Count >= 3);
        Assert.True(m.Samples.Zip(m.Samples.Skip(1)).All(p => p.First.TimeMs <= p.Second.TimeMs));
    }

    [Fact]
    public void Meter_WithSamplerOff_TakesNoSamples_ButStillMeasures()
    {
        using var meter = new TrialMeter(TimeSpan.Zero);
        meter.Start();
        var garbage = new byte[100_000];
        GC.KeepAlive(garbage);
        var m = meter.Stop();

        Assert.Empty(m.Samples);
        Assert.True(m.AllocatedBytes >= 100_000);
        Assert.True(m.PeakThreads >= 1);
        Assert.Same(m, meter.Stop());
    }
}
