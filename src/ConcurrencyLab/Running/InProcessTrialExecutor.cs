using System.Globalization;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// Runs trials in the runner's own process, one after another: every trial inherits the threads the
/// earlier ones made the pool inject, as in the published single-process experiments. A trial that
/// outlives the timeout is cancelled and abandoned (a thread cannot be killed); later trials may be
/// disturbed by it, and the run's notes say so.
/// </summary>
public sealed class InProcessTrialExecutor : ITrialExecutor
{
    private volatile bool _running;

    public bool Isolated => false;

    /// <summary>This process, while a trial runs in it; its threads include the runner's own.</summary>
    public int? RunningProcessId => _running ? Environment.ProcessId : null;

    /// <summary>Set once a trial has been abandoned after its timeout.</summary>
    public bool AbandonedTrial { get; private set; }

    public async Task<TrialResult> RunAsync(Scenario scenario, TrialRequest request, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        _running = true;
        try
        {
            return await RunTrialAsync(scenario, request, timeout, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _running = false;
        }
    }

    private async Task<TrialResult> RunTrialAsync(Scenario scenario, TrialRequest request, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);

        // Run on a pool thread so a blocking strategy cannot hold the runner past its deadline.
        var trial = Task.Run(() => TrialHost.RunAsync(request, scenario, isolated: false, deadline.Token), CancellationToken.None);
        using var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var finished = await Task.WhenAny(trial, Task.Delay(timeout, timer.Token)).ConfigureAwait(false);
        if (finished == trial)
        {
            await timer.CancelAsync().ConfigureAwait(false);
            return await trial.ConfigureAwait(false);
        }

        cancellationToken.ThrowIfCancellationRequested();
        await deadline.CancelAsync().ConfigureAwait(false);
        AbandonedTrial = true;
        _ = trial.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
        return TrialResult.Unmeasured(
            TrialStatus.Timeout,
            $"abandoned after the trial timeout of {timeout.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture)} s (in-process: its threads may still run)",
            isolated: false) with { Repeat = request.Repeat };
    }
}
