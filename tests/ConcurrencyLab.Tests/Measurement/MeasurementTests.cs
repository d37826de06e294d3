using System.Diagnostics;
using System.Text;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Measurement;

/// <summary>Counts the process's threads, so it runs alone: other tests start and end hundreds of threads.</summary>
[Collection(nameof(ThreadCountingTests))]
public sealed class MeasurementTests
{
    [Fact]
    public void ParseThreadCount_ReadsField20_EvenWithSpacesAndParensInTheName()
    {
        var line = "4242 (my (odd) app) S 1 4242 4242 0 -1 4194560 1234 0 0 0 15 3 0 0 20 0 37 0 123456 1000000 500 18446744073709551615";
        Assert.Equal(37, ProcessCounters.ParseThreadCount(Encoding.ASCII.GetBytes(line)));
    }

    [Fact]
    public void ParseResidentPages_ReadsField24_AndAShortOrGarbledLineIsMinusOne()
    {
        var line = "4242 (my (odd) app) S 1 4242 4242 0 -1 4194560 1234 0 0 0 15 3 0 0 20 0 37 0 123456 1000000 500 18446744073709551615\n";
        Assert.Equal(500, ProcessCounters.ParseResidentPages(Encoding.ASCII.GetBytes(line)));
        Assert.Equal(-1, ProcessCounters.ParseResidentPages(Encoding.ASCII.GetBytes("4242 (app) S 1 4242")));
        Assert.Equal(-1, ProcessCounters.ParseResidentPages(Encoding.ASCII.GetBytes(line.Replace(" 500 ", " 5x0 ", StringComparison.Ordinal))));
        Assert.Equal(-1, ProcessCounters.ParseResidentPages(Encoding.ASCII.GetBytes("no name here")));
    }

    [SkippableFact]
    public void Read_SeesResidentMemoryGrow_By64MiBTouched()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "resident memory is read from /proc/self/stat, on Linux only");

        using var counters = new ProcessCounters();
        var before = counters.Read().ResidentBytes;

        // 64 MiB touched page by page is resident by construction; kept alive past the second read.
        var block = GC.AllocateUninitializedArray<byte>(64 << 20, pinned: true);
        for (var i = 0; i < block.Length; i += 4096)
        {
            block[i] = 1;
        }

        var after = counters.Read().ResidentBytes;
        GC.KeepAlive(block);
        Assert.True(before > 0, $"resident before: {before}");
        Assert.True(after - before >= 48L << 20, $"resident grew by {(after - before) >> 20} MiB for 64 MiB touched");
    }

    [SkippableFact]
    public void AProcessSpinningBeside_ShowsInTheMachinesLoad_AndMakesItNotQuiet_WhileTheLabsOwnChildrenDoNot()
    {
        Skip.IfNot(OperatingSystem.IsLinux() && File.Exists("/bin/sh"), "the machine's time is read from /proc/stat, on Linux only");

        static Process Spin() => Process.Start(new ProcessStartInfo("/bin/sh", ["-c", "while :; do :; done"]))!;
        static ConcurrencyLab.Results.ScenarioResult Of(ConcurrencyLab.Results.MachineLoad load) => new()
        {
            Name = "sleep", Parameters = new Dictionary<string, string>(), IdealMs = 0, IdealReason = "none", Baseline = "sleep", Variants = [],
            MachineLoad = load,
        };

        // 1.5 s beside a spinning shell, finished while the shell still spins: it is not a child the lab waited for,
        // so it is another's work.
        var meter = ConcurrencyLab.Running.MachineLoadMeter.Start();
        using var other = Spin();
        Thread.Sleep(1500);
        var beside = meter.Finish()!;
        other.Kill();
        other.WaitForExit();

        // The same, but the shell waited for before the end: the lab's own child, as a trial's process is.
        meter = ConcurrencyLab.Running.MachineLoadMeter.Start();
        using (var own = Spin())
        {
            Thread.Sleep(1500);
            own.Kill();
            own.WaitForExit();
        }

        var owned = meter.Finish()!;

        // A spinning shell is most of a core for 1.5 s: at least 3x what is left of the others when it is the lab's.
        Assert.True(beside.OthersMs >= 3 * Math.Max(owned.OthersMs, 100), $"others {beside.OthersMs:0} ms beside a spinner, {owned.OthersMs:0} ms with it the lab's");
        var (quiet, said) = ConcurrencyLab.Reproduction.Claims.Requirement.Quiet(Of(beside));
        Assert.Contains("core-seconds", said, StringComparison.Ordinal);
        if (Environment.ProcessorCount <= 6)
        {
            // One core spun of 6 or fewer is 16% of them or more: past the 10% a quiet machine allows.
            Assert.False(quiet, said);
        }
    }

    [Fact]
    public void ReadThreadCount_OnThisProcess_IsPositive()
    {
        using var counters = new ProcessCounters();
        Assert.True(counters.ReadThreadCount() > 1);
    }

    [Fact]
    public void Latency_Percentiles_AreExactNearestRanks()
    {
        var latencies = Enumerable.Range(1, 100).Select(i => (double)i).Reverse().ToList();
        var p = LatencyDistribution.Summarise(latencies);

        Assert.Equal(new LatencyPercentiles(50, 95, 99, 100), p);
        Assert.Equal(new LatencyPercentiles(47.349, 47.349, 47.349, 47.349), LatencyDistribution.Summarise([47.349]));

        // 40 items: p95 is the 38th smallest, p99 the 40th (the largest), never above it.
        var forty = LatencyDistribution.Summarise(Enumerable.Range(1, 40).Select(i => i + 0.5).ToList());
        Assert.Equal(new LatencyPercentiles(20.5, 38.5, 40.5, 40.5), forty);
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

        // Wait until the sampler has seen them all alive (it samples every 5 ms); the bound is only a safety net.
        var deadline = Environment.TickCount64 + 10_000;
        while (Environment.TickCount64 < deadline && meter.SampleCount < 3)
        {
            Thread.Sleep(5);
        }

        var seenAt = meter.SampleCount;
        while (Environment.TickCount64 < deadline && meter.SampleCount < seenAt + 2)
        {
            Thread.Sleep(5);
        }

        release.Set();
        threads.ForEach(t => t.Join());
        var m = meter.Finish();

        // The runtime's own threads may end meanwhile, even with this collection alone (an idle pool thread retires, the
        // tiered compilation worker ends after 4 s idle): a fresh-clone run saw 93 at the peak against 55 + 40. So a
        // few are allowed for; a meter that missed the 40 would see the 55 it started with.
        const int RuntimeThreadsEnding = 4;
        Assert.True(m.PeakThreads >= m.ThreadsAtStart + Extra - RuntimeThreadsEnding, $"peak {m.PeakThreads}, at start {m.ThreadsAtStart}");
        Assert.Contains(m.Samples, s => s.Threads >= m.ThreadsAtStart + Extra - RuntimeThreadsEnding);
        Assert.True(m.Samples.Count >= 3);
        Assert.True(m.Samples.Zip(m.Samples.Skip(1)).All(p => p.First.TimeMs <= p.Second.TimeMs));
        Assert.All(m.Samples, s => Assert.InRange(s.TimeMs, 0, m.WallMs + 50));
    }

    [Fact]
    public void Meter_WithSamplerOff_TakesNoSamples_ButStillMeasures()
    {
        using var meter = new TrialMeter(TimeSpan.Zero);
        meter.Start();
        var garbage = new byte[100_000];
        GC.KeepAlive(garbage);
        var m = meter.Finish();

        Assert.Empty(m.Samples);
        Assert.True(m.AllocatedBytes >= 100_000);
        Assert.True(m.PeakThreads >= m.ThreadsAtStart);
        Assert.True(m.ThreadsAtStart > 1);
        Assert.Same(m, meter.Finish());
    }

    [Fact]
    public void Meter_CountsTheJitWorkInItsRegion()
    {
        using var meter = new TrialMeter(TimeSpan.Zero);
        meter.Start();

        // A method never called before in this process is compiled on its first call, inside the region.
        var answer = NeverCalledBefore(20);
        var m = meter.Finish();

        Assert.Equal(210, answer);
        Assert.True(m.JitMethods >= 1, $"the meter counted {m.JitMethods} methods compiled");
        Assert.True(m.JitMs > 0, $"the meter counted {m.JitMs} ms of compiling");
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static int NeverCalledBefore(int n)
    {
        var sum = 0;
        for (var i = 1; i <= n; i++)
        {
            sum += i;
        }

        return sum;
    }

    [Fact]
    public void Meter_StoppedAtAKnownEnd_EndsItsWallTimeThere_AndIgnoresAnEndOutsideTheRegion()
    {
        using var meter = new TrialMeter(TimeSpan.Zero);
        meter.Start();
        Thread.Sleep(30);
        var end = System.Diagnostics.Stopwatch.GetTimestamp();
        Thread.Sleep(300);

        var m = meter.Stop(end);

        // The 300 ms after the known end are not charged: a gap of 10x is far beyond scheduling noise.
        Assert.InRange(m.WallMs, 30, 300);

        using var other = new TrialMeter(TimeSpan.Zero);
        other.Start();
        Thread.Sleep(30);
        Assert.True(other.Stop(endTimestamp: 1).WallMs >= 30);
    }
}

[CollectionDefinition(nameof(ThreadCountingTests), DisableParallelization = true)]
public sealed class ThreadCountingTests;
