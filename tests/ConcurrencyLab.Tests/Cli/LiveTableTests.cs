using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.Tests.Cli;

public sealed class LiveTableTests
{
    private static TrialResult Trial(double wallMs, int threads, int pool, params PoolAdjustmentReason[] adjustments) => new()
    {
        Metrics = Measured.Metrics(wallMs, (StandardMetrics.PeakThreads, threads), (StandardMetrics.PeakPoolThreads, pool)),
        ItemsPlanned = 1,
        ItemsCompleted = 1,
        Runtime = new RuntimeAccount { PoolAdjustments = [.. adjustments.Select((r, i) => new PoolAdjustment(i, 10 + i, r, 0))] },
    };

    private static string Draw(IRenderable renderable, int width)
    {
        var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(output) });
        console.Profile.Width = width;
        console.Write(renderable);
        return output.ToString();
    }

    [Fact]
    public void Rows_GrowAsTrialsFinish_WithTheMedianTheIntervalFromTwo_AndThePoolsMarks()
    {
        var table = new LiveTable();
        table.Begin("delay", ["whenall", "waitall@15", "channel"], planned: 5);
        table.Add("delay", "whenall", Trial(50, 15, 2));
        table.Add("delay", "waitall@15", Trial(8000, 40, 30, PoolAdjustmentReason.Starvation));
        table.Add("delay", "waitall@15", Trial(8200, 44, 32, PoolAdjustmentReason.CooperativeBlocking));
        table.Add("delay", "waitall@15", TrialResult.Unmeasured(TrialStatus.Timeout, "killed", isolated: true));
        table.Add("scan", "whenall", Trial(1, 1, 1));
        table.Stopped("delay", "waitall@15", new EarlyStop { Reason = EarlyStopReason.OutOfContention, Trials = 3, Planned = 5, MedianMs = 8100, CiLowMs = 8000, CiHighMs = 8200 });

        var text = Draw(table.Render(100, 40)!, 100);
        var lines = text.Split('\n');

        Assert.Matches(@"whenall\s+1/5\s+50(\.0)? ms\s+15\s+2", lines.Single(l => l.Contains("whenall", StringComparison.Ordinal)));
        var waitall = lines.Single(l => l.Contains("waitall@15", StringComparison.Ordinal));
        Assert.Contains("3/3 (1 failed)", waitall, StringComparison.Ordinal);
        Assert.Contains("8100 ms", waitall, StringComparison.Ordinal);
        Assert.Contains("8000-8200", waitall, StringComparison.Ordinal);
        Assert.Contains("starved, blocked", waitall, StringComparison.Ordinal);
        Assert.Matches(@"channel\s+0/5\s*$", lines.Single(l => l.Contains("channel", StringComparison.Ordinal)).TrimEnd());
    }

    [Fact]
    public void ATerminalTooNarrow_GetsNoTable_AndATallListIsCutWithACount_NeverBrokenLines()
    {
        var table = new LiveTable();
        Assert.Null(table.Render(100, 40));
        table.Begin("mix", [.. Enumerable.Range(0, 40).Select(i => $"parallel-foreach@{i}-tap")], planned: 3);

        Assert.Null(table.Render(LiveTable.MinimumWidth - 1, 40));

        var text = Draw(table.Render(80, 20)!, 80);
        Assert.Contains("27 more variants", text, StringComparison.Ordinal);
        Assert.All(text.Split('\n'), l => Assert.True(l.TrimEnd().Length <= 80, l));
        Assert.Equal(13, text.Split('\n').Count(l => l.Contains("parallel-foreach@", StringComparison.Ordinal)));
    }

    [Fact]
    public void TheFastestSoFar_IsInBold_AndAVariantWithAFailureNeverIs()
    {
        var table = new LiveTable();
        table.Begin("delay", ["slow", "fast", "broken"], planned: 3);
        table.Add("delay", "slow", Trial(100, 1, 1));
        table.Add("delay", "fast", Trial(60, 1, 1));
        table.Add("delay", "broken", Trial(10, 1, 1));
        table.Add("delay", "broken", TrialResult.Unmeasured(TrialStatus.Failed, "boom", isolated: true));

        var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.Yes, ColorSystem = ColorSystemSupport.Standard, Out = new AnsiConsoleOutput(output) });
        console.Profile.Width = 100;
        console.Write(table.Render(100, 40)!);
        var lines = output.ToString().Split('\n');

        Assert.Contains("\u001b[1", lines.Single(l => l.Contains("fast", StringComparison.Ordinal)), StringComparison.Ordinal);
        Assert.DoesNotContain("\u001b[1", lines.Single(l => l.Contains("broken", StringComparison.Ordinal)), StringComparison.Ordinal);
        Assert.DoesNotContain("\u001b[1", lines.Single(l => l.Contains("slow", StringComparison.Ordinal)), StringComparison.Ordinal);
    }
}

public sealed class LiveSessionTests
{
    private static (IAnsiConsole Console, StringWriter Output) Terminal()
    {
        var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.Yes,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.Yes,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = 120;
        console.Profile.Height = 40;
        return (console, output);
    }

    [Fact]
    public void AReproductionsRun_ShowsItsRowsLive_AndTheDisplayIsGoneWhenItsScenarioEnds()
    {
        Assert.True(ConcurrencyLab.Running.RunPlanner.TryCreate(new ConcurrencyLab.Running.RunOptions { Scenarios = ["delay"], Variants = ["whenall", "channel"], Repeat = 1, Warmup = 0 }, ConcurrencyLab.Experiments.ScenarioCatalog.BuiltIn, out var plan, out _));
        var (console, output) = Terminal();
        using var session = new LiveSession(console);

        session.RunStarting(plan);
        var progress = new ConcurrencyLab.Running.TrialProgress("delay", "whenall", Warmup: false, Round: 0, Index: 0, Total: 2);
        session.TrialStarting(progress);
        session.TrialFinished(progress, new TrialResult { Metrics = Measured.Metrics(48.9, (StandardMetrics.PeakThreads, 15)), ItemsPlanned = 1, ItemsCompleted = 1 });
        Thread.Sleep(2 * (int)ConcurrencyLab.CommandLine.Rendering.LiveSession.LiveRefresh.TotalMilliseconds);
        var ended = Task.Run(() => session.ScenarioFinished(new ConcurrencyLab.Running.ScenarioRecord(plan.Scenarios[0], [], [], plan.Scenarios[0].Ideal, new Dictionary<string, double>())));

        Assert.True(ended.Wait(TimeSpan.FromSeconds(10)), "the display did not end with the run's last scenario");
        var text = System.Text.RegularExpressions.Regex.Replace(output.ToString(), @"\u001b\[[0-9;?]*[A-Za-z]", string.Empty);
        Assert.Matches(@"whenall\s+1/1\s+48\.9 ms\s+15", text);
        Assert.Matches(@"channel\s+0/1", text);
    }

    [Fact]
    public void ARunThatEndsEarly_EndsItsDisplayWhenDisposed()
    {
        Assert.True(ConcurrencyLab.Running.RunPlanner.TryCreate(new ConcurrencyLab.Running.RunOptions { Scenarios = ["delay"], Variants = ["whenall"], Repeat = 1, Warmup = 0 }, ConcurrencyLab.Experiments.ScenarioCatalog.BuiltIn, out var plan, out _));
        var (console, _) = Terminal();
        var session = new LiveSession(console);
        session.RunStarting(plan);

        Assert.True(Task.Run(session.Dispose).Wait(TimeSpan.FromSeconds(10)), "the display outlived its run");
    }
}
