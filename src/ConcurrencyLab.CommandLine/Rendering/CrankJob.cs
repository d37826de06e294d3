using ConcurrencyLab.Hosting;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// conclab as a crank job (<c>--crank</c>, or under crank's agent): the agent learns of a child process from a line
/// <c>##ChildProcessId:PID</c> on standard error and measures its CPU and memory (it tracks the last one named), and
/// reads the job's own figures from the block <see cref="CrankStatistics"/> writes last on standard output.
/// </summary>
internal static class CrankJob
{
    /// <summary>The variable crank's agent sets for every job it starts.</summary>
    public const string JobVariable = "CRANK_JOB_ID";

    /// <summary>Whether this process was started by crank's agent.</summary>
    public static bool IsRunning() => !string.IsNullOrEmpty(Environment.GetEnvironmentVariable(JobVariable));

    /// <summary><paramref name="observer"/>, telling crank each trial's process besides when <paramref name="crank"/>.</summary>
    public static IRunObserver Observing(IRunObserver observer, bool crank) => crank ? new ChildAnnouncer(observer) : observer;

    /// <summary>Names <paramref name="processId"/> to the agent, on standard error.</summary>
    public static void Announce(int processId) => ChildAnnouncement.Announce(processId);

    /// <summary>Writes the statistics block of <paramref name="run"/> to standard output, after everything else.</summary>
    public static Task WriteAsync(RunResult run) => WriteLastAsync(CrankStatistics.Block(run, DateTimeOffset.UtcNow));

    /// <summary>Writes the statistics block of <paramref name="reproduction"/> to standard output, after everything else.</summary>
    public static Task WriteAsync(ConcurrencyLab.Reproduction.ReproductionResult reproduction) =>
        WriteLastAsync(ConcurrencyLab.Reproduction.ReproductionCrankStatistics.Block(reproduction, DateTimeOffset.UtcNow));

    // After everything else written so far, so nothing lands after the block, where the agent stops reading; past
    // the guard that breaks every marker anything else prints.
    private static Task WriteLastAsync(string block)
    {
        ProtocolLines.FlushAll();
        ProtocolLines.Write(error: false, block);
        return Task.CompletedTask;
    }

    // Every call passed on; a trial's own process (not this one, when trials run in-process) named on standard error.
    private sealed class ChildAnnouncer(IRunObserver inner) : IRunObserver
    {
        public void RunStarting(RunPlan plan) => inner.RunStarting(plan);

        public void TrialStarting(TrialProgress progress) => inner.TrialStarting(progress);

        public void TrialProcessStarted(TrialProgress progress, int processId)
        {
            if (processId != Environment.ProcessId)
            {
                Announce(processId);
            }

            inner.TrialProcessStarted(progress, processId);
        }

        // Named after the trial's process, so the agent, which follows the last one named, follows the service.
        public void TrialChildStarted(TrialProgress progress, int processId)
        {
            Announce(processId);
            inner.TrialChildStarted(progress, processId);
        }

        public void TrialFinished(TrialProgress progress, TrialResult result) => inner.TrialFinished(progress, result);

        public void DegreeProbed(string scenario, string variant, int trials, double? medianMs)
            => inner.DegreeProbed(scenario, variant, trials, medianMs);

        public void ProbeTrialFinished(string scenario, string variant, int probeTrials, double? wallMs)
            => inner.ProbeTrialFinished(scenario, variant, probeTrials, wallMs);

        public void ScenarioFinished(ScenarioRecord scenario) => inner.ScenarioFinished(scenario);
    }
}
