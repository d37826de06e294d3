using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using Spectre.Console;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Cli;

public sealed class LiveProgressTests
{
    [Fact]
    public async Task TheTrialLine_ShowsTheRunningProcesssThreadsNow_AndTheirPeak()
    {
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["delay"], Variants = ["threads"], Repeat = 1, Warmup = 0 }, ScenarioCatalog.BuiltIn, out var plan, out _));
        var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.Yes,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.Yes,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = 160;
        int[] counts = [30, 42, 37];
        var reads = 0;
        var readsAtFinish = 0;
        var askedFor = new HashSet<int>();

        await console.Progress().StartAsync(async context =>
        {
            using var live = new LiveProgress(context, plan, id =>
            {
                lock (askedFor)
                {
                    askedFor.Add(id);
                }

                return counts[Math.Min(Interlocked.Increment(ref reads) - 1, counts.Length - 1)];
            });
            var progress = new TrialProgress("delay", "threads", Warmup: false, Round: 0, Index: 0, Total: 1);
            live.TrialStarting(progress);
            live.TrialProcessStarted(progress, 4242);
            using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(20));
            while (Volatile.Read(ref reads) < 4)
            {
                await Task.Delay(50, deadline.Token);
            }

            // Let the display draw the last reading, then end the trial.
            await Task.Delay(300, deadline.Token);
            live.TrialFinished(new TrialProgress("delay", "threads", Warmup: false, Round: 0, Index: 0, Total: 1), TrialResult.Unmeasured(TrialStatus.Ok, string.Empty, isolated: true));
            readsAtFinish = Volatile.Read(ref reads);
            await Task.Delay(600, deadline.Token);
        });

        Assert.Equal([4242], askedFor);
        var text = output.ToString();
        Assert.Contains("delay threads trial 1: 37 threads (peak 42)", text, StringComparison.Ordinal);

        // Once the trial has finished nothing is read (it would catch the process exiting): the last frame keeps the peak.
        // (A reading already under way when the trial finished may still complete, and is thrown away.)
        Assert.InRange(Volatile.Read(ref reads), readsAtFinish, readsAtFinish + 1);
        var lastFrame = text[text.LastIndexOf("delay threads trial 1", StringComparison.Ordinal)..];
        Assert.StartsWith("delay threads trial 1: peak 42 threads", lastFrame, StringComparison.Ordinal);
    }

    [Fact]
    public void Describe_WithoutAReading_IsTheTrialAlone()
    {
        Assert.Equal("poll await trial 2", LiveProgress.Describe("poll await trial 2", threads: null, peak: null));
        Assert.Equal("poll await trial 2: 9 threads (peak 9)", LiveProgress.Describe("poll await trial 2", threads: 9, peak: null));
        Assert.Equal("poll await trial 2: peak 12 threads", LiveProgress.Describe("poll await trial 2", threads: null, peak: 12));
    }
}
