using System.Globalization;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace ConcurrencyLab.Running;

/// <summary>
/// Runs a plan: for each scenario, warmup rounds then measured rounds over every variant, the order of
/// variants rotated each round so none always runs first (unless the plan fixes it), each trial through the executor. A trial that
/// fails or times out is recorded and the run goes on. Cancelling returns what was measured so far. A run
/// first removes what runs killed before they could clean up left behind, and
/// says what in its notes and its log. The runner measures only: <see cref="Analysis.Summarizer"/> takes the statistics of what it returns.
/// </summary>
internal sealed partial class Runner
{
    private readonly ITrialExecutor _executor;
    private readonly IRunObserver? _observer;
    private readonly ILogger _logger;
    private readonly TimeProvider _time;
    private readonly SharedSetUps? _setUps;
    private bool _displayFailureLogged;

    /// <summary>A runner of trials through <paramref name="executor"/>.</summary>
    /// <param name="executor">Where each trial runs: fresh child processes, or this process.</param>
    /// <param name="observer">A progress display told about the run as it goes; none when null.</param>
    /// <param name="logger">Where the runner says what goes wrong outside a trial (a failing display); nowhere when null.</param>
    /// <param name="time">The clock the run's start time is read from; the system's when null.</param>
    /// <param name="setUps">Set-ups, and the journal, shared with the other runs of one measurement (a degree search's
    /// rounds and the run after them), which tear them down; when null the run prepares and tears down its own.</param>
    public Runner(
        ITrialExecutor executor, IRunObserver? observer = null, ILogger? logger = null, TimeProvider? time = null, SharedSetUps? setUps = null)
    {
        _setUps = setUps;
        _executor = executor ?? throw new ArgumentNullException(nameof(executor));
        _observer = observer;
        _logger = logger ?? NullLogger.Instance;
        _time = time ?? TimeProvider.System;
    }

    /// <summary>Runs <paramref name="plan"/> and returns every trial it measured; never throws for a trial that failed.</summary>
    public async Task<RunRecord> RunAsync(RunPlan plan, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var startedAt = _time.GetUtcNow().ToString("O", CultureInfo.InvariantCulture);
        var runNotes = new List<string>();
        foreach (var removed in RunJournal.RemoveLeftovers())
        {
            runNotes.Add(removed);
            LeftoversRemoved(_logger, removed);
        }

        using var journal = _setUps is null ? RunJournal.TryBegin(runNotes) : null;
        Notify(o => o.RunStarting(plan), runNotes);
        var scenarios = new List<ScenarioRecord>();
        var counter = new TrialCounter();
        var cancelled = false;
        foreach (var scenarioPlan in plan.Scenarios)
        {
            var run = new ScenarioRun(this, plan, scenarioPlan, counter);
            cancelled = await run.RunAsync(cancellationToken).ConfigureAwait(false);
            var record = run.Record();
            scenarios.Add(record);
            Notify(o => o.ScenarioFinished(record), runNotes);
            if (cancelled)
            {
                break;
            }
        }

        return new RunRecord
        {
            StartedAt = startedAt,
            Environment = EnvironmentInfo.ForTrialsOfThisProgram(),
            Settings = plan.Settings,
            Scenarios = scenarios,
            Cancelled = cancelled,
            Notes = runNotes,
        };
    }

    // The number of the next trial in the run, which early stopping moves past the trials it saves.
    private sealed class TrialCounter
    {
        public int Next { get; set; }
    }

    // One scenario's run, in stages: its phases (one, or one per --grow size), each with its set-up, its rounds and
    // its tear-down; each round's trials, one's exit overlapping the next one's start; early stopping after a round;
    // and the finished trials kept as they come.
    private sealed class ScenarioRun(Runner runner, RunPlan plan, ScenarioPlan scenarioPlan, TrialCounter counter)
    {
        private readonly Dictionary<string,
            List<TrialResult>> _trials = scenarioPlan.Variants.ToDictionary(v => v.Name, _ => new List<TrialResult>());
        private readonly List<string> _notes = [.. scenarioPlan.Notes];
        private readonly ItemFloor _floor = new();
        private readonly Dictionary<int, IdealBound> _growIdeals = [];
        private readonly Dictionary<string, EarlyStop> _stops = new(StringComparer.Ordinal);
        private readonly IReadOnlyList<string> _workParameters = scenarioPlan.WorkParameters();

        // What the scenario expects of its trials' metrics: no variant stops against one that ran other work.
        private readonly IReadOnlyList<ExpectedMetric> _expected = scenarioPlan.Scenario.WeighableExpectations(scenarioPlan.Parameters.Values);
        private readonly MachineLoadMeter _load = MachineLoadMeter.Start();
        private IdealBound? _ideal;
        private IReadOnlyDictionary<string, double>? _bounds;
        private bool _abandoned;

        // Every phase in turn; returns whether the run was cancelled.
        public async Task<bool> RunAsync(CancellationToken cancellationToken)
        {
            // One phase, or with --grow one per size, one after another: each with its own set-up, torn down before
            // the next, and its own ideal.
            foreach (var (phaseParameters, phaseVariants, size) in Phases(scenarioPlan))
            {
                if (await RunPhaseAsync(phaseParameters, phaseVariants, size, cancellationToken).ConfigureAwait(false))
                {
                    return true;
                }
            }

            return false;
        }

        public ScenarioRecord Record()
        {
            if (_abandoned)
            {
                _notes.Add("an in-process trial was abandoned after its timeout and may have disturbed later trials.");
            }

            return new ScenarioRecord(
                scenarioPlan,
                [.. scenarioPlan.Variants.Select(v => new VariantTrials(v, _trials[v.Name]) { Stop = _stops.GetValueOrDefault(v.Name) })],
                _notes,
                _ideal ?? scenarioPlan.Ideal,
                _bounds ?? new Dictionary<string, double>())
            {
                LongestItem = _floor.Longest(),
                Load = _load.Finish(),
                DegreeSearches = scenarioPlan.DegreeSearches,
                GrowIdeals = _growIdeals,
            };
        }

        // A phase's set-up, rounds and tear-down; returns whether the run was cancelled.
        private async Task<bool> RunPhaseAsync(
            ParameterValues phaseParameters,
            IReadOnlyList<Variant> phaseVariants,
            int? size,
            CancellationToken cancellationToken)
        {
            var at = size is { } s ? $" at {scenarioPlan.Grow!.Name}={s}" : string.Empty;
            RunFixture? fixture = null;
            try
            {
                var rounds = plan.Settings.Warmup + plan.Settings.Repeat;
                try
                {
                    fixture = await (runner._setUps?.GetAsync(scenarioPlan.Scenario, phaseParameters, plan.Settings.Seed, cancellationToken)
                        ?? scenarioPlan.Scenario.PrepareRunAsync(phaseParameters, plan.Settings.Seed, cancellationToken)).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    // Nothing to run the trials on: say why in one line, and go on to the next scenario.
                    _notes.Add($"the scenario's set-up{at} failed, so none of its trials{at} ran: " + TrialFailure.Describe(ex));
                    rounds = 0;
                }

                _notes.AddRange((fixture?.Notes ?? []).Where(n => !_notes.Contains(n)));

                // A bound the set-up measured on this machine replaces the one planned from the parameters alone.
                var phaseIdeal = fixture?.Ideal
                    ?? (size is { } planned && scenarioPlan.Grow!.Ideals.TryGetValue(planned, out var grown) ? grown : scenarioPlan.Ideal);
                _ideal ??= phaseIdeal;
                _bounds ??= fixture?.Bounds;
                if (size is { } measuredAt)
                {
                    _growIdeals[measuredAt] = phaseIdeal;
                }

                // The fixture's values win: it may settle one the user left open, such as a folder.
                var parameters = fixture is null ? phaseParameters.Values : phaseParameters.Values.SetItems(fixture.TrialParameters);
                var expectedMs = scenarioPlan.Scenario.ExpectedTrialDuration(phaseParameters).TotalMilliseconds;
                for (var round = 0; round < rounds; round++)
                {
                    var warmup = round < plan.Settings.Warmup;
                    var repeat = warmup ? round : round - plan.Settings.Warmup;
                    var order = plan.Settings.FixedOrder ? phaseVariants : Rotate(phaseVariants, round);
                    await RunRoundAsync([.. order], parameters, expectedMs, warmup, repeat, cancellationToken).ConfigureAwait(false);
                    StopEarly(phaseVariants, warmup, repeat);
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                _notes.Add("the run was cancelled; trials measured before that are kept.");
                return true;
            }
            finally
            {
                await TearDownAsync(fixture, at).ConfigureAwait(false);
            }

            return false;
        }

        private async Task TearDownAsync(RunFixture? fixture, string at)
        {
            // A shared set-up is torn down by its owner, after the measurement's last run.
            if (fixture is null || runner._setUps is not null)
            {
                return;
            }

            try
            {
                await fixture.DisposeAsync().ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                // What was measured stands; the user learns what was left behind.
                _notes.Add($"the scenario's set-up{at} could not be torn down: " + TrialFailure.Describe(ex));
            }
        }

        // One round over the variants still running, in the round's order. A trial's process that has written its
        // result may take 100-200 ms more to exit (ProcessInstance says why); the next trial's process starts
        // meanwhile, and its region waits for that one to be gone. A trial that starts services ends them before it
        // writes its result, and the next one starts measuring its own only after that wait (TrialMeter.AwaitTrialBefore).
        private async Task RunRoundAsync(
            IReadOnlyList<Variant> order,
            IReadOnlyDictionary<string, string> parameters,
            double expectedMs,
            bool warmup,
            int repeat,
            CancellationToken cancellationToken)
        {
            var overlap = runner._executor.Isolated;
            Exiting? exiting = null;
            Task? finishing = null;
            Task<TrialResult>? started = null;
            try
            {
                foreach (var variant in order.Where(v => !_stops.ContainsKey(v.Name)))
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    var progress = new TrialProgress(scenarioPlan.Scenario.Name, variant.Name, warmup, repeat, counter.Next++, plan.TotalTrials);
                    var request = Request(variant, parameters, expectedMs, repeat, exiting?.Process);

                    // The trial before is finished (its exit, its account) while this one's process starts, which
                    // begins its region only once that is done. The observers hear of one trial at a time: this
                    // one's news waits until the one before has finished.
                    finishing = exiting is null ? null : FinishAsync(exiting);
                    exiting = null;
                    var news = new NewsGate();
                    var measured = new TaskCompletionSource<ProcessInstance>(TaskCreationOptions.RunContinuationsAsynchronously);
                    var launch = new TrialLaunch(scenarioPlan.Scenario, request, plan.TrialTimeout)
                    {
                        ProcessStarted = processId => news.Deliver(() => runner.Notify(o => o.TrialProcessStarted(progress, processId), _notes)),
                        ChildStarted = child => news.Deliver(() => runner.Notify(o => o.TrialChildStarted(progress, child), _notes)),
                        Measured = overlap ? previous => measured.TrySetResult(previous) : null,
                        Before = finishing,
                    };
                    var trial = started = runner._executor.RunAsync(launch, cancellationToken);
                    if (finishing is not null)
                    {
                        await finishing.ConfigureAwait(false);
                        finishing = null;
                    }

                    runner.Notify(o => o.TrialStarting(progress), _notes);
                    news.Open();
                    await Task.WhenAny(measured.Task, trial).ConfigureAwait(false);
                    exiting = new Exiting(progress, variant, warmup, trial, measured.Task.IsCompletedSuccessfully ? measured.Task.Result : null);
                    started = null;
                    if (trial.IsCompleted)
                    {
                        var done = exiting;
                        exiting = null;
                        await FinishAsync(done).ConfigureAwait(false);
                    }
                }
            }
            finally
            {
                // Cut short (a cancellation): the trial being finished, and one already started, end before the run
                // goes on, their processes stopped by their executors; what was measured is kept where its result
                // was written.
                await Quietly(finishing).ConfigureAwait(false);
                await Quietly(started).ConfigureAwait(false);

                // The round's last trial.
                if (exiting is not null)
                {
                    await FinishAsync(exiting).ConfigureAwait(false);
                }
            }
        }

        private TrialRequest Request(
            Variant variant,
            IReadOnlyDictionary<string, string> parameters,
            double expectedMs,
            int repeat,
            ProcessInstance? after) => new()
        {
            Scenario = scenarioPlan.Scenario.Name,
            Variant = variant,
            Parameters = parameters,
            Seed = plan.Settings.Seed,
            SampleIntervalMs = plan.Settings.SampleIntervalMs,
            Repeat = repeat,
            Prime = plan.Settings.Prime,
            TimeoutMs = plan.TrialTimeout.TotalMilliseconds,
            ExpectedDurationMs = expectedMs,
            After = after,
        };

        // After each measured round but the last, the variants that have had enough trials stop.
        private void StopEarly(IReadOnlyList<Variant> phaseVariants, bool warmup, int repeat)
        {
            if (!plan.Settings.Adaptive || warmup || repeat + 1 >= plan.Settings.Repeat)
            {
                return;
            }

            var running = phaseVariants.Where(v => !_stops.ContainsKey(v.Name)).ToList();
            var fewest = EarlyStopping.FewestTrials(scenarioPlan.Scenario);
            foreach (var (name, stop) in EarlyStopping.After(running, _trials, phaseVariants, WorkGroup, plan.Settings.Repeat, fewest, _expected))
            {
                _stops[name] = stop;
                counter.Next += plan.Settings.Repeat - repeat - 1;
                runner.Notify(o => o.VariantStopped(scenarioPlan.Scenario.Name, name, stop), _notes);
            }
        }

        private string WorkGroup(Variant variant) => VariantValues.WorkGroup(_workParameters, variant.Parameters);

        // A trial's result once its process has exited and its account is read: kept, and told to the observers.
        private async Task FinishAsync(Exiting done)
        {
            var result = await done.Trial.ConfigureAwait(false);

            // Each item's time is folded into the scenario's floor here, and goes no further.
            if (!done.Warmup && result is { Status: TrialStatus.Ok, ItemTimesMs: { } times })
            {
                _floor.Add(result.WorkloadDigest ?? string.Empty, done.Variant.Name, times);
            }

            result = result.WithoutItemTimes();
            runner.Notify(o => o.TrialFinished(done.Progress, result), _notes);

            // A trial in this process that outlived its timeout could only be abandoned, still running.
            _abandoned |= result.Status == TrialStatus.Timeout && !result.Isolated;
            if (!done.Warmup)
            {
                _trials[done.Variant.Name].Add(result);
            }
            else if (result.Status != TrialStatus.Ok)
            {
                _notes.Add($"warmup trial of {done.Variant.Name} ended {result.Status.ToText()}: {result.Error}");
            }
        }
    }

    // The phases of a scenario's run: all its variants at its parameters, or with --grow each size's variants at
    // the parameters of that size, smallest first.
    private static IEnumerable<(ParameterValues Parameters, IReadOnlyList<Variant> Variants, int? Size)> Phases(ScenarioPlan plan)
    {
        if (plan.Grow is not { } grow)
        {
            yield return (plan.Parameters, plan.Variants, null);
            yield break;
        }

        foreach (var size in grow.Sizes)
        {
            var variants = plan.Variants.Where(v => grow.SizeOf(v) == size).ToList();
            if (variants.Count > 0)
            {
                yield return (grow.At(plan.Parameters, size), variants, size);
            }
        }
    }

    /// <summary>
    /// Tells the observer, but never lets a display's failure lose what was measured: the error becomes a note
    /// (the scenario's, or the run's once the scenario's are final) and the run goes on. The log hears of the
    /// first failure only: a display that fails at every trial would otherwise write over itself.
    /// </summary>
    private void Notify(Action<IRunObserver> call, List<string> notes)
    {
        if (_observer is null)
        {
            return;
        }

        try
        {
            call(_observer);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            var message = $"the progress display failed: {ex.GetType().Name}: {ex.Message}".ReplaceLineEndings(" ");
            notes.Add(message);
            if (!_displayFailureLogged)
            {
                _displayFailureLogged = true;
                DisplayFailed(_logger, message + "; any later failure is in the results' notes");
            }
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Message}")]
    private static partial void DisplayFailed(ILogger logger, string message);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Message}")]
    private static partial void LeftoversRemoved(ILogger logger, string message);

    /// <summary>Round r starts at variant r mod n, so each variant runs first in turn.</summary>
    internal static IEnumerable<T> Rotate<T>(IReadOnlyList<T> items, int round)
    {
        for (var i = 0; i < items.Count; i++)
        {
            yield return items[(i + round) % items.Count];
        }
    }

    // Awaits a task cut short with the run, whose cancellation the exception already on its way tells.
    private static async Task Quietly(Task? task)
    {
        if (task is null)
        {
            return;
        }

        try
        {
            await task.ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
        }
    }

    // A trial whose process has measured and may still be exiting; Process is null when it ended without saying so.
    private sealed record Exiting(TrialProgress Progress, Variant Variant, bool Warmup, Task<TrialResult> Trial, ProcessInstance? Process);

    // A trial's news (its process, the services it started), delivered at once when the gate is open, and held
    // while it is shut: until the observers have heard the trial before finish.
    private sealed class NewsGate
    {
        private readonly Lock _lock = new();
        private List<Action>? _held = [];

        public void Deliver(Action news)
        {
            lock (_lock)
            {
                if (_held is not null)
                {
                    _held.Add(news);
                    return;
                }
            }

            news();
        }

        // Opens the gate, telling the held news in order: news that comes while it is told waits its turn, until none is left.
        public void Open()
        {
            while (true)
            {
                List<Action> held;
                lock (_lock)
                {
                    if (_held is not { Count: > 0 })
                    {
                        _held = null;
                        return;
                    }

                    held = _held;
                    _held = [];
                }

                foreach (var news in held)
                {
                    news();
                }
            }
        }
    }
}
