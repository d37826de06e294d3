namespace ConcurrencyLab.Measurement;

/// <summary>
/// Which of the runtime's own events (EventPipe, provider <c>Microsoft-Windows-DotNETRuntime</c>) the runner
/// reads from each trial's process, from outside it, for the trial's <see cref="Measurement.RuntimeAccount"/>.
/// </summary>
public enum RuntimeEvents
{
    /// <summary>None: no session, no account.</summary>
    Off,

    /// <summary>The thread pool's decisions (each worker-thread adjustment and its reason, workers started and stopped)
    /// and the GC's pauses.</summary>
    Pool,

    /// <summary>Also every lock contention and every wait on a handle, task or semaphore, with its duration: the time spent blocked.</summary>
    Full,

    /// <summary>
    /// Also the runtime's sample profiler: every managed thread's stack about each millisecond, running or not, read
    /// into thread time by state (running, waiting, sleeping, in I/O calls) and the call sites that blocked. It
    /// costs the trial's process stack walks, and the runner a conversion of the samples after each trial.
    /// </summary>
    Stacks,
}
