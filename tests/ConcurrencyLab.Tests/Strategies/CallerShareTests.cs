using System.Diagnostics;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Strategies;

/// <summary>
/// The caller's share of a batch (<see cref="WorkBatch.CallerMs"/>): the time the handing-over thread spends inside
/// the items it starts, before each returns at its first await. Each item here spins a known time before it awaits,
/// so the share has a floor it cannot be under when one thread starts them all, and is 0 when none does.
/// </summary>
public sealed class CallerShareTests
{
    private const int Items = 12;
    private const double SpinMs = 3;

    [Fact]
    public async Task WhenAll_StartsEveryItemOnTheCaller_SoTheCallerHoldsEveryItemsWorkBeforeItsFirstAwait()
    {
        var batch = new WorkBatch(new SpinThenAwait(Items), WorkForm.Tap);
        batch.MarkStart();
        var running = StrategyCatalog.Find("whenall")!.ExecuteAsync(batch, Degree.Default);
        batch.MarkHandedBack();
        await running;

        Assert.InRange(batch.CallerMs(), Items * SpinMs, double.MaxValue);

        // The first item starts at once, long before the caller's share ends.
        Assert.InRange(batch.FirstItemMs()!.Value, 0, batch.CallerMs() / 3);
    }

    [Fact]
    public async Task TaskRunPerItem_StartsNoItemOnTheCaller_SoItsShareIsNothing()
    {
        var batch = new WorkBatch(new SpinThenAwait(Items), WorkForm.Tap);
        batch.MarkStart();
        var running = StrategyCatalog.Find("task-run-whenall")!.ExecuteAsync(batch, Degree.Default);
        batch.MarkHandedBack();
        await running;

        Assert.Equal(0, batch.CallerMs());
    }

    [Fact]
    public async Task AfterTheHandBack_TheSameThreadsCallsAreNotTheCallersShare()
    {
        var batch = new WorkBatch(new SpinThenAwait(2), WorkForm.Tap);
        batch.MarkStart();
        batch.MarkHandedBack();
        await batch.InvokeAsync(0);
        await batch.InvokeAsync(1);

        Assert.Equal(0, batch.CallerMs());
    }

    [Fact]
    public void NoItemBegun_HasNoFirstItem()
    {
        var batch = new WorkBatch(new SpinThenAwait(2), WorkForm.Tap);
        batch.MarkStart();

        Assert.Null(batch.FirstItemMs());
        Assert.Equal(0, batch.CallerMs());
    }

    // Each item spins SpinMs on its caller's thread, then awaits a timer.
    private sealed class SpinThenAwait(int count) : Workload
    {
        public override int Count => count;

        public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
        {
            var started = Stopwatch.GetTimestamp();
            while (Stopwatch.GetElapsedTime(started).TotalMilliseconds < SpinMs)
            {
                Thread.SpinWait(20);
            }

            await Task.Delay(5, cancellationToken);
        }
    }
}
