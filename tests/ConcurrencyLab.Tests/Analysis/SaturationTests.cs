using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Analysis;

/// <summary>The saturation point's rules: how a step fares, and where a variant stops keeping up, each where it fires and where it does not.</summary>
public sealed class SaturationTests
{
    // A step at a rate: completed share, corrected p99 and p50, late sends. Late sends put their lag in the corrected
    // latency only, so the service time's p99 is a tenth of a late step's corrected one unless given.
    internal static LoadStep Step(double rate, double completed = 1, double p99 = 10, double p50 = 5, double late = 0, int repeat = 0, bool stopped = false, RuntimeAccount? runtime = null, double? serviceP99 = null, int? exitCode = null)
    {
        var service = serviceP99 ?? (late > 0 ? p99 / 10 : p99);
        var planned = (int)Math.Max(rate * 2, 100);
        return new LoadStep
        {
            Repeat = repeat,
            OfferedPerSecond = rate,
            WallMs = 2000,
            Planned = planned,
            Sent = planned,
            Completed = (int)Math.Round(planned * completed),
            Late = (int)Math.Round(planned * late),
            CompletedPerSecond = rate * completed,
            SentPerSecond = rate,
            Latency = completed > 0 ? new LatencyQuantiles(p50, p99 * 0.8, p99, p99 * 1.1, p99 * 1.2) : null,
            Service = completed > 0 ? new LatencyQuantiles(Math.Min(p50, service), service * 0.8, service, service * 1.1, service * 1.2) : null,
            Lag = new LatencyQuantiles(0.1, 0.2, 0.3, 0.4, 0.5),
            GeneratorCpuMs = 200,
            ServiceCpuMs = 1000,
            Stopped = stopped || exitCode is not null,
            ServiceExitCode = exitCode,
            Runtime = runtime,
        };
    }

    [Fact]
    public void Judge_EachOutcome_FiresOnItsOwnCondition()
    {
        Assert.Equal(StepOutcome.KeptUp, Saturation.Judge(Step(100), sloMs: 50));
        Assert.Equal(StepOutcome.KeptUp, Saturation.Judge(Step(100, completed: 0.995), sloMs: 50));
        Assert.Equal(StepOutcome.Completions, Saturation.Judge(Step(100, completed: 0.98), sloMs: 50));
        Assert.Equal(StepOutcome.Latency, Saturation.Judge(Step(100, p99: 60), sloMs: 50));
        Assert.Equal(StepOutcome.KeptUp, Saturation.Judge(Step(100, p99: 60), sloMs: null));
        Assert.Equal(StepOutcome.Generator, Saturation.Judge(Step(100, late: 0.05, p99: 60), sloMs: 50));
        Assert.Equal(StepOutcome.KeptUp, Saturation.Judge(Step(100, late: 0.05), sloMs: 50));
        Assert.Equal(StepOutcome.Stopped, Saturation.Judge(Step(100, stopped: true), sloMs: 50));
    }

    [Fact]
    public void Judge_OverTheSloFromTheActualSends_IsTheServicesDoing_EvenWhenSendsWereLate()
    {
        // One send of eight late: the corrected p99 is over the SLO, but so is the service time, which holds no lag.
        Assert.Equal(StepOutcome.Latency, Saturation.Judge(Step(4, late: 0.125, p99: 409, serviceP99: 405), sloMs: 400));
        Assert.Equal(StepOutcome.Generator, Saturation.Judge(Step(4, late: 0.125, p99: 409, serviceP99: 210), sloMs: 400));
    }

    [Fact]
    public void AServiceThatExitsDuringAStep_DidNotKeepUpThere()
    {
        // Kept up to 1,024, then the service died at 2,048 (as fanout's product service did, out of file descriptors):
        // its saturation point is 1,024, not "higher than every rate run".
        var result = Saturation.Of([Step(512), Step(1024), Step(2048, completed: 0.2, exitCode: 134)], sloMs: 4000, processorCount: 2);

        Assert.Equal(StepOutcome.Died, Saturation.Judge(Step(2048, exitCode: 134), sloMs: 4000));
        Assert.Equal(1024, result.RatePerSecond);
        Assert.Equal(LoadLimit.Died, result.Limit);
        Assert.Equal(2048, result.FailedAtPerSecond);

        // A stopped step with no exit code (a file from before codes were kept) is still not judged.
        var old = Saturation.Of([Step(512), Step(1024), Step(2048, stopped: true)], sloMs: 4000, processorCount: 2);
        Assert.Equal(LoadLimit.NotReached, old.Limit);
    }

    [Fact]
    public void Judge_RequestsThatDidNotComplete_AreTheServicesDoing_EvenWhenSendsWereLate()
    {
        Assert.Equal(StepOutcome.Completions, Saturation.Judge(Step(100, completed: 0.2, late: 0.05), sloMs: 50));
    }

    [Fact]
    public void DefaultSlo_IsTenTimesTheLowestRatesP50()
    {
        Assert.Equal(120, Saturation.DefaultSloMs([Step(200, p50: 30), Step(50, p50: 12), Step(100, p50: 20)]));
        Assert.Null(Saturation.DefaultSloMs([Step(50, completed: 0)]));
        Assert.Null(Saturation.DefaultSloMs([]));
    }

    [Fact]
    public void TheSaturationPoint_IsTheHighestRateKeptUpBelowTheFirstFailure()
    {
        var result = Saturation.Of([Step(10), Step(20), Step(40, completed: 0.5), Step(30)], sloMs: 50, processorCount: 2);

        Assert.Equal(30, result.RatePerSecond);
        Assert.Equal(LoadLimit.Completions, result.Limit);
        Assert.Equal(40, result.FailedAtPerSecond);
        Assert.Null(result.LowPerSecond);
    }

    [Fact]
    public void ALuckyStepAboveAFailure_DoesNotCount()
    {
        var result = Saturation.Of([Step(10), Step(20, p99: 90), Step(40)], sloMs: 50, processorCount: 2);

        Assert.Equal(10, result.RatePerSecond);
        Assert.Equal(LoadLimit.Latency, result.Limit);
    }

    [Fact]
    public void EveryStepKeptUp_IsNotReached_AtTheHighestRate()
    {
        var result = Saturation.Of([Step(10), Step(20)], sloMs: 50, processorCount: 2);

        Assert.Equal(20, result.RatePerSecond);
        Assert.Equal(LoadLimit.NotReached, result.Limit);
        Assert.Null(result.FailedAtPerSecond);
    }

    [Fact]
    public void TheLowestStepFailing_FindsNoRate()
    {
        var result = Saturation.Of([Step(10, completed: 0.1), Step(20, completed: 0)], sloMs: 50, processorCount: 2);

        Assert.Null(result.RatePerSecond);
        Assert.Equal(LoadLimit.BelowLowest, result.Limit);
    }

    [Fact]
    public void ALateGenerator_EndsTheClimb_AsAFloor()
    {
        var result = Saturation.Of([Step(10), Step(20), Step(40, late: 0.2, p99: 80)], sloMs: 50, processorCount: 2);

        Assert.Equal(20, result.RatePerSecond);
        Assert.Equal(LoadLimit.Generator, result.Limit);
    }

    [Fact]
    public void OverRepeats_TheMedianAndTheRange()
    {
        LoadStep[] steps =
        [
            Step(100, repeat: 0), Step(200, repeat: 0, completed: 0.5),
            Step(120, repeat: 1), Step(240, repeat: 1, completed: 0.5),
            Step(140, repeat: 2), Step(280, repeat: 2, completed: 0.5),
        ];

        var result = Saturation.Of(steps, sloMs: 50, processorCount: 2);

        Assert.Equal(120, result.RatePerSecond);
        Assert.Equal(100, result.LowPerSecond);
        Assert.Equal(140, result.HighPerSecond);
        Assert.Equal([100.0, 120.0, 140.0], result.PerRepeat);
        Assert.Equal(240, result.FailedAtPerSecond);
    }

    [Fact]
    public void TheCause_CountsThePoolsRaisesAndSharesTheCpu()
    {
        var runtime = new RuntimeAccount
        {
            Events = RuntimeEvents.Full,
            PoolTargetAtStart = 2,
            PoolAdjustments =
            [
                new PoolAdjustment(10, 3, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(20, 4, PoolAdjustmentReason.Starvation, 0),
                new PoolAdjustment(30, 3, PoolAdjustmentReason.CooperativeBlocking, 0),
                new PoolAdjustment(40, 5, PoolAdjustmentReason.CooperativeBlocking, 0),
            ],
            LockContentions = new BlockedTime(3, 300, 200),
        };

        var cause = Saturation.CauseOf(Step(100, runtime: runtime), processorCount: 2);

        Assert.Equal(1, cause.StarvationRaises);
        Assert.Equal(2, cause.BlockingRaises);
        Assert.Equal(5, cause.PoolThreadsAtEnd);
        Assert.Equal(300, cause.LockWaitMs);
        Assert.Equal(0.25, cause.ServiceCpuShare);
        Assert.Equal(0.05, cause.GeneratorCpuShare);
    }
}
