using ConcurrencyLab.Experiments.Poll;

namespace ConcurrencyLab.Tests.Scenarios.Poll;

public sealed class SendScheduleTests
{
    [Fact]
    public void Generate_SameSeed_SameMessages_OtherSeed_Others()
    {
        var a = SendSchedule.Generate(500, 50, 0.01, 10_000, seed: 42);
        var b = SendSchedule.Generate(500, 50, 0.01, 10_000, seed: 42);
        var c = SendSchedule.Generate(500, 50, 0.01, 10_000, seed: 43);

        Assert.Equal(a.Connections, b.Connections);
        Assert.Equal(a.OffsetsMs, b.OffsetsMs);
        Assert.Equal(a.Digest(), b.Digest());
        Assert.NotEqual(a.Digest(), c.Digest());
    }

    [Fact]
    public void Generate_IsInTimeOrder_WithinTheDuration_AtAboutTheAskedRate()
    {
        var schedule = SendSchedule.Generate(500, 50, 0.01, 10_000, seed: 1);

        // 500 connections x 200 intervals x 1%: 1000 expected, standard deviation about 31.
        Assert.InRange(schedule.Count, 850, 1150);
        Assert.Equal(schedule.OffsetsMs.Order(), schedule.OffsetsMs);
        Assert.All(schedule.OffsetsMs, o => Assert.InRange(o, 0, 10_000));
        Assert.All(schedule.Connections, c => Assert.InRange(c, 0, 499));
        Assert.Equal(10_000, schedule.DurationMs);
        Assert.Equal(schedule.OffsetsMs[^1], schedule.LastOffsetMs);
        Assert.Equal(100, SendSchedule.ExpectedRatePerSecond(500, 50, 0.01), 6);
    }

    [Fact]
    public void Generate_EveryIntervalOfEveryConnection_WhenHitRateIsOne()
    {
        var schedule = SendSchedule.Generate(3, 10, 1.0, 100, seed: 5);

        Assert.Equal(30, schedule.Count);
        for (var connection = 0; connection < 3; connection++)
        {
            var slots = Enumerable.Range(0, schedule.Count).Where(i => schedule.Connections[i] == connection).Select(i => (int)(schedule.OffsetsMs[i] / 10)).ToList();
            Assert.Equal(Enumerable.Range(0, 10), slots);
        }
    }

    [Fact]
    public void Primer_SendsOneMessagePerConnection_WithinOneInterval()
    {
        var primer = SendSchedule.Primer(connections: 2, intervalMs: 50, count: 4);

        Assert.Equal(2, primer.Count);
        Assert.Equal([0, 1], primer.Connections);
        Assert.All(primer.OffsetsMs, o => Assert.InRange(o, 0, 50));
    }
}
