using System.Reflection;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Measurement;

public sealed class MetricTests
{
    private static Measurements Reading(double wallMs, double userMs, double systemMs) => new()
    {
        WallMs = wallMs,
        UserCpuMs = userMs,
        SystemCpuMs = systemMs,
        ThreadsAtStart = 9,
        PeakThreads = 30,
        FinalThreads = 10,
        PeakPoolThreads = 22,
        PeakQueueLength = 5,
        CompletedWorkItems = 400,
        LockContentions = 2,
        AllocatedBytes = 8192,
        Gen0Collections = 1,
        Gen1Collections = 0,
        Gen2Collections = 0,
        PeakWorkingSetBytes = 1 << 20,
        StartUpMs = 150,
        ProcessorCountSeen = 2,
        PoolMinimumSeen = 2,
        ServerGcSeen = false,
        Machine = new MachineTime(BusyMs: userMs + systemMs + 40, IdleMs: 120, IoWaitMs: 30, StealMs: 20),
        Samples = [],
    };

    [Fact]
    public void EveryStandardMetric_IsListedOnce_WithAnIdOfItsOwn_AndIsMeasured()
    {
        var declared = typeof(StandardMetrics).GetProperties(BindingFlags.Public | BindingFlags.Static).Where(p => p.PropertyType == typeof(Metric)).Select(p => (Metric)p.GetValue(null)!).ToList();

        Assert.Equal(declared.Count, StandardMetrics.All.Count);
        Assert.All(declared, m => Assert.Contains(m, StandardMetrics.All));
        Assert.Equal(StandardMetrics.All.Count, StandardMetrics.All.Select(m => m.Id).Distinct().Count());
        Assert.All(StandardMetrics.All, m => Assert.NotEmpty(m.Description));

        // Each is read from the trial's own readings, or from the runtime's account of it, and never from both.
        var inFlight = new ItemsInFlight { Mean = 3.5, Peak = 5, Allowed = 4, AtAllowedShare = 0.6 };
        var values = StandardMetrics.Read(Reading(200, 250, 50), new LatencyPercentiles(10, 20, 30, 40), longestItemMs: 12, callerMs: 3, firstItemMs: 0.5, inFlight: inFlight);
        var account = new RuntimeAccount
        {
            Events = RuntimeEvents.Full,
            PoolAdjustments = [new PoolAdjustment(10, 3, PoolAdjustmentReason.Starvation, 0)],
            LockContentions = new BlockedTime(1, 5, 5),
            Waits = new BlockedTime(1, 7, 7),
            Join = new BlockedTime(1, 7, 7),
            WorkWaits = new BlockedTime(0, 0, 0),
            GcPauses = new BlockedTime(1, 2, 2),
            Threads = new ThreadTime { Work = new ThreadStates(30, 80, 0, 0), Pool = new ThreadStates(20, 80, 0, 0) },
        };
        var fromAccount = StandardMetrics.Read(account);
        Assert.Equal(0.8, fromAccount[StandardMetrics.PoolBlockedShare]);
        Assert.Empty(values.Keys.Intersect(fromAccount.Keys));
        Assert.Equal(StandardMetrics.All.Select(m => m.Id).Order(), values.Keys.Concat(fromAccount.Keys).Order());
        Assert.Equal(1, fromAccount[StandardMetrics.StarvationInjections]);
        Assert.Equal(12, fromAccount[StandardMetrics.Blocked]);
        Assert.Equal(7, fromAccount[StandardMetrics.Join]);

        // Items in flight, as the batch counted them.
        Assert.Equal(3.5, values[StandardMetrics.InFlightMean]);
        Assert.Equal(5, values[StandardMetrics.InFlightPeak]);
        Assert.Equal(4, values[StandardMetrics.AllowedAtOnce]);
        Assert.Equal(0.6, values[StandardMetrics.AtAllowedShare]);

        // The machine's busy time less the process's own CPU is everyone else's.
        Assert.Equal(40, values[StandardMetrics.OthersCpu]);
        Assert.Equal(120, values[StandardMetrics.MachineIdle]);
        Assert.Equal(20, values[StandardMetrics.MachineSteal]);
    }

    [Theory]
    [InlineData(200, 250, 50, 1.5)]
    [InlineData(1000, 90, 10, 0.1)]
    public void CoresUsed_IsCpuTimeOverWallTime(double wallMs, double userMs, double systemMs, double cores)
    {
        var values = StandardMetrics.Read(Reading(wallMs, userMs, systemMs), latency: null);

        Assert.Equal(cores, values.Get(StandardMetrics.CoresUsed)!.Value, 10);
        Assert.Equal(userMs + systemMs, values.Get(StandardMetrics.Cpu));
    }

    [Fact]
    public void AMetricTheReadingsLeaveUndefined_IsLeftOut_NotWrittenAsZero()
    {
        var values = StandardMetrics.Read(Reading(0, 5, 0), latency: null);

        Assert.Null(values.Get(StandardMetrics.CoresUsed));
        Assert.Null(values.Get(StandardMetrics.P99));
        Assert.Equal(30, values.Get(StandardMetrics.PeakThreads));
        Assert.Throws<ArgumentOutOfRangeException>(() => values[StandardMetrics.Cpu] = double.NaN);
    }

    [Fact]
    public void EachScenariosOwnMetrics_HaveIdsOfTheirOwn_NoneAStandardOne()
    {
        foreach (var scenario in ScenarioCatalog.BuiltIn)
        {
            var ids = scenario.Metrics.Select(m => m.Id).ToList();
            Assert.Equal(ids.Count, ids.Distinct().Count());
            Assert.DoesNotContain(ids, id => StandardMetrics.All.Any(m => m.Id == id));
            Assert.All(scenario.Metrics, m => Assert.NotEmpty(m.Description));
        }
    }

    [Theory]
    [InlineData(MetricFormat.Milliseconds, 1234.5, "1235")]
    [InlineData(MetricFormat.Milliseconds, 12.34, "12.3")]
    [InlineData(MetricFormat.Milliseconds, 1.234, "1.23")]
    [InlineData(MetricFormat.Count, 12.5, "12.5")]
    [InlineData(MetricFormat.Kibibytes, 40960, "40")]
    [InlineData(MetricFormat.Ratio, 1.5, "1.50")]
    [InlineData(MetricFormat.Number, 99.5, "99.5")]
    public void AValue_IsWrittenAsItsFormatSays(MetricFormat format, double value, string text)
    {
        Assert.Equal(text, new Metric("m", "M") { Format = format }.Write(value));
    }

    [Fact]
    public void TrialFrom_PutsTheMetersMetrics_AndTheScenariosOwn_InOneMap()
    {
        var lost = Metric.Count("lost", "Lost");
        var outcome = new ConcurrencyLab.Scenarios.TrialOutcome { ItemsPlanned = 2, ItemsCompleted = 2, LatenciesMs = [3, 4], Metrics = new MetricValues { [lost] = 0 } };

        var trial = ConcurrencyLab.Running.TrialRecord.Of(Reading(200, 250, 50), outcome, isolated: true);

        Assert.Equal(TrialStatus.Ok, trial.Status);
        Assert.Equal(200, trial.WallMs);
        Assert.Equal(0, trial.Value(lost));
        Assert.Equal(4, trial.Value(StandardMetrics.MaxLatency));
        Assert.Equal(1.5, trial.Value(StandardMetrics.CoresUsed));
    }
}
