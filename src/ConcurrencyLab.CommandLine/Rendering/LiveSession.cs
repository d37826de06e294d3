using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// The live view for a run whose caller does not hold the display (each of <c>reproduce</c>'s runs): it begins as the
/// run starts and ends with its last scenario, or when disposed (a run cancelled or failed before then), so the lines
/// the caller prints between runs never meet a display still drawing.
/// </summary>
internal sealed class LiveSession : IRunObserver, IDisposable
{
    private readonly IAnsiConsole _console;
    private LiveProgress? _live;
    private TaskCompletionSource? _end;
    private Task? _display;
    private int _scenariosLeft;

    public LiveSession(IAnsiConsole console) => _console = console ?? throw new ArgumentNullException(nameof(console));

    /// <summary>How often the live view redraws: a few times a second, so watching costs the trials little.</summary>
    internal static readonly TimeSpan LiveRefresh = TimeSpan.FromMilliseconds(250);

    /// <summary>Whether <paramref name="console"/> can show the live view: a terminal that takes ANSI, and no <c>--plain</c>.</summary>
    internal static bool Possible(IAnsiConsole console, bool plain) =>
        !plain && console.Profile.Capabilities.Interactive && console.Profile.Out.IsTerminal && console.Profile.Capabilities.Ansi;

    /// <summary>The same bars and rows as <c>conclab run</c>'s live view, on <paramref name="console"/>, for a run of
    /// <paramref name="plan"/>.</summary>
    internal static Task Show(IAnsiConsole console, RunPlan plan, Func<LiveProgress, Task> body)
    {
        LiveProgress? live = null;
        var progress = console.Progress();
        progress.RefreshRate = LiveRefresh;
        return progress
            .AutoClear(true)
            .Columns(new TaskDescriptionColumn(), new ProgressBarColumn(), new PercentageColumn(), new ElapsedTimeColumn(), new RemainingTimeColumn())

            // Each variant's row above the bars, where the terminal has room for it; the bars alone where it has not.
            .UseRenderHook((bars, _) => Volatile.Read(ref live)?.Table.Render(console.Profile.Width, console.Profile.Height) is { } table
                ? new Rows(table, bars) : bars)
            .StartAsync(async context =>
            {
                using var observer = new LiveProgress(context, plan);
                Volatile.Write(ref live, observer);
                await body(observer).ConfigureAwait(false);
            });
    }

    public void RunStarting(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (_live is not null)
        {
            _live.RunStarting(plan);
            return;
        }

        var ready = new TaskCompletionSource<LiveProgress>(TaskCreationOptions.RunContinuationsAsynchronously);
        _end = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _scenariosLeft = plan.Scenarios.Count;
        var end = _end.Task;
        _display = Show(_console, plan, live =>
        {
            ready.TrySetResult(live);
            return end;
        });

        // The display is up before the first trial starts: the runner calls one at a time, and waits here.
        _live = Task.WhenAny(ready.Task, _display).GetAwaiter().GetResult() == ready.Task ? ready.Task.Result : null;
        _live?.RunStarting(plan);
    }

    public void TrialStarting(TrialProgress progress) => _live?.TrialStarting(progress);

    public void TrialProcessStarted(TrialProgress progress, int processId) => _live?.TrialProcessStarted(progress, processId);

    public void TrialChildStarted(TrialProgress progress, int processId) => ((IRunObserver?)_live)?.TrialChildStarted(progress, processId);

    public void TrialFinished(TrialProgress progress, TrialResult result) => _live?.TrialFinished(progress, result);

    public void VariantStopped(string scenario, string variant, EarlyStop stop) => _live?.VariantStopped(scenario, variant, stop);

    public void DegreeProbed(string scenario, string variant, int trials, double? medianMs)
        => _live?.DegreeProbed(scenario, variant, trials, medianMs);

    public void ProbeTrialFinished(string scenario, string variant, int probeTrials, double? wallMs)
        => _live?.ProbeTrialFinished(scenario, variant, probeTrials, wallMs);

    public void ScenarioFinished(ScenarioRecord scenario)
    {
        _live?.ScenarioFinished(scenario);
        if (--_scenariosLeft <= 0)
        {
            End();
        }
    }

    /// <summary>Ends the display if the run did not: it is gone from the terminal when this returns.</summary>
    public void Dispose() => End();

    private void End()
    {
        _end?.TrySetResult();
        try
        {
            _display?.GetAwaiter().GetResult();
        }
#pragma warning disable CA1031 // The display's failure costs the view, never the run's results.
        catch (Exception)
#pragma warning restore CA1031
        {
        }

        _display = null;
        _live = null;
    }
}
