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
    /// Runs the trial <paramref name="launch"/> describes. Never throws for a failed, crashed or hung trial: those come
    /// back as a <see cref="TrialResult"/> with status failed or timeout.
    /// </summary>
    Task<TrialResult> RunAsync(TrialLaunch launch, CancellationToken cancellationToken = default);
}

/// <summary>One trial to run, and whom to tell as it goes.</summary>
/// <param name="Scenario">The scenario the trial belongs to.</param>
/// <param name="Request">What the trial runs: the variant, its parameters, its seed and its place in the run.</param>
/// <param name="Timeout">How long its measured region may last.</param>
internal sealed record TrialLaunch(Scenario Scenario, TrialRequest Request, TimeSpan Timeout)
{
    /// <summary>Told the id of the process the trial runs in, once it runs.</summary>
    public Action<int>? ProcessStarted { get; init; }

    /// <summary>Told each process the trial starts and names (its services).</summary>
    public Action<int>? ChildStarted { get; init; }

    /// <summary>
    /// Told, at most once, when the trial's process (given with its start time) has written its result and only its
    /// exit and the account of its events remain: a runner may start the next trial's process then (an executor that
    /// cannot tell never calls it).
    /// </summary>
    public Action<ProcessInstance>? Measured { get; init; }

    /// <summary>
    /// The runner finishing the trial before (its exit, its account): a trial's process, told of that trial in
    /// <see cref="TrialRequest.After"/>, begins its region only once it has ended, so the runner's work on one trial
    /// never falls in the next one's region.
    /// </summary>
    public Task? Before { get; init; }
}

/// <summary>Chooses the executor a run's options ask for.</summary>
internal static class TrialExecutors
{
    /// <summary>Fresh child processes of this program, or this process with <see cref="RunOptions.InProcess"/>.</summary>
    public static ITrialExecutor For(RunOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.InProcess ? new InProcessTrialExecutor()
            : new ChildProcessTrialExecutor(SelfLauncher.Current(), options.Events, options.RuntimeEnvironment);
    }
}
