using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Scenarios;

/// <summary>A user's workload through the API a newcomer uses: parameters, sweeps, the run's set-up, per-trial set-up, own metrics.</summary>
public sealed class WorkloadScenarioTests
{
    private static readonly Parameter<int> Items = Parameter.WholeNumber("items", 6, "items in a batch", minimum: 1, maximum: 1000);
    // Long enough that a batch of six is all started before its first item ends, even on a busy machine.
    private static readonly Sweep WaitMs = new("wait-ms", [20, 30], "how long each item waits, ms", maximum: 1000);
    private static readonly Metric Peak = Metric.Count("peak", "Peak in flight");
    private static readonly Metric Seen = Metric.Count("seen-set-up", "Seen");

    [Fact]
    public void AWorkloadsForms_AreTheMembersItOverrides_InTheOrderSyncTaskBeginEnd()
    {
        Assert.Equal([WorkForm.Sync, WorkForm.Tap], new Waiting(1, 0, null).Forms);
        Assert.Equal([WorkForm.Tap], new TaskOnly().Forms);
    }

    [Fact]
    public void ASweep_MultipliesTheDefaultVariants_AndANameThatLeavesItOut_StandsForEachValue()
    {
        var scenario = Scenario();
        Assert.True(RunPlanner.TryCreate(new RunOptions { Variants = ["whenall", "sequential:wait-ms=30"] }, [scenario], out var plan, out var errors), string.Join("; ", errors));

        Assert.Equal(["whenall:wait-ms=20", "whenall:wait-ms=30", "sequential:wait-ms=30"], plan.Scenarios[0].Variants.Select(v => v.Name));
        Assert.Equal("20", plan.Scenarios[0].Variants[0].Parameters["wait-ms"]);

        var parameters = plan.Scenarios[0].Parameters;
        var defaults = scenario.DefaultVariants(parameters);
        Assert.Equal(2 * defaults.Count(v => v.Parameters["wait-ms"] == "20"), defaults.Count);
        Assert.Equal("sequential:wait-ms=20", scenario.DefaultBaseline(parameters).Name);
    }

    [Fact]
    public void ASweepOfOneValue_LeavesNamesShort_ButRecordsItsValue()
    {
        Assert.True(RunPlanner.TryCreate(new RunOptions { Variants = ["whenall"], Parameters = new Dictionary<string, string> { ["wait-ms"] = "7" } }, [Scenario()], out var plan, out var errors), string.Join("; ", errors));

        var variant = Assert.Single(plan.Scenarios[0].Variants);
        Assert.Equal("whenall", variant.Name);
        Assert.Equal("7", variant.Parameters["wait-ms"]);
    }

    [Fact]
    public void All_IsEveryStrategyInEveryFormTheWorkloadHas_AtEachDegreeAndTheDefault()
    {
        var scenario = Scenario();
        Assert.True(RunPlanner.TryCreate(new RunOptions { Variants = ["all"], Parameters = new Dictionary<string, string> { ["wait-ms"] = "1", ["dop"] = "2" } }, [scenario], out var plan, out var errors), string.Join("; ", errors));

        var names = plan.Scenarios[0].Variants.Select(v => v.Name).ToList();
        Assert.Contains("sequential", names);
        Assert.Contains("sequential-tap", names);
        Assert.Contains("parallel-for@2", names);
        Assert.Contains("parallel-for@default-tap", names);
        Assert.DoesNotContain(names, n => n.EndsWith("-apm", StringComparison.Ordinal));
        Assert.Equal(names.Count, names.Distinct().Count());
        Assert.True(names.Count > scenario.DefaultVariants(plan.Scenarios[0].Parameters).Count);
    }

    [Fact]
    public void ParametersOfTheSameName_AreTheAuthorsMistake_SaidInOneSentence()
    {
        var twice = new WorkloadScenario("twice", _ => new TaskOnly()) { Parameters = [Parameter.WholeNumber("dop", 1, "clash")] };

        Assert.Contains("two parameters named 'dop'", Assert.Throws<InvalidOperationException>(() => twice.Parameters).Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => new WorkloadScenario("Not A Name", _ => new TaskOnly()));
    }

    [Fact]
    public async Task TheRunsSetUp_RunsOnceInTheRunner_ReachesEveryTrialAsJson_AndIsDisposedAfter()
    {
        var made = 0;
        var calibration = new Calibration(42);
        var withSetUp = WithSetUp("with-set-up", () =>
        {
            made++;
            return calibration;
        });
        Assert.True(RunPlanner.TryCreate(new RunOptions { Variants = ["whenall", "sequential"], Repeat = 2, Warmup = 0, InProcess = true }, [withSetUp], out var plan, out var errors), string.Join("; ", errors));

        var run = Summarizer.Summarise(await new Runner(new InProcessTrialExecutor()).RunAsync(plan));

        Assert.Equal(1, made);
        Assert.True(calibration.Disposed);
        Assert.Empty(Directory.EnumerateFiles(Path.GetTempPath(), $"conclab-setup-{Environment.ProcessId}-*"));
        var variants = run.Scenarios[0].Variants;
        Assert.Equal(4, variants.Count);
        Assert.All(variants, v => Assert.Equal(TrialStatus.Ok, v.Status));
        Assert.All(variants.SelectMany(v => v.Trials), t =>
        {
            // The trial's workload read 42 from the set-up in SetUpAsync, and checks it saw it.
            Assert.Equal(42, t.Metrics["seen-set-up"]);
            Assert.Null(t.Error);
        });
        Assert.All(variants.Where(v => v.Name.StartsWith("whenall", StringComparison.Ordinal)).SelectMany(v => v.Trials), t => Assert.Equal(6, t.Metrics["peak"]));
        Assert.All(variants.Where(v => v.Name.StartsWith("sequential", StringComparison.Ordinal)).SelectMany(v => v.Trials), t => Assert.Equal(1, t.Metrics["peak"]));
        Assert.DoesNotContain(run.Scenarios[0].Notes, n => n.Contains("different workloads", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ADegreeSearch_AndTheRunAfterIt_ShareOneSetUp_TornDownOnceAfterTheRun()
    {
        // Before, every probe round prepared the run's set-up again (a calibration each): the search's rounds and the
        // run would have made it 3 times or more here.
        var made = 0;
        var calibration = new Calibration(42);
        var withSetUp = WithSetUp("searched-set-up", () =>
        {
            Interlocked.Increment(ref made);
            Assert.False(calibration.Disposed, "a set-up was made again after it was torn down");
            return calibration;
        });
        var options = new RunOptions
        {
            Variants = ["foreach-async@2"],
            Parameters = new Dictionary<string, string> { ["dop"] = "auto", ["wait-ms"] = "20" },
            Repeat = 2,
            Warmup = 0,
            InProcess = true,
        };
        Assert.True(RunPlanner.TryCreate(options, [withSetUp], out var plan, out var errors), string.Join("; ", errors));

        var display = new ProbeCounter();
        var run = await Lab.MeasureAsync(plan, options, display, logger: null, CancellationToken.None);

        var search = Assert.Single(run.Scenarios[0].DegreeSearches);
        Assert.True(search.Tried.Count >= 2, $"{search.Tried.Count} degrees tried");

        // The display heard of every probe trial as it ended, counted across the search's rounds, and of no trial of
        // the rounds as the run's own.
        Assert.Equal(Enumerable.Range(1, search.Tried.Sum(t => t.Trials)), display.ProbeCounts);
        Assert.Equal(run.Scenarios[0].Variants.Sum(v => v.Trials.Count), display.RunTrials);
        Assert.Equal(1, display.Runs);
        Assert.Equal(1, made);
        Assert.True(calibration.Disposed);
        Assert.Empty(Directory.EnumerateFiles(Path.GetTempPath(), $"conclab-setup-{Environment.ProcessId}-*"));
        Assert.All(run.Scenarios[0].Variants.SelectMany(v => v.Trials), t => Assert.Equal(42, t.Metrics["seen-set-up"]));
    }

    // A scenario of waiting items whose run's set-up is what make returns.
    private static WorkloadScenario WithSetUp(string name, Func<Calibration> make) =>
        new(name, context => new Waiting(context.Get(Items), context.Get(WaitMs), context))
        {
            Parameters = [Items],
            Sweeps = [WaitMs],
            Metrics = [Peak, Seen],
            SetUpRunAsync = (_, _) => Task.FromResult<object?>(make()),
        };

    private sealed class ProbeCounter : IRunObserver
    {
        public List<int> ProbeCounts { get; } = [];

        public int RunTrials { get; private set; }

        public int Runs { get; private set; }

        public void RunStarting(RunPlan plan) => Runs++;

        public void TrialStarting(TrialProgress progress)
        {
        }

        public void TrialFinished(TrialProgress progress, TrialResult result) => RunTrials++;

        public void ProbeTrialFinished(string scenario, string variant, int probeTrials, double? wallMs) => ProbeCounts.Add(probeTrials);

        public void ScenarioFinished(ScenarioRecord scenario)
        {
        }
    }

    [Fact]
    public async Task AWorkloadsSetUpAndTearDown_FrameTheRegion_AndItsCheck_FailsTheTrialWithItsReason()
    {
        var log = new List<string>();
        var scenario = new WorkloadScenario("framed", _ => new Framed(log));
        Assert.True(RunPlanner.TryCreate(new RunOptions { Variants = ["sequential"], Repeat = 1, Warmup = 0, InProcess = true, Prime = false }, [scenario], out var plan, out var errors), string.Join("; ", errors));

        var run = Summarizer.Summarise(await new Runner(new InProcessTrialExecutor()).RunAsync(plan));

        Assert.Equal(["set up", "item 0", "item 1", "torn down"], log);
        var trial = Assert.Single(run.Scenarios[0].Variants[0].Trials);
        Assert.Equal(TrialStatus.Failed, trial.Status);
        Assert.Equal("item 1 computed 41, not 42", trial.Error);
        Assert.True(trial.WallMs > 0, "the measured region was lost to the failed check");
    }

    [Fact]
    public void RunSetUp_WithoutOne_SaysWhatToDo()
    {
        var context = new WorkloadContext(ParameterValues.FromValidated(new Dictionary<string, string>()), 1, variant: null);

        Assert.False(context.HasRunSetUp);
        Assert.Contains("set WorkloadScenario.Forms", Assert.Throws<InvalidOperationException>(() => context.RunSetUp<Calibration>()).Message, StringComparison.Ordinal);
    }

    private static WorkloadScenario Scenario() => new("sleepy", context => new Waiting(context.Get(Items), context.Get(WaitMs), null))
    {
        Parameters = [Items],
        Sweeps = [WaitMs],
        Metrics = [Peak],
    };

    /// <summary>What a run's set-up made, as a user writes it; disposable, so the runner disposes it after the run.</summary>
    public sealed record Calibration(int Value) : IDisposable
    {
        [System.Text.Json.Serialization.JsonIgnore]
        public bool Disposed { get; private set; }

        public void Dispose() => Disposed = true;
    }

    private sealed class Waiting(int items, int waitMs, WorkloadContext? context) : Workload
    {
        private int _inFlight;
        private int _peak;
        private int _seen;

        public override int Count => items;

        public override string Digest => $"{items}x{waitMs}";

        public override ValueTask SetUpAsync(CancellationToken cancellationToken)
        {
            _seen = context?.RunSetUp<Calibration>().Value ?? 0;
            return ValueTask.CompletedTask;
        }

        public override void Run(int index, CancellationToken cancellationToken)
        {
            Enter();
            Thread.Sleep(waitMs);
            Interlocked.Decrement(ref _inFlight);
        }

        public override async ValueTask RunAsync(int index, CancellationToken cancellationToken)
        {
            Enter();
            await Task.Delay(waitMs, cancellationToken);
            Interlocked.Decrement(ref _inFlight);
        }

        public override void CollectMetrics(MetricValues metrics)
        {
            metrics[Peak] = _peak;
            if (context is not null)
            {
                metrics[Seen] = _seen;
            }
        }

        private void Enter()
        {
            var now = Interlocked.Increment(ref _inFlight);
            lock (this)
            {
                _peak = Math.Max(_peak, now);
            }
        }
    }

    private sealed class Framed(List<string> log) : Workload
    {
        public override int Count => 2;

        public override ValueTask SetUpAsync(CancellationToken cancellationToken)
        {
            log.Add("set up");
            return ValueTask.CompletedTask;
        }

        public override void Run(int index, CancellationToken cancellationToken) => log.Add($"item {index}");

        public override string? Check() => "item 1 computed 41, not 42";

        public override ValueTask TearDownAsync()
        {
            log.Add("torn down");
            return ValueTask.CompletedTask;
        }
    }

    private sealed class TaskOnly : Workload
    {
        public override int Count => 1;

        public override ValueTask RunAsync(int index, CancellationToken cancellationToken) => ValueTask.CompletedTask;
    }
}
