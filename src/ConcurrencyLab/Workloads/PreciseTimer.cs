using System.Diagnostics;

namespace ConcurrencyLab.Workloads;

/// <summary>
/// Completes asynchronous waits on time, like an I/O device whose replies arrive after an exact latency:
/// one dedicated thread keeps the due waits in order, sleeps until the earliest, and completes its task,
/// whose continuation then runs on the thread pool as a socket completion would.
/// </summary>
/// <remarks>
/// Task.Delay cannot serve as the ideal's yardstick on Linux: it keeps time with Environment.TickCount64,
/// which moves in 4 ms steps there, so a wait ends anywhere from one step early to one step late. This
/// timer is read with Stopwatch and never ends a wait early, so the longest delay really is a lower bound.
/// </remarks>
internal sealed partial class PreciseTimer
{
    // Below this, sleeping on a condition variable overshoots more than the wait itself; spin instead.
    private static readonly long SpinThreshold = Stopwatch.Frequency / 1000;

    private readonly object _gate = new();
    private readonly PriorityQueue<TaskCompletionSource, long> _due = new();
    private readonly List<TaskCompletionSource> _ready = [];

    private PreciseTimer()
    {
        var thread = new Thread(Loop) { IsBackground = true, Name = "conclab precise timer", Priority = ThreadPriority.Highest };
        thread.Start();
    }

    /// <summary>The process's one timer; created by the first workload that needs it, before any trial is measured.</summary>
    public static PreciseTimer Shared { get; } = new();

    /// <summary>A task that completes no sooner than <paramref name="delayMs"/> from now.</summary>
    public Task WaitAsync(int delayMs)
    {
        var due = Stopwatch.GetTimestamp() + (delayMs * Stopwatch.Frequency / 1000);

        // Continuations must not run on the timer thread, or one slow continuation would delay every later wait.
        var completion = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_gate)
        {
            var earliest = _due.TryPeek(out _, out var first) && due >= first;
            _due.Enqueue(completion, due);
            if (!earliest)
            {
                // The new wait is now the earliest: wake the timer thread so it re-plans its sleep.
                Monitor.Pulse(_gate);
            }
        }

        return completion.Task;
    }

    private void Loop()
    {
        Measurement.LabThreads.EnlistCurrent();

        // The last stretch's sleep, compiled and its library bound now, not on the first wait a trial measures: the first
        // call compiles the method (which would outlast a short stretch), the second sleeps once.
        SpinUntil(0);
        SpinUntil(Stopwatch.GetTimestamp() + (Stopwatch.Frequency / 10_000));
        while (true)
        {
            lock (_gate)
            {
                while (true)
                {
                    if (!_due.TryPeek(out _, out var due))
                    {
                        Monitor.Wait(_gate);
                        continue;
                    }

                    var remaining = due - Stopwatch.GetTimestamp();
                    if (remaining <= 0)
                    {
                        break;
                    }

                    if (remaining <= SpinThreshold)
                    {
                        // Release the lock for the last stretch so callers can still enqueue.
                        Monitor.Exit(_gate);
                        try
                        {
                            SpinUntil(due);
                        }
                        finally
                        {
                            Monitor.Enter(_gate);
                        }

                        continue;
                    }

                    // Wake a little early and spin the rest: a timed wait may overshoot by a fraction of a millisecond.
                    var sleepMs = (int)((remaining - SpinThreshold) * 1000 / Stopwatch.Frequency);
                    Monitor.Wait(_gate, Math.Max(1, sleepMs));
                }

                var now = Stopwatch.GetTimestamp();
                while (_due.TryPeek(out var completion, out var due) && due <= now)
                {
                    _due.Dequeue();
                    _ready.Add(completion);
                }
            }

            // Completed outside the lock; each continuation is queued to the pool.
            foreach (var completion in _ready)
            {
                completion.TrySetResult();
            }

            _ready.Clear();
        }
    }

    /// <summary>
    /// The last stretch before a due time, under a millisecond: Monitor.Wait counts in whole milliseconds,
    /// so on Linux nanosleep covers it without burning the CPU that the trial's process is charged for;
    /// elsewhere the thread spins.
    /// </summary>
    internal static void SpinUntil(long due)
    {
        var spinner = default(SpinWait);
        long remaining;
        while ((remaining = due - Stopwatch.GetTimestamp()) > 0)
        {
            if (OperatingSystem.IsLinux())
            {
                var nanoseconds = remaining * 1_000_000_000 / Stopwatch.Frequency;
                var request = new TimeSpec { Seconds = nanoseconds / 1_000_000_000, Nanoseconds = nanoseconds % 1_000_000_000 };
                _ = NanoSleep(in request, IntPtr.Zero);
            }
            else
            {
                spinner.SpinOnce(sleep1Threshold: -1);
            }
        }
    }

    [System.Runtime.InteropServices.LibraryImport("libc", EntryPoint = "nanosleep")]
    private static partial int NanoSleep(in TimeSpec request, IntPtr remaining);

    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }
}
