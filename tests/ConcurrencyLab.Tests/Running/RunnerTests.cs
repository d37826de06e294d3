using ConcurrencyLab.Analysis;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Tests.Scenarios;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Running;

public sealed class RunnerTests
{
    [Fact]
    public void Rotate_StartsEachRoundOneLater()
    {
        int[] items = [1, 2, 3];
        Assert.Equal([1, 2, 3], Runner.Rotate(items, 0));
        Assert.Equal([2, 3, 1], Runner.Rotate(items, 1));
        Assert.Equal([1, 2, 3], Runner.Rotate(items, 3));
    }

    [Fact]
    public async Task Run_RotatesOrder_KeepsGoingPastFailures_AndDiscardsWarmups()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall", "channel", "sequential"], Repeat = 3, Warmup = 1, Baseline = "sequential" };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new ScriptedExecutor(request => request.Variant.Name == "channel" && request.Repeat == 1
            ? TrialResult.Unmeasured(TrialStatus.Timeout, "killed", isolated: true)
            : new TrialResult { Metrics = Measured.Metrics(request.Variant.Name == "sequential" ? 1000 : 50), Isolated = true, ItemsPlanned = 1, ItemsCompleted = 1 });

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        // 3 variants x (1 warmup + 3 measured), in rotated order.
        Assert.Equal(12, executor.Calls.Count);
        Assert.Equal(["whenall", "channel", "sequential"], executor.Calls.Take(3).Select(c => c.Variant.Name));
        Assert.Equal(["channel", "sequential", "whenall"], executor.Calls.Skip(3).Take(3).Select(c => c.Variant.Name));

        var scenario = Assert.Single(run.Scenarios);
        Assert.All(scenario.Variants, v => Assert.Equal(3, v.Trials.Count));
        var channel = scenario.Variants.Single(v => v.Name == "channel");
        Assert.Equal(TrialStatus.Timeout, channel.Status);
        Assert.Equal(2, channel.Summary!.Trials);
        Assert.Equal(TrialStatus.Ok, scenario.Variants.Single(v => v.Name == "whenall").Status);
        Assert.Equal(0.05, scenario.Variants.Single(v => v.Name == "whenall").Summary!.RatioToBaseline!.Value, 10);
    }

    // A variant's walls: sequential far slower than the rest, whenall and channel noisy enough never to be tight.
    private static TrialResult Spread(TrialRequest request) => new()
    {
        Metrics = Measured.Metrics(request.Variant.Name == "sequential" ? 1000 + request.Repeat : 50 + (10 * ((request.Repeat * 7) % 5))),
        Isolated = true,
        ItemsPlanned = 1,
        ItemsCompleted = 1,
    };

    [Fact]
    public async Task Run_AVariantOutOfContention_StopsAfterThreeTrials_SaysWhy_AndTheRestRunThemAll()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall", "channel", "sequential"], Repeat = 5, Warmup = 0 };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new ScriptedExecutor(Spread);
        var stopped = new List<(string Variant, EarlyStop Stop)>();

        var run = Summarizer.Summarise(await new Runner(executor, new StopWatcher(stopped)).RunAsync(plan));

        Assert.True(run.Settings.Adaptive);
        Assert.Equal(3 + 5 + 5, executor.Calls.Count);
        var scenario = Assert.Single(run.Scenarios);
        var sequential = scenario.Variants.Single(v => v.Name == "sequential");
        Assert.Equal(3, sequential.Trials.Count);
        Assert.Equal(EarlyStopReason.OutOfContention, sequential.Stop!.Reason);
        Assert.Equal((3, 5), (sequential.Stop.Trials, sequential.Stop.Planned));
        Assert.All(scenario.Variants.Where(v => v.Name != "sequential"), v => Assert.Equal((5, null), (v.Trials.Count, v.Stop)));
        Assert.Equal([("sequential", sequential.Stop)], stopped);

        // Said once, as data first: the report's notes carry the sentence the live display printed.
        var notes = ScenarioReport.Of(scenario, 2).OfType<BulletList>().Single(b => b.Kind == "notes").Items.Select(i => i.Text);
        Assert.Contains(notes, n => n.StartsWith("Note: sequential stopped after 3 of 5 trials, out of contention: ", StringComparison.Ordinal) && n.Contains("above 2x the high end of", StringComparison.Ordinal));
        Assert.Contains("(one stops once out of contention after 3, or tight after 5)", RunDescription.Method(run), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_AWorkloadOfYourOwn_StopsAHopelessVariantAfterTwoTrials_At4x_AndSaysSo()
    {
        // The same walls in mix, a workload scenario: sequential's two trials (1,000 and 1,001 ms) are above 4x the
        // fastest's slowest (70 ms), so it stops a round sooner than in delay, whose variants a post's claims judge.
        var options = new RunOptions { Scenarios = ["mix"], Variants = ["whenall", "channel", "sequential"], Repeat = 5, Warmup = 0, Quick = true };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.Tool, out var plan, out var errors), string.Join("; ", errors));
        var executor = new ScriptedExecutor(Spread);

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        Assert.Equal(2 + 5 + 5, executor.Calls.Count);
        var sequential = run.Scenarios[0].Variants.Single(v => v.Name == "sequential");
        Assert.Equal((2, 5, EarlyStopping.FarOutOfContentionRatio), (sequential.Stop!.Trials, sequential.Stop.Planned, sequential.Stop.Ratio));
        var notes = ScenarioReport.Of(run.Scenarios[0], 2).OfType<BulletList>().Single(b => b.Kind == "notes").Items.Select(i => i.Text);
        Assert.Contains(notes, n => n.StartsWith("Note: sequential stopped after 2 of 5 trials, out of contention: 1000-1001 ms, above 4x the high end of", StringComparison.Ordinal));
        Assert.Contains("out of contention after 3, or after 2 at 4x in a workload of your own, or tight after 5", RunDescription.Method(run), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_RepeatExactly_RunsEveryTrial()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall", "channel", "sequential"], Repeat = 5, Warmup = 0, RepeatExactly = true };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new ScriptedExecutor(Spread);

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        Assert.False(run.Settings.Adaptive);
        Assert.Equal(15, executor.Calls.Count);
        Assert.All(run.Scenarios[0].Variants, v => Assert.Equal((5, null), (v.Trials.Count, v.Stop)));
    }

    [Fact]
    public async Task Run_SteadyVariants_StopOnceTheirIntervalIsTight_AndAFailingOneRunsThemAll()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall", "channel", "sequential"], Repeat = 7, Warmup = 1 };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new ScriptedExecutor(request => request.Variant.Name == "sequential" && request.Repeat == 0
            ? TrialResult.Unmeasured(TrialStatus.Failed, "boom", isolated: true)
            : new TrialResult { Metrics = Measured.Metrics(request.Variant.Name == "sequential" ? 5000 : 50 + (0.1 * request.Repeat)), Isolated = true, ItemsPlanned = 1, ItemsCompleted = 1 });

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        // 3 warmups, then 5 measured rounds of all three (tight needs 5), then sequential alone (a failed trial is the finding).
        Assert.Equal(3 + 15 + 2, executor.Calls.Count);
        var variants = run.Scenarios[0].Variants.ToDictionary(v => v.Name);
        Assert.Equal(EarlyStopReason.Tight, variants["whenall"].Stop!.Reason);
        Assert.Equal(EarlyStopReason.Tight, variants["channel"].Stop!.Reason);
        Assert.Null(variants["sequential"].Stop);
        Assert.Equal(7, variants["sequential"].Trials.Count);
        Assert.Equal(5, variants["whenall"].Trials.Count);
    }

    [Fact]
    public async Task Run_InAFixedOrder_NeverStopsEarly()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall", "sequential"], Repeat = 5, Warmup = 0, FixedOrder = true };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new ScriptedExecutor(Spread);

        await new Runner(executor).RunAsync(plan);

        Assert.Equal(10, executor.Calls.Count);
    }

    private sealed class StopWatcher(List<(string Variant, EarlyStop Stop)> stopped) : IRunObserver
    {
        public void RunStarting(RunPlan plan)
        {
        }

        public void TrialStarting(TrialProgress progress)
        {
        }

        public void TrialFinished(TrialProgress progress, TrialResult result)
        {
        }

        public void VariantStopped(string scenario, string variant, EarlyStop stop) => stopped.Add((variant, stop));

        public void ScenarioFinished(ScenarioRecord scenario)
        {
        }
    }

    [Fact]
    public async Task Run_WithAFixedOrder_RunsTheVariantsAsNamedEveryRound_AndSaysSo()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["sequential", "whenall", "channel"], Repeat = 2, Warmup = 1, FixedOrder = true };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new ScriptedExecutor(_ => new TrialResult { Metrics = Measured.Metrics(50), Isolated = true, ItemsPlanned = 1, ItemsCompleted = 1 });

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        Assert.Equal([.. Enumerable.Repeat<string[]>(["sequential", "whenall", "channel"], 3).SelectMany(r => r)], executor.Calls.Select(c => c.Variant.Name));
        Assert.True(run.Settings.FixedOrder);
        Assert.Contains("variants in a fixed order", RunDescription.Method(run), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_Cancelled_KeepsWhatWasMeasured()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall", "channel"], Repeat = 5, Warmup = 0 };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        using var cancel = new CancellationTokenSource();
        var executor = new ScriptedExecutor(request =>
        {
            if (request.Repeat == 2)
            {
                cancel.Cancel();
            }

            return new TrialResult { Metrics = Measured.Metrics(50), ItemsPlanned = 1, ItemsCompleted = 1 };
        });
        var runner = new Runner(executor);

        var run = Summarizer.Summarise(await runner.RunAsync(plan, cancel.Token));

        Assert.True(run.Cancelled);
        Assert.Equal(5, run.Scenarios[0].Variants.Sum(v => v.Trials.Count));
        Assert.Contains(run.Scenarios[0].Notes, n => n.Contains("cancelled", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Run_SharesTheScenariosFixtureWithEveryTrial_AndTearsItDownAfterTheLast()
    {
        var shared = new SharingScenario(fails: false);
        var options = new RunOptions { Scenarios = ["sharing"], Repeat = 2, Warmup = 1 };
        Assert.True(RunPlanner.TryCreate(options, [shared], out var plan, out _));
        var executor = new ScriptedExecutor(request =>
        {
            Assert.False(shared.TornDown, "a trial ran after the fixture was torn down");
            return new TrialResult { Metrics = Measured.Metrics(10), ItemsPlanned = 1, ItemsCompleted = 1 };
        });

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        Assert.Equal(3, executor.Calls.Count);
        Assert.All(executor.Calls, c => Assert.Equal("/made/for/the/run", c.Parameters["folder"]));
        Assert.True(shared.TornDown);
        Assert.Contains("made a folder", run.Scenarios[0].Notes);

        // The ideal the set-up measured replaces the planned one (1 ms), and efficiency follows it.
        Assert.Equal(5, run.Scenarios[0].IdealMs);
        Assert.Equal("measured by the set-up", run.Scenarios[0].IdealReason);
        Assert.Equal(0.5, run.Scenarios[0].Variants[0].Summary!.Efficiency);
        Assert.Equal(100, run.Scenarios[0].Bounds["diskMibPerSec"]);
        Assert.Contains("concluded from 2 trials", run.Scenarios[0].Notes);
    }

    [Fact]
    public async Task Run_AFixtureThatCannotBeTornDown_KeepsTheResults_AndSaysWhy()
    {
        var options = new RunOptions { Scenarios = ["sharing"], Repeat = 2, Warmup = 0 };
        Assert.True(RunPlanner.TryCreate(options, [new SharingScenario(fails: false, tearDownFails: true)], out var plan, out _));
        var executor = new ScriptedExecutor(_ => new TrialResult { Metrics = Measured.Metrics(10), ItemsPlanned = 1, ItemsCompleted = 1 });

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        Assert.Equal(2, run.Scenarios[0].Variants[0].Trials.Count);
        Assert.Contains(run.Scenarios[0].Notes, n => n.StartsWith("the scenario's set-up could not be torn down", StringComparison.Ordinal) && n.Contains("the files are busy", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Run_AScenarioWhoseConclusionsFail_KeepsItsResults_AndSaysWhy()
    {
        var options = new RunOptions { Scenarios = ["sharing"], Repeat = 2, Warmup = 0 };
        Assert.True(RunPlanner.TryCreate(options, [new SharingScenario(fails: false, concludes: false)], out var plan, out _));
        var executor = new ScriptedExecutor(_ => new TrialResult { Metrics = Measured.Metrics(10), ItemsPlanned = 1, ItemsCompleted = 1 });

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        Assert.Equal(2, run.Scenarios[0].Variants[0].Trials.Count);
        Assert.Contains(run.Scenarios[0].Notes, n => n.StartsWith("the scenario's conclusions could not be drawn", StringComparison.Ordinal) && n.Contains("no claim to test", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Run_AScenarioWhoseSetUpFails_RunsNoTrials_SaysWhy_AndTheRunGoesOn()
    {
        var options = new RunOptions { Scenarios = ["sharing", "delay"], Variants = [], Repeat = 1, Warmup = 0 };
        Assert.True(RunPlanner.TryCreate(options, [new SharingScenario(fails: true), .. ScenarioCatalog.BuiltIn], out var plan, out var problems), string.Join("; ", problems));
        var executor = new ScriptedExecutor(_ => new TrialResult { Metrics = Measured.Metrics(10), ItemsPlanned = 1, ItemsCompleted = 1 });

        var run = Summarizer.Summarise(await new Runner(executor).RunAsync(plan));

        Assert.DoesNotContain(executor.Calls, c => c.Scenario == "sharing");
        Assert.Contains(executor.Calls, c => c.Scenario == "delay");
        Assert.Contains(run.Scenarios[0].Notes, n => n.Contains("set-up failed", StringComparison.Ordinal) && n.Contains("no room on the disk", StringComparison.Ordinal));
        Assert.All(run.Scenarios[0].Variants, v => Assert.Equal(TrialStatus.Failed, v.Status));
    }

    [Fact]
    public async Task ADisplayThatFails_CostsANote_AndAWarningInTheLog_NeverTheRun()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall"], Repeat = 2, Warmup = 0 };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new ScriptedExecutor(_ => new TrialResult { Metrics = Measured.Metrics(10), ItemsPlanned = 1, ItemsCompleted = 1 });
        var log = new ListLogger();

        var record = await new Runner(executor, new FailingDisplay(), log).RunAsync(plan);
        var run = Summarizer.Summarise(record);

        Assert.Equal(2, run.Scenarios[0].Variants[0].Trials.Count);
        Assert.Contains(run.Scenarios[0].Notes, n => n == "the progress display failed: InvalidOperationException: no terminal");
        Assert.Contains(run.Notes, n => n == "the progress display failed: InvalidOperationException: the table is gone");
        Assert.EndsWith("no terminal; any later failure is in the results' notes", Assert.Single(log.Warnings), StringComparison.Ordinal);
    }

    /// <summary>A display that fails when a trial starts and when a scenario ends.</summary>
    private sealed class FailingDisplay : IRunObserver
    {
        public void RunStarting(RunPlan plan)
        {
        }

        public void TrialStarting(TrialProgress progress) => throw new InvalidOperationException("no terminal");

        public void TrialProcessStarted(TrialProgress progress, int processId)
        {
        }

        public void TrialFinished(TrialProgress progress, TrialResult result)
        {
        }

        public void ScenarioFinished(ScenarioRecord scenario) => throw new InvalidOperationException("the table is gone");
    }

    private sealed class ListLogger : Microsoft.Extensions.Logging.ILogger
    {
        public List<string> Warnings { get; } = [];

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(Microsoft.Extensions.Logging.LogLevel logLevel) => true;

        public void Log<TState>(Microsoft.Extensions.Logging.LogLevel logLevel, Microsoft.Extensions.Logging.EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (logLevel == Microsoft.Extensions.Logging.LogLevel.Warning)
            {
                Warnings.Add(formatter(state, exception));
            }
        }
    }

    /// <summary>A scenario whose trials share a fixture made once for the run, or whose fixture cannot be made.</summary>
    private sealed class SharingScenario(bool fails, bool concludes = true, bool tearDownFails = false) : OneVariantScenario
    {
        public bool TornDown { get; private set; }

        public override string Name => "sharing";

        public override string Summary => "trials that share what the run made";

        public override Task<RunFixture?> PrepareRunAsync(ParameterValues parameters, int seed, CancellationToken cancellationToken = default) => fails
            ? throw new IOException("no room on the disk")
            : Task.FromResult<RunFixture?>(new RunFixture(
                new Dictionary<string, string> { ["folder"] = "/made/for/the/run" },
                ["made a folder"],
                () =>
                {
                    TornDown = true;
                    return tearDownFails ? throw new IOException("the files are busy") : ValueTask.CompletedTask;
                })
            {
                Ideal = new IdealBound(5, "measured by the set-up"),
                Bounds = new Dictionary<string, double> { ["diskMibPerSec"] = 100 },
            });

        internal override IEnumerable<string> Conclusions(ScenarioResult result) => concludes
            ? [$"concluded from {result.Variants.Sum(v => v.Trials.Count)} trials"]
            : throw new InvalidOperationException("no claim to test");

        public override Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default) =>
            throw new NotSupportedException("the scripted executor runs no trial");
    }

    [Fact]
    public async Task Run_StartsTheNextTrialWhileTheLastIsExiting_TellsItWhichOne_AndTheObserversStillHearOneTrialAtATime()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall", "channel", "sequential"], Repeat = 2, Warmup = 0 };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out _));
        var executor = new ExitingExecutor();
        var heard = new List<string>();

        var run = await new Runner(executor, new Listener(heard)).RunAsync(plan);

        // 2 rounds of 3. Within a round each trial's process started while the one before was still exiting, and was
        // told that one's process; the first of a round follows none, as the round ends with every trial finished.
        Assert.Equal(6, executor.Calls.Count);
        for (var call = 0; call < 6; call++)
        {
            Assert.Equal(call % 3 == 0 ? null : new ProcessInstance(1000 + call - 1, "start " + (call - 1)), executor.Calls[call].After);
        }

        Assert.Equal(4, executor.FinishedByTheNext);
        Assert.Equal(executor.Calls.Select(c => c.After is not null), executor.GivenBefore);
        Assert.All(run.Scenarios.Single().Variants, v => Assert.Equal(2, v.Trials.Count));

        // Each trial: starting, its process, finished, and only then the next one's news.
        Assert.Equal([.. Enumerable.Range(0, 6).SelectMany(n => new[] { $"starting {n}", $"process {1000 + n}", $"finished {n}" })], heard);
    }

    [Fact]
    public async Task Run_StartsTheNextTrialWhileTheLastIsExiting_AlsoWhereATrialStartsServices()
    {
        // A fanout trial ends its services before it writes its result, so the next may start as it exits.
        var options = new RunOptions { Scenarios = ["fanout"], Variants = ["whenall-async@100", "waitall@100"], Repeat = 2, Warmup = 0 };
        Assert.True(RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out var problems), string.Join("; ", problems));
        var executor = new ExitingExecutor();

        await new Runner(executor).RunAsync(plan);

        Assert.Equal(4, executor.Calls.Count);
        Assert.Equal([null, new ProcessInstance(1000, "start 0"), null, new ProcessInstance(1002, "start 2")], executor.Calls.Select(c => c.After));
        Assert.Equal(2, executor.FinishedByTheNext);
    }

    // Each trial says it has measured at once, and ends only when the next trial starts, or, for the last of a
    // round, when the runner waits for it alone (after a grace of a second, so a runner that waited for every
    // trial would still finish, with nothing finished by the next).
    private sealed class ExitingExecutor : ITrialExecutor
    {
        private TaskCompletionSource<TrialResult>? _last;
        private TrialResult? _lastResult;

        public List<TrialRequest> Calls { get; } = [];

        // Whether each call was given the runner's finishing of the trial before, to wait for.
        public List<bool> GivenBefore { get; } = [];

        public int FinishedByTheNext { get; private set; }

        public bool Isolated => true;

        public Task<TrialResult> RunAsync(TrialLaunch launch, CancellationToken cancellationToken = default)
        {
            var (scenario, request, timeout, processStarted, childStarted, measured, before) = (launch.Scenario, launch.Request, launch.Timeout, launch.ProcessStarted, launch.ChildStarted, launch.Measured, launch.Before);
            var n = Calls.Count;
            Calls.Add(request);
            GivenBefore.Add(before is not null);
            if (_last is not null && _last.TrySetResult(_lastResult!))
            {
                FinishedByTheNext++;
            }

            processStarted?.Invoke(1000 + n);
            var result = new TrialResult { Metrics = Measured.Metrics(50 + n), Isolated = true, ItemsPlanned = 1, ItemsCompleted = 1, Repeat = request.Repeat };
            if (measured is null)
            {
                _last = null;
                return Task.FromResult(result);
            }

            var exiting = new TaskCompletionSource<TrialResult>(TaskCreationOptions.RunContinuationsAsynchronously);
            (_last, _lastResult) = (exiting, result);
            measured(new ProcessInstance(1000 + n, "start " + n));
            _ = Task.Delay(TimeSpan.FromSeconds(1), CancellationToken.None).ContinueWith(_ => exiting.TrySetResult(result), TaskScheduler.Default);
            return exiting.Task;
        }
    }

    private sealed class Listener(List<string> heard) : IRunObserver
    {
        private int _started;
        private int _finished;

        public void RunStarting(RunPlan plan)
        {
        }

        public void TrialStarting(TrialProgress progress) => heard.Add($"starting {_started++}");

        public void TrialProcessStarted(TrialProgress progress, int processId) => heard.Add($"process {processId}");

        public void TrialFinished(TrialProgress progress, TrialResult result) => heard.Add($"finished {_finished++}");

        public void ScenarioFinished(ScenarioRecord scenario)
        {
        }
    }

    private sealed class ScriptedExecutor(Func<TrialRequest, TrialResult> script) : ITrialExecutor
    {
        public List<TrialRequest> Calls { get; } = [];

        public bool Isolated => true;

        public Task<TrialResult> RunAsync(TrialLaunch launch, CancellationToken cancellationToken = default)
        {
            var request = launch.Request;
            Calls.Add(request);
            return Task.FromResult(script(request) with { Repeat = request.Repeat });
        }
    }
}
