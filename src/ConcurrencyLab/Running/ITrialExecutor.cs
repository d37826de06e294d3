using ConcurrencyLab.Hosting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>Runs one trial somewhere (a fresh child process, or this process) within a time limit.</summary>
internal interface ITrialExecutor
{
    /// <summary>Whether trials run in fresh processes.</summary>
    bool Isolated { get; }

    /// <summary>
    /// Runs <paramref name="request"/>, telling <paramref name="processStarted"/> the id of the process the trial
    /// runs in once it runs, and <paramref name="childStarted"/> each process the trial starts and names (its services). Never throws for a failed, crashed or hung trial: those come back as a
    /// <see cref="TrialResult"/> with status failed or timeout. <paramref name="measured"/> is told, at most once, when the
    /// trial's process (given with its start time) has written its result and only its exit and the account of its events remain: a runner may start
    /// the next trial's process then (an executor that cannot tell never calls it). Given <paramref name="before"/> (the
    /// runner finishing the trial before: its exit, its account), a trial's process, told of that trial in
    /// <see cref="TrialRequest.After"/>, begins its region only once it has ended, so the runner's work on one trial
    /// never falls in the next one's region.
    /// </summary>
    Task<TrialResult> RunAsync(Scenario scenario, TrialRequest request, TimeSpan timeout, Action<int>? processStarted = null, Action<int>? childStarted = null, Action<PreviousTrial>? measured = null, Task? before = null, CancellationToken cancellationToken = default);
}

/// <summary>Chooses the executor a run's options ask for.</summary>
internal static class TrialExecutors
{
    /// <summary>Fresh child processes of this program, or this process with <see cref="RunOptions.InProcess"/>.</summary>
    public static ITrialExecutor For(RunOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.InProcess ? new InProcessTrialExecutor() : new ChildProcessTrialExecutor(SelfLauncher.Current(), options.Events, options.RuntimeEnvironment);
    }
}
