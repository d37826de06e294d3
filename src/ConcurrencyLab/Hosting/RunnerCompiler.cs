using System.Globalization;
using System.Runtime.InteropServices;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// Keeps the runner's own JIT off the cores while a trial runs. The runner's code reaches tier 1 in the
/// background: the runtime's tiered compilation worker recompiles whatever the runner called 30 times, some
/// 100 ms after it was called, which is in the next trial's region. Under <c>perf</c> that worker took 70-135 ms of
/// CPU in each of hash's first quick regions (of 380-490 ms on 2 cores). Turning tiered compilation off in the
/// runner would cost it 1-1.5 s of full JIT a run, so instead the worker runs at the lowest priority a process may
/// give itself: the idle scheduling policy (<c>SCHED_IDLE</c>), and nice 19 where that is refused. Nice 19 alone was
/// not enough: in two of six CPU-bound mix regions the worker kept a core to itself for the region's first 60-80 ms
/// while the trial's two threads shared the other, and those trials took 238 ms against 199-209. The kernel counts a
/// core running only idle-policy threads as idle, so a trial's waking thread is placed there and runs at once: with
/// the policy, the slowest of eight such trials took 215-224 ms where they had taken 258-263. Only
/// that thread is lowered, since a process started from a lowered thread would inherit its policy. It stays lowered
/// between trials too: a process may not raise its own priority again.
/// </summary>
internal static partial class RunnerCompiler
{
    /// <summary>The nice value the worker gets: the lowest priority.</summary>
    public const int Nice = 19;

    /// <summary>How often the worker is looked for while a trial runs: the runtime ends it after 4 s idle and starts another.</summary>
    public static readonly TimeSpan Period = TimeSpan.FromMilliseconds(250);

    // The runtime names the thread ".NET Tiered Compilation Worker"; the kernel keeps the first 15 bytes.
    private const string WorkerName = ".NET Tiered Com";
    private const int PriorityOfProcess = 0;

    /// <summary>Linux's idle scheduling policy: the thread runs only when nothing else wants the core.</summary>
    public const int IdlePolicy = 5;

    /// <summary>Lowers every compilation worker this process has now; returns how many it lowered (0 off Linux).</summary>
    public static int Lower()
    {
        var lowered = 0;
        foreach (var id in Workers())
        {
            try
            {
                // Both: the policy where it is allowed, and the nice value, which also holds should the policy be refused.
                var idle = SetScheduler(id, IdlePolicy, new SchedulingParameters()) == 0;
                if (SetPriority(PriorityOfProcess, id, Nice) == 0 || idle)
                {
                    lowered++;
                }
            }
            catch (Exception ex) when (ex is EntryPointNotFoundException or DllNotFoundException)
            {
                return 0;
            }
        }

        return lowered;
    }

    /// <summary>Lowers the worker now and every <see cref="Period"/> until disposed (a no-op off Linux).</summary>
    public static IDisposable KeepLowered()
        => OperatingSystem.IsLinux() ? new Timer(_ => LowerQuietly(), null, TimeSpan.Zero, Period) : NoTimer.Instance;

    // On the timer's thread, where an exception would end the runner: lowering is a courtesy to the trial, never a reason to stop.
    private static void LowerQuietly()
    {
        try
        {
            Lower();
        }
#pragma warning disable CA1031 // Nothing a failed lowering could do is worth the run.
        catch (Exception)
#pragma warning restore CA1031
        {
        }
    }

    /// <summary>The OS ids of this process's compilation workers.</summary>
    public static IReadOnlyList<int> Workers()
    {
        if (!OperatingSystem.IsLinux())
        {
            return [];
        }

        var ids = new List<int>();
        try
        {
            foreach (var task in Directory.EnumerateDirectories("/proc/self/task"))
            {
                if (int.TryParse(Path.GetFileName(task), NumberStyles.None, CultureInfo.InvariantCulture, out var id) && NameOf(task) is { } name
                    && name.StartsWith(WorkerName, StringComparison.Ordinal))
                {
                    ids.Add(id);
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // /proc is not mounted or not ours to read: nothing is lowered.
        }

        return ids;
    }

    private static string? NameOf(string task)
    {
        try
        {
            return File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n');
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // The thread ended while the folder was read.
            return null;
        }
    }

    [LibraryImport("libc", EntryPoint = "setpriority")]
    private static partial int SetPriority(int which, int who, int priority);

    [LibraryImport("libc", EntryPoint = "sched_setscheduler")]
    private static partial int SetScheduler(int pid, int policy, in SchedulingParameters parameters);

    // struct sched_param: only the static priority, which is 0 for every policy but the real-time ones.
    [StructLayout(LayoutKind.Sequential)]
    private readonly struct SchedulingParameters
    {
        public readonly int Priority;
    }

    private sealed class NoTimer : IDisposable
    {
        public static readonly NoTimer Instance = new();

        public void Dispose()
        {
        }
    }
}
