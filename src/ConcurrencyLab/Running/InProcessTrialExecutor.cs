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
    /// <inheritdoc/>
    public bool Isolated => false;

    /// <summary>Set once a trial has been abandoned after its timeout.</summary>
    public bool AbandonedTrial { get; private set; }

    /// <summary>Runs the trial on a pool thread of this process, whose id <paramref name="processStarted"/> is told (its threads include the runner's own).</summary>
    public async Task<TrialResult> RunAsync(Scenario scenario, TrialRequest request, TimeSpan timeout, Action<int>? processStarted = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(request);
        processStarted?.Invoke(Environment.ProcessId);
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
