using ConcurrencyLab.Experiments.Poll;

namespace ConcurrencyLab.Tests.Scenarios.Poll;

public sealed class DeliveryLedgerTests
{
    [Fact]
    public void BeginProcessing_CountsFirstDeliveries_Duplicates_AndMisroutedFrames()
    {
        using var ledger = new DeliveryLedger(3);

        Assert.True(ledger.BeginProcessing(new Frame(0, 5, 1), connection: 5));
        Assert.False(ledger.BeginProcessing(new Frame(0, 5, 1), connection: 5));
        Assert.False(ledger.BeginProcessing(new Frame(1, 5, 1), connection: 6));
        Assert.False(ledger.BeginProcessing(new Frame(3, 5, 1), connection: 5));
        Assert.False(ledger.BeginProcessing(new Frame(-1, 5, 1), connection: 5));

        Assert.Equal(1, ledger.Unique);
        Assert.Equal(1, ledger.Duplicated);
        Assert.Equal(3, ledger.Misrouted);
        Assert.Equal(2, ledger.Lost);
        Assert.NotEqual(0, ledger.StartTimestamps[0]);
        Assert.Equal(0, ledger.StartTimestamps[1]);
    }

    [Fact]
    public void AllProcessed_IsSet_OnlyWhenTheLastProcessingEnds()
    {
        using var ledger = new DeliveryLedger(2);
        Assert.True(ledger.BeginProcessing(new Frame(0, 0, 1), 0));
        Assert.True(ledger.BeginProcessing(new Frame(1, 1, 1), 1));
        ledger.EndProcessing();
        Assert.False(ledger.WaitAllProcessed(TimeSpan.Zero));
        Assert.Equal(0, ledger.AllProcessedTimestamp);

        ledger.EndProcessing();
        Assert.True(ledger.WaitAllProcessed(TimeSpan.Zero));
        Assert.NotEqual(0, ledger.AllProcessedTimestamp);
    }

    [Fact]
    public void EmptySchedule_IsProcessedAtOnce()
    {
        using var ledger = new DeliveryLedger(0);
        Assert.True(ledger.WaitAllProcessed(TimeSpan.Zero));
    }

    [Fact]
    public void Counts_StayExact_WhenManyThreadsReportAtOnce()
    {
        // Every thread delivers every message and counts polls, all released together by a barrier: each
        // message must be first exactly once and every other delivery a duplicate, with no update lost.
        const int Threads = 8;
        const int Messages = 20_000;
        const int PollsEach = 50_000;
        using var ledger = new DeliveryLedger(Messages);
        using var barrier = new Barrier(Threads);
        var firsts = new int[Threads];
        var workers = Enumerable.Range(0, Threads).Select(t => new Thread(() =>
        {
            barrier.SignalAndWait();
            for (var i = 0; i < Messages; i++)
            {
                // Each thread walks the messages from its own starting point, so threads race on every message.
                var id = (i + (t * Messages / Threads)) % Messages;
                if (ledger.BeginProcessing(new Frame(id, id % 7, 1), id % 7))
                {
                    firsts[t]++;
                    ledger.EndProcessing();
                }
            }

            for (var i = 0; i < PollsEach; i++)
            {
                ledger.CountPoll();
                if (i % 2 == 0)
                {
                    ledger.CountSkippedPoll();
                }
            }
        })).ToList();

        workers.ForEach(w => w.Start());
        workers.ForEach(w => w.Join());

        Assert.Equal(Messages, firsts.Sum());
        Assert.Equal(Messages, ledger.Unique);
        Assert.Equal(Messages * (Threads - 1), ledger.Duplicated);
        Assert.Equal(0, ledger.Lost);
        Assert.Equal((long)Threads * PollsEach, ledger.Polls);
        Assert.Equal((long)Threads * PollsEach / 2, ledger.SkippedPolls);
        Assert.True(ledger.WaitAllProcessed(TimeSpan.Zero));
    }
}
