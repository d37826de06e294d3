using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// On a terminal: a progress bar for the whole run (elapsed and remaining time) and a line naming the trial
/// under way with its process's OS thread count now, read a few times a second from outside the trial.
/// </summary>
internal sealed class LiveProgress : IRunObserver, IDisposable
{
    /// <summary>How often the thread count is read: often enough to watch, rarely enough to cost the trial nothing it would notice.</summary>
    public static readonly TimeSpan ThreadCountInterval = TimeSpan.FromMilliseconds(250);

    private readonly ProgressTask _overall;
    private readonly ProgressTask _current;
    private readonly Func<int, int?> _threadCountOf;
    private readonly Timer _timer;
    private readonly Lock _lock = new();
    private string _trial = "starting";
    private RunPlan _plan;
    private string? _tableScenario;
    private int? _peak;

    // The process the trial under way runs in, as the runner told it; null until it has started.
    private int? _processId;

    // Moves on at every trial's start and end and at disposal, so a reading taken for one trial is never shown on another's line.
    private int _generation;
    private bool _running;

    public LiveProgress(ProgressContext context, RunPlan plan)
        : this(context, plan, ProcessThreads.Of)
    {
    }

    internal LiveProgress(ProgressContext context, RunPlan plan, Func<int, int?> threadCountOf)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(plan);
        _plan = plan;
        _threadCountOf = threadCountOf;
        _overall = context.AddTask("all trials", maxValue: Math.Max(1, plan.TotalTrials));
        _current = context.AddTask("starting", maxValue: 1);
        _timer = new Timer(_ => ShowThreads(), null, ThreadCountInterval, ThreadCountInterval);
    }

    public void RunStarting(RunPlan plan)
    {
        // A degree search may have changed the plan's variants since the display was made.
        ArgumentNullException.ThrowIfNull(plan);
        _plan = plan;
        _overall.MaxValue = Math.Max(1, plan.TotalTrials);
    }

    /// <summary>The rows above the bars: what each variant of the scenario under way has measured so far.</summary>
    public LiveTable Table { get; } = new();

    public void DegreeProbed(string scenario, string variant, int trials, double? medianMs)
    {
        var said = medianMs is { } m ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"median {m:0.0} ms") : "no trial succeeded";
        _current.Description = Markup.Escape($"searching degrees: {scenario} {variant}, {said}");
    }

    public void ProbeTrialFinished(string scenario, string variant, int probeTrials, double? wallMs)
    {
        var said = wallMs is { } w ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{w:0.0} ms") : "failed";
        var count = $"{probeTrials} probe trial{(probeTrials == 1 ? "" : "s")}";
        _current.Description = Markup.Escape($"searching degrees: {count} so far, the last {scenario} {variant} ({said})");
    }

    public void TrialStarting(TrialProgress progress)
    {
        ArgumentNullException.ThrowIfNull(progress);
        if (progress.Scenario != _tableScenario && _plan.Scenarios.FirstOrDefault(s => s.Scenario.Name == progress.Scenario) is { } scenario)
        {
            _tableScenario = progress.Scenario;
            Table.Begin(progress.Scenario, scenario.Variants.Select(v => v.Name), _plan.Settings.Repeat);
        }

        lock (_lock)
        {
            _generation++;
            _running = true;
            _trial = $"{progress.Scenario} {progress.Variant} {progress.Kind}";
            _peak = null;
            _processId = null;
            _current.Description = Markup.Escape(_trial);
        }

        _current.Value = 0;
    }

    public void TrialProcessStarted(TrialProgress progress, int processId)
    {
        lock (_lock)
        {
            _processId = processId;
        }
    }

    public void TrialFinished(TrialProgress progress, TrialResult result)
    {
        // The line keeps the peak: a reading now would catch the process exiting, down to its last thread.
        lock (_lock)
        {
            _generation++;
            _running = false;
            _processId = null;
            _current.Description = Markup.Escape(Describe(_trial, threads: null, _peak));
        }

        _current.Value = 1;
        _overall.Increment(1);
        if (!progress.Warmup)
        {
            Table.Add(progress.Scenario, progress.Variant, result);
        }
    }

    // The trials it will not run count as done, so the bar still ends full.
    public void VariantStopped(string scenario, string variant, EarlyStop stop)
    {
        ArgumentNullException.ThrowIfNull(stop);
        _overall.Increment(Math.Max(0, stop.Planned - stop.Trials));
        Table.Stopped(scenario, variant, stop);
    }

    public void ScenarioFinished(ScenarioRecord scenario)
    {
    }

    /// <summary>The trial line: what runs, and its threads now and at their highest so far; once it has finished, only the peak.</summary>
    internal static string Describe(string trial, int? threads, int? peak) => (threads, peak) switch
    {
        ({ } now, _) => string.Create(CultureInfo.InvariantCulture, $"{trial}: {now} threads (peak {peak ?? now})"),
        (null, { } highest) => string.Create(CultureInfo.InvariantCulture, $"{trial}: peak {highest} threads"),
        _ => trial,
    };

    private void ShowThreads()
    {
        int generation;
        int id;
        lock (_lock)
        {
            if (!_running || _processId is not { } started)
            {
                return;
            }

            generation = _generation;
            id = started;
        }

        try
        {
            if (_threadCountOf(id) is not { } threads)
            {
                return;
            }

            lock (_lock)
            {
                if (generation != _generation)
                {
                    return;
                }

                _peak = Math.Max(_peak ?? 0, threads);
                _current.Description = Markup.Escape(Describe(_trial, threads, _peak));
            }
        }
#pragma warning disable CA1031 // An exception on a timer thread would end the process and lose the run: the display is not worth that.
        catch (Exception)
#pragma warning restore CA1031
        {
            _timer.Change(Timeout.Infinite, Timeout.Infinite);
        }
    }

    public void Dispose()
    {
        lock (_lock)
        {
            _generation++;
        }

        _timer.Dispose();
    }
}
