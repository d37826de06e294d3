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

    /// <summary>A scenario that gives up before it starts its meter, as fanout does when a priming request fails.</summary>
    private sealed class FailsWhilePriming : OneVariantScenario
    {
        public override string Name => "early";

        public override string Summary => "fails before its measured region";

        public override Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default) =>
            Task.FromResult(new TrialOutcome { ItemsPlanned = 1, ItemsCompleted = 0, Error = "while priming: HTTP 500" });
    }
}
