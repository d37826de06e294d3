using ConcurrencyLab.Experiments.Poll;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Scenarios.Poll;

/// <summary>The memory swing and the CPU's unevenness, on sampler readings made so that the answer is known.</summary>
public class SteadinessTests
{
    // Readings every 100 ms over 10 s: resident memory and the cumulative CPU from the functions given.
    private static List<Sample> Readings(Func<double, long> resident, Func<double, double> cpu) =>
        [.. Enumerable.Range(0, 101).Select(i => i * 100.0).Select(t => new Sample(t, 20, 4, 0, cpu(t), resident(t)))];

    [Fact]
    public void ResidentSwing_IsTheRangeOverTheMedian_AfterTheFirstSecond()
    {
        // 100 MiB flat, with a 300 MiB burst in the first second only (left out), then one reading of 110 MiB.
        var samples = Readings(t => t < 1000 ? 300L << 20 : t == 5000 ? 110L << 20 : 100L << 20, t => t);

        Assert.Equal(0.10, Steadiness.ResidentSwing(samples, 10_000)!.Value, 6);

        // A sawtooth between 100 and 150 MiB: half the median (125 or 100-ish) or more.
        var saw = Readings(t => (100L << 20) + (long)((t % 2000) / 2000 * (50L << 20)), t => t);
        Assert.True(Steadiness.ResidentSwing(saw, 10_000) > 0.3);
    }

    [Fact]
    public void ResidentSwing_WithoutReadings_IsNoFigure()
    {
        // A file from before resident memory was kept: every reading 0.
        Assert.Null(Steadiness.ResidentSwing(Readings(_ => 0, t => t), 10_000));

        // Only readings before the first second ended, or hostile ones.
        Assert.Null(Steadiness.ResidentSwing(Readings(_ => 1L << 20, t => t).Take(10).ToList(), 10_000));
        Assert.Null(Steadiness.ResidentSwing([new Sample(double.NaN, 1, 1, 0, 0, 5), new Sample(double.PositiveInfinity, 1, 1, 0, 0, 5)], 10_000));
    }

    [Fact]
    public void CpuUnevenness_IsZeroForAnEvenRate_AndLargeForBursts()
    {
        // 250 ms of CPU every second, evenly: no variation at all.
        Assert.Equal(0, Steadiness.CpuUnevenness(Readings(_ => 1, t => t / 4), 10_000)!.Value, 6);

        // 500 ms in every other second, none in the others: seconds of 500, 0, 500, 0... a coefficient near 1.
        double Bursts(double t) => (Math.Floor(t / 2000) * 500) + Math.Min(500, Math.Max(0, (t % 2000) - 1000) / 2);
        var uneven = Steadiness.CpuUnevenness(Readings(_ => 1, Bursts), 10_000)!.Value;
        Assert.InRange(uneven, 0.9, 1.2);

        // Under 3 whole seconds after the first: no figure.
        Assert.Null(Steadiness.CpuUnevenness(Readings(_ => 1, t => t / 4), 3_500));
        Assert.Null(Steadiness.CpuUnevenness(Readings(_ => 1, _ => 0), 10_000));
    }
}
