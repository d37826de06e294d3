using ConcurrencyLab.Results;

namespace ConcurrencyLab.Running;

/// <summary>
/// Runs trials in the runner's own process, one after another: every trial inherits the threads the
/// earlier ones made the pool inject, as in the published single-process experiments. A trial whose
/// measured region outlives the timeout (or that does not reach it within the start-up allowance) is
/// cancelled and abandoned (a thread cannot be killed); later trials may be disturbed by it, and the
/// run's notes say so.
/// </summary>
internal sealed class InProcessTrialExecutor : ITrialExecutor
{
    /// <inheritdoc/>
    public bool Isolated => false;

    /// <summary>Set once a trial has been abandoned after its timeout.</summary>
    public bool AbandonedTrial { get; private set; }

    /// <summary>Runs the trial on a pool thread of this process, whose id <see cref="TrialLaunch.ProcessStarted"/> is
    /// told (its threads include the runner's own).</summary>
    public async Task<TrialResult> RunAsync(TrialLaunch launch, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(launch);
        var (scenario, request, timeout) = (launch.Scenario, launch.Request, launch.Timeout);
        var processStarted = launch.ProcessStarted;
        ArgumentNullException.ThrowIfNull(request);
        processStarted?.Invoke(Environment.ProcessId);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var watch = new TrialWatch(timeout, RunOptions.TrialStartUpAllowance);

        // Run on a pool thread so a blocking strategy cannot hold the runner past its deadline.
        var trial = Task.Run(() => TrialHost.RunAsync(request, scenario, isolated: false, watch, deadline.Token), CancellationToken.None);
        string? overrun;
        while ((overrun = watch.Overrun()) is null)
        {
            if (await Task.WhenAny(trial, Task.Delay(watch.PollInterval, cancellationToken)).ConfigureAwait(false) == trial)
            {
                // The region's clock and the lab's threads travel to a runner reading events; none is read here.
                return (await trial.ConfigureAwait(false)).WithoutPlumbing();
            }

            cancellationToken.ThrowIfCancellationRequested();
        }

        await deadline.CancelAsync().ConfigureAwait(false);
        AbandonedTrial = true;
        _ = trial.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
        return TrialResult.Unmeasured(
            TrialStatus.Timeout,
            $"abandoned: {overrun} (in-process: its threads may still run)",
            isolated: false) with { Repeat = request.Repeat };
    }
}
