using ConcurrencyLab.Measurement;
using ConcurrencyLab.Running;

namespace ConcurrencyLab.Tests.Running;

public sealed class TrialWatchTests
{
    [Fact]
    public void BeforeTheRegion_OnlyTheStartUpAllowanceCounts()
    {
        // A region limit of 1 ms is long past, but no region has begun: the start-up has an hour.
        var patient = new TrialWatch(TimeSpan.FromMilliseconds(1), TimeSpan.FromHours(1));
        Thread.Sleep(20);
        Assert.Null(patient.Overrun());

        var impatient = new TrialWatch(TimeSpan.FromHours(1), TimeSpan.FromMilliseconds(1));
        Thread.Sleep(20);
        Assert.Equal("it had not begun its measured region after the start-up allowance of 0.001 s", impatient.Overrun());
    }

    [Fact]
    public void TheWaitForTheTrialBefore_IsNoPartOfTheStartUpAllowance()
    {
        // An allowance of 50 ms, and a wait in the meter's start ten times that for the runner: never overrun while
        // waiting, nor once the region has begun (the allowance and a 200 ms region limit together are far less).
        TrialWatch? watch = null;
        string? whileWaiting = "never asked";
        using var meter = new TrialMeter(TimeSpan.Zero)
        {
            BeforeStart = () =>
            {
                Thread.Sleep(500);
                whileWaiting = watch!.Overrun();
            },
        };
        watch = new TrialWatch(TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(50));
        watch.Watch(meter);

        meter.Start();

        Assert.Null(whileWaiting);
        Assert.True(meter.Waited >= TimeSpan.FromMilliseconds(500));
        Assert.Null(watch.Overrun());

        // The allowance still counts the trial's own start-up, where there is no wait.
        var slow = new TrialWatch(TimeSpan.FromHours(1), TimeSpan.FromMilliseconds(50));
        Thread.Sleep(500);
        Assert.Equal("it had not begun its measured region after the start-up allowance of 0.05 s", slow.Overrun());
    }

    [Fact]
    public void TheWaitForTheTrialBefore_MayComeBeforeTheRegion_AndComesOnce()
    {
        // A trial that starts measuring its services just before its region waits first, and its meter's start then does not.
        var waits = 0;
        using var meter = new TrialMeter(TimeSpan.Zero)
        {
            BeforeStart = () =>
            {
                waits++;
                Thread.Sleep(50);
            },
        };

        meter.AwaitTrialBefore();

        Assert.Equal(1, waits);
        Assert.False(meter.Started);
        Assert.False(meter.Waiting);
        var waited = meter.Waited;
        Assert.True(waited >= TimeSpan.FromMilliseconds(50), $"waited {waited}");

        meter.AwaitTrialBefore();
        meter.Start();

        Assert.Equal(1, waits);
        Assert.Equal(waited, meter.Waited);
    }

    [Fact]
    public void OnceTheRegionBegins_ItIsTimedAgainstTheLimit()
    {
        using var meter = new TrialMeter(TimeSpan.Zero);
        var watch = new TrialWatch(TimeSpan.FromMilliseconds(5), TimeSpan.FromHours(1));
        watch.Watch(meter);
        Assert.Null(meter.RegionElapsed);
        Assert.Null(watch.Overrun());

        meter.Start();
        Thread.Sleep(50);

        Assert.NotNull(meter.RegionElapsed);
        Assert.Equal("its measured region outlived the trial timeout of 0.005 s", watch.Overrun());
    }

    [Fact]
    public void AStoppedRegion_StopsCounting()
    {
        using var meter = new TrialMeter(TimeSpan.Zero);
        var watch = new TrialWatch(TimeSpan.FromSeconds(30), TimeSpan.FromHours(1));
        watch.Watch(meter);
        meter.Start();
        meter.Stop();
        var stopped = meter.RegionElapsed;

        Thread.Sleep(20);

        Assert.Equal(stopped, meter.RegionElapsed);
        Assert.Null(watch.Overrun());
    }

    [Theory]
    [InlineData(1, 10)]
    [InlineData(200, 50)]
    [InlineData(120_000, 100)]
    public void ItIsAskedOftenEnoughForTheLimit_ButNoMoreThanAHundredTimesASecond(int limitMs, int expectedPollMs)
    {
        var watch = new TrialWatch(TimeSpan.FromMilliseconds(limitMs), TimeSpan.FromSeconds(60));
        Assert.Equal(TimeSpan.FromMilliseconds(expectedPollMs), watch.PollInterval);
    }
}
