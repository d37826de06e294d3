using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Experiments.Fanout;

namespace ConcurrencyLab.Tests.Scenarios.Fanout;

public sealed class FanoutScenarioTests
{
    private static readonly FanoutScenario Scenario = new();

    private static ParameterValues Values(params (string Name, string Value)[] given) => ScenarioParameters.Of(Scenario, given);

    [Fact]
    public void DefaultVariants_EveryEndpoint_AtEveryN()
    {
        var names = Scenario.DefaultVariants(Values()).Select(v => v.Name).ToList();

        Assert.Equal(12, names.Count);
        Assert.Contains("waitall@100", names);
        Assert.Contains("whenall-async@1000", names);
        Assert.Contains("sync-over-async@1000", names);
        Assert.Contains("async-http2@100", names);
        Assert.Equal("waitall@1000", Scenario.DefaultBaseline(Values()).Name);
    }

    [Theory]
    [InlineData("waitall@100:min-threads=400", "waitall@100:min-threads=400", "400")]
    [InlineData("waitall@100:min-threads=default", "waitall@100", "default")]
    [InlineData("waitall@100", "waitall@100", "default")]
    [InlineData("waitall@100:min-threads=0", "waitall@100:min-threads=0", "0")]
    public void APoolMinimum_IsAVariantParameter_LeftOutOfTheNameByDefault(string text, string name, string minimum)
    {
        Assert.True(Scenario.Variants(Values()).TryParse(text, out var variant, out var problem), problem);

        Assert.Equal(name, variant.Name);
        Assert.Equal(minimum, variant.Parameters["min-threads"]);
        Assert.Equal(minimum != "default", variant.Description.Contains("ThreadPool minimum", StringComparison.Ordinal));
        Assert.All(Scenario.DefaultVariants(Values()), v => Assert.DoesNotContain(':', v.Name));
    }

    [Theory]
    [InlineData("WhenAll-Async@50", true, "whenall-async@50")]
    [InlineData("whenall-async", false, "must say how many requests")]
    [InlineData("whenall-async@0", false, "from 1 to 5000")]
    [InlineData("parallel@10", false, "not a fanout variant")]
    public void TryResolveVariant_NeedsAKnownEndpointAndN(string name, bool ok, string expected)
    {
        var resolved = Scenario.Variants(Values()).TryParse(name, out var variant, out var problem);

        Assert.Equal(ok, resolved);
        Assert.Contains(expected, ok ? variant.Name : problem, StringComparison.Ordinal);
    }

    [Fact]
    public void Ideal_IsTheSlowestCall_TimeScaled_AndTheNoteSaysSo()
    {
        var values = Values(("time-scale", "0.1"));

        Assert.Equal(200, Scenario.Ideal(values, 42).Ms);
        Assert.Equal(new ExternalServiceSettings(150, 200, 100), FanoutScenario.Delays(values));
        Assert.Contains(Scenario.Notes(values, quick: false), n => n.StartsWith("time scale 0.1", StringComparison.Ordinal));
        Assert.Empty(Scenario.Notes(Values(), quick: false));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void WarmUpPauses_OutlastTheRuntimesWaitBeforeItCountsCalls_AndQuickIsTheShorter(bool quick)
    {
        // Each pause lets the runtime's 100 ms wait pass, so the next round's calls are counted towards recompiling.
        var values = ParameterValues.Create(Scenario.Parameters, null, quick, out var problems);
        var pause = int.Parse(values.Values["warm-pause-ms"], System.Globalization.CultureInfo.InvariantCulture);
        var full = int.Parse(ParameterValues.Create(Scenario.Parameters, null, quick: false, out _).Values["warm-pause-ms"], System.Globalization.CultureInfo.InvariantCulture);

        Assert.Empty(problems);
        Assert.InRange(pause, 101, full);
        Assert.Equal(quick, pause < full);
    }

    [Fact]
    public void Validate_WantsExactlyThreeDelays()
    {
        Assert.Empty(Scenario.Validate(Values()));
        ParameterValues.Create(Scenario.Parameters, new Dictionary<string, string> { ["delays"] = "100,200" }, quick: false, out var problems);
        Assert.Contains("three delays", Assert.Single(problems), StringComparison.Ordinal);

        // A list of values, not a sweep: the same delay three times stays three calls.
        Assert.Equal(new ConcurrencyLab.Experiments.Fanout.ExternalServiceSettings(1000, 1000, 1000), FanoutScenario.Delays(Values(("delays", "1000,1000,1000"))));
    }

    [Fact]
    public void ExternalService_PrimingCallsWaitOnTheTimer_ForNoTime()
    {
        // A measured call waits its delay; a priming call (a negative id) still goes through the timer, so that the
        // measured round finds its paths compiled, but for no time; an endpoint without a delay never waits.
        Assert.Equal(200, ExternalService.TimerWaitMs(7, 200));
        Assert.Equal(0, ExternalService.TimerWaitMs(-7, 200));
        Assert.Null(ExternalService.TimerWaitMs(7, 0));
        Assert.Null(ExternalService.TimerWaitMs(-7, 0));
    }
}
