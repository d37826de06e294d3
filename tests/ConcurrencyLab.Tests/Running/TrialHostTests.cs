using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Tests.Scenarios;

namespace ConcurrencyLab.Tests.Running;

public sealed class TrialHostTests
{
    [Fact]
    public async Task ATrialThatFailsBeforeItsRegion_KeepsTheScenariosReason()
    {
        var request = new TrialRequest { Scenario = "early", Variant = OneVariantScenario.TheVariant, Parameters = new Dictionary<string, string>(), Seed = 1, SampleIntervalMs = 0 };

        var result = await TrialHost.RunAsync(request, new FailsWhilePriming(), isolated: false);

        Assert.Equal(TrialStatus.Failed, result.Status);
        Assert.Equal("while priming: HTTP 500", result.Error);
    }

    [Fact]
    public void AFailure_IsToldByItsOwnMessage_ThenItsInnermostWhenThatDiffers()
    {
        var timeout = new TaskCanceledException("The request was canceled due to the configured HttpClient.Timeout of 100 seconds elapsing.", new TimeoutException("The operation was canceled.", new IOException("Operation canceled")));

        Assert.Equal("TaskCanceledException: The request was canceled due to the configured HttpClient.Timeout of 100 seconds elapsing. (Operation canceled)", TrialFailure.Describe(timeout));
        Assert.Equal("InvalidOperationException: broken", TrialFailure.Describe(new InvalidOperationException("broken\nsecond line")));
    }

    [Theory]
    [InlineData("undescribed")]
    [InlineData("cpuMs")]
    public async Task AMetricTheScenarioDoesNotDescribe_OrThatIsAStandardOne_FailsTheTrial_SayingWhich(string id)
    {
        var request = new TrialRequest { Scenario = "stray", Variant = OneVariantScenario.TheVariant, Parameters = new Dictionary<string, string>(), Seed = 1, SampleIntervalMs = 0 };

        var result = await TrialHost.RunAsync(request, new RecordsAStrayMetric(id), isolated: false);

        Assert.Equal(TrialStatus.Failed, result.Status);
        Assert.EndsWith($"that are standard ones: {id}", result.Error, StringComparison.Ordinal);
        Assert.True(result.WallMs > 0, "the measurements were lost");
    }

    /// <summary>A scenario whose trial records a metric under an id it does not describe (or a standard one's).</summary>
    private sealed class RecordsAStrayMetric(string id) : OneVariantScenario
    {
        public override string Name => "stray";

        public override string Summary => "records a metric it does not describe";

        public override IReadOnlyList<ConcurrencyLab.Measurement.Metric> Metrics { get; init; } = [ConcurrencyLab.Measurement.Metric.Count("described", "Described")];

        public override Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
        {
            context.Meter.Start();
            Thread.Sleep(2);
            context.Meter.Stop();
            var metrics = new ConcurrencyLab.Measurement.MetricValues { [Metrics[0]] = 1, [ConcurrencyLab.Measurement.Metric.Count(id, "Stray")] = 2 };
            return Task.FromResult(new TrialOutcome { ItemsPlanned = 1, ItemsCompleted = 1, Metrics = metrics });
        }
    }

    /// <summary>A scenario that gives up before it starts its meter, as fanout does when a priming request fails.</summary>
    private sealed class FailsWhilePriming : OneVariantScenario
    {
        public override string Name => "early";

        public override string Summary => "fails before its measured region";

        public override Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default) =>
            Task.FromResult(new TrialOutcome { ItemsPlanned = 1, ItemsCompleted = 0, Error = "while priming: HTTP 500" });
    }
}
