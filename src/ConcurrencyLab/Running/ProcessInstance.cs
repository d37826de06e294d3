using System.Diagnostics;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Running;

/// <summary>
/// One process, told from a later one under the same id by its start time: a trial's process that may still be exiting
/// when the next one starts, or a service a trial started.
/// <para>
/// A process ends its runtime's event sessions as it exits, and each waits out its streaming thread's 100 ms sleep:
/// 100-200 ms a trial with the runtime's account on, all of it idle. So the runner starts the next trial's process once
/// a trial has written its result, and the next trial waits, just before its region (a trial with services: before they
/// start measuring), for the runner's word that it has finished with this one (its exit, its account), then checks that
/// this one is gone (for at most <see cref="MostWait"/>), so neither the process before nor the runner's work on it
/// shares a region.
/// </para>
/// </summary>
/// <param name="ProcessId">The process's id.</param>
/// <param name="StartTime">Its start time, which tells it from a later process under the same id.</param>
internal sealed record ProcessInstance(int ProcessId, string StartTime)
{
    /// <summary>The longest a region waits for the process before it to be gone.</summary>
    public static readonly TimeSpan MostWait = TimeSpan.FromSeconds(10);

    /// <summary>Whether the process still runs (one exited but not yet reaped counts as gone).</summary>
    public bool IsRunning() => ProcessIdentity.StartTimeOf(ProcessId) == StartTime;

    /// <summary>Waits until the process is gone, checking each millisecond, for at most <see cref="MostWait"/>; returns whether it is gone.</summary>
    public bool WaitUntilGone()
    {
        var waited = Stopwatch.StartNew();
        while (IsRunning())
        {
            if (waited.Elapsed >= MostWait)
            {
                return false;
            }

            Thread.Sleep(1);
        }

        return true;
    }
}
