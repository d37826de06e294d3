using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Experiments.Poll;

namespace ConcurrencyLab.Tests.Scenarios.Poll;

public sealed class PollScenarioTests
{
    private static readonly PollScenario Scenario = new();

    private static ParameterValues Values(params (string Name, string Value)[] given) => ScenarioParameters.Of(Scenario, given);

    [Fact]
    public void DefaultVariants_ThePublishedFive_ThenTheTwoDoneRight()
    {
        Assert.Equal(
            ["threads", "threadpool", "task", "await", "parallel", "receive-async", "channel-fanin"],
            Scenario.DefaultVariants(Values()).Select(v => v.Name));
        Assert.Equal("threads", Scenario.DefaultBaseline(Values()).Name);
    }

    [Fact]
    public void TryResolveVariant_KnowsTheReceivers_AndNamesThemWhenAsked()
    {
        Assert.True(Scenario.Variants(Values()).TryParse(" Receive-Async ", out var variant, out _));
        Assert.Equal("receive-async", variant.Name);

        Assert.False(Scenario.Variants(Values()).TryParse("whenall", out _, out var problem));
        Assert.Contains("threads, threadpool, task, await, parallel, receive-async, channel-fanin", problem, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_RefusesADurationShorterThanAnInterval_AndRunsTooLargeToPlan()
    {
        Assert.Empty(Scenario.Validate(Values()));
        Assert.Contains("--duration", Assert.Single(Scenario.Validate(Values(("duration", "0.02"), ("interval-ms", "50")))), StringComparison.Ordinal);
        Assert.Contains("20,000,000", Assert.Single(Scenario.Validate(Values(("connections", "4000"), ("duration", "3600"), ("interval-ms", "1")))), StringComparison.Ordinal);
    }

    [Fact]
    public void Ideal_IsTheLastSendPlusTheWork()
    {
        var values = Values(("work-ms", "100"));
        var schedule = PollScenario.Schedule(values, seed: 42);

        var ideal = Scenario.Ideal(values, seed: 42);

        Assert.Equal(schedule.LastOffsetMs + 100, ideal.Ms, 6);
        Assert.InRange(schedule.LastOffsetMs, 9_000, 10_000);
        Assert.Contains($"{schedule.Count} messages", ideal.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void QuickScale_SendsForOneSecond_AndSaysSo()
    {
        var quick = ParameterValues.Create(Scenario.Parameters, null, quick: true, out _);

        Assert.Equal(1, quick.Get(PollScenario.Duration));
        Assert.Contains(Scenario.Notes(quick, quick: true), n => n.StartsWith("quick scale", StringComparison.Ordinal));
    }
}
