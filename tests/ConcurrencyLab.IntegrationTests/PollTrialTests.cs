using ConcurrencyLab.Measurement;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Experiments.Poll;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// The poll experiment's trials on real loopback connections, in this process: every receiver delivers
/// every message exactly once, and a trial leaves no socket open behind it.
/// </summary>
[Collection(nameof(SocketUsers))]
public sealed class PollTrialTests
{
    private static readonly PollScenario Scenario = new();

    public static TheoryData<string> Variants => [.. Scenario.DefaultVariants(Values()).Select(v => v.Name)];

    [Theory]
    [MemberData(nameof(Variants))]
    public async Task Trial_DeliversEveryMessageExactlyOnce_AndClosesEverySocket(string variant)
    {
        // 16 connections, a message in a fifth of their 20 ms intervals for 1 s: about 160 messages.
        var values = Values(("connections", "16"), ("interval-ms", "20"), ("hit-rate", "0.2"), ("duration", "1"), ("work-ms", "2"), ("drain", "20"), ("workers", "4"));
        var socketsBefore = OpenSockets();

        using var meter = new TrialMeter(TimeSpan.FromMilliseconds(10));
        Assert.True(Scenario.Variants(values).TryParse(variant, out var parsed, out var problem), problem);
        var outcome = await Scenario.RunTrialAsync(new TrialContext(parsed, values, seed: 11, meter));

        Assert.Null(outcome.Error);
        var expected = outcome.ItemsPlanned;
        Assert.InRange(expected, 100, 250);
        Assert.Equal(expected, outcome.ItemsCompleted);
        Assert.Equal(0, outcome.ItemsDuplicated);
        Assert.Equal(expected, outcome.LatenciesMs.Count);
        Assert.All(outcome.LatenciesMs, l => Assert.True(l >= 0, $"latency {l} ms is negative"));
        var checks = outcome.Metrics!;
        Assert.All(checks.Keys, id => Assert.Contains(Scenario.Metrics, m => m.Id == id));
        Assert.Equal(expected, checks["sent"]);
        Assert.Equal(expected, checks["received"]);
        Assert.Equal(0, checks["lost"]);
        Assert.Equal(0, checks["duplicated"]);
        Assert.Equal(0, checks["misrouted"]);
        if (variant is "receive-async" or "channel-fanin")
        {
            Assert.Equal(0, checks["polls"]);
        }
        else
        {
            Assert.True(checks["polls"] > 16, $"{checks["polls"]} polls");
        }

        // The meter saw the region end after the last message was processed: the ideal is its send time plus the work.
        Assert.True(meter.Result!.WallMs >= Scenario.Ideal(values, seed: 11).Ms);
        if (OperatingSystem.IsLinux())
        {
            Assert.Equal(socketsBefore, OpenSockets());
        }
    }

    [Fact]
    public async Task Trial_ThatCannotKeepUp_FailsAndSaysHowManyWereLost()
    {
        // Every message takes 400 ms on one worker, and the receivers get 0 s after the last send: most are lost.
        var values = Values(("connections", "8"), ("interval-ms", "20"), ("hit-rate", "0.5"), ("duration", "0.4"), ("work-ms", "400"), ("drain", "0"), ("workers", "1"));
        using var meter = new TrialMeter(TimeSpan.Zero);

        var outcome = await Scenario.RunTrialAsync(new TrialContext(Scenario.Variants(values).Create("channel-fanin"), values, seed: 3, meter));
        var expected = outcome.ItemsPlanned;

        Assert.NotNull(outcome.Error);
        Assert.Contains($"of {expected} messages sent", outcome.Error, StringComparison.Ordinal);
        Assert.Contains("lost", outcome.Error, StringComparison.Ordinal);
        Assert.True(outcome.Metrics!["lost"] >= expected - 2, $"{outcome.Metrics["lost"]} of {expected} lost");
        Assert.Equal(0, outcome.Metrics["duplicated"]);
    }

    // Priming hands the receiver only the connections its few messages go on: given all of them, `threads` made a
    // thread per connection to prime (500 at the published scale), 2.4-2.7 s of each trial's start-up.
    [Fact]
    public async Task ASessionGivenFewerConnections_PollsOnlyThose_AndStillDeliversItsMessages()
    {
        using var fixture = await PollFixture.StartAsync(32, CancellationToken.None);
        var primer = SendSchedule.Primer(fixture.Connections.Count, 20, 4);
        var receiver = new Counting();
        var settings = new PollScenario.SessionSettings(20, 0, 4, TimeSpan.FromSeconds(10));

        var outcome = await PollScenario.RunSessionAsync(fixture, receiver, primer, settings, meter: null, CancellationToken.None, connections: 4);
        var whole = await PollScenario.RunSessionAsync(fixture, receiver, primer, settings, meter: null, CancellationToken.None);

        Assert.Null(outcome.Error);
        Assert.Equal(4, outcome.ItemsCompleted);
        Assert.Null(whole.Error);
        Assert.Equal([4, 32], receiver.Seen);
    }

    private sealed class Counting : ConcurrencyLab.Experiments.Poll.Receivers.Receiver
    {
        private readonly ConcurrencyLab.Experiments.Poll.Receivers.Receiver _inner = ConcurrencyLab.Experiments.Poll.Receivers.ReceiverCatalog.Find("threads")!;

        public List<int> Seen { get; } = [];

        public override string Id => "counting";

        public override string Description => "counts the connections it is given, then polls them with a thread each";

        public override Task StartAsync(PollSession session)
        {
            Seen.Add(session.Connections.Count);
            return _inner.StartAsync(session);
        }
    }

    private static ParameterValues Values(params (string Name, string Value)[] given)
    {
        var values = ParameterValues.Create(Scenario.Parameters, given.ToDictionary(g => g.Name, g => g.Value), quick: false, out var errors);
        Assert.Empty(errors);
        return values;
    }

    // Linux lists each open socket of the process as a /proc/self/fd link to "socket:[inode]".
    private static int OpenSockets() => OperatingSystem.IsLinux()
        ? new DirectoryInfo("/proc/self/fd").EnumerateFileSystemInfos().Count(f => f.LinkTarget?.StartsWith("socket:", StringComparison.Ordinal) == true)
        : -1;
}
