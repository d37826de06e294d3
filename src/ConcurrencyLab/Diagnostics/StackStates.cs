namespace ConcurrencyLab.Diagnostics;

/// <summary>What a sampled stack says its thread was doing.</summary>
internal enum StackState
{
    /// <summary>Running code, or ready to.</summary>
    Running,

    /// <summary>Blocked in a managed wait.</summary>
    Waiting,

    /// <summary>In <c>Thread.Sleep</c>.</summary>
    Sleeping,

    /// <summary>In a synchronous I/O call.</summary>
    Io,

    /// <summary>A pool thread with no work, waiting for some: not the work's.</summary>
    Idle,

    /// <summary>One of the runtime's own threads (the pool's gate and wait threads, the timer, the finalizer): not the work's.</summary>
    Runtime,

    /// <summary>
    /// A stack with frames the trace never named, from a process that ended while it was watched: the runtime names its
    /// precompiled code only as a session ends, so whether the thread was blocked, idle or running cannot be told.
    /// </summary>
    Unnamed,
}

/// <summary>
/// Reads a sampled stack (method names, the innermost frame first, as TraceEvent writes them) into the state its
/// thread was in and where: the framework's blocking method and the first frame of other code above it. The rules
/// are by name, from what the runtime's own libraries block in on .NET 8 to 10; a frame they do not know reads as
/// running, so a state is never claimed it was not seen in.
/// </summary>
internal static class StackStates
{
    // The framework's methods a thread blocks in, by the state they mean, matched on the name before its arguments.
    private static readonly string[] Sleeps = ["System.Threading.Thread.Sleep"];

    private static readonly string[] Waits =
    [
        "System.Threading.Monitor.Wait", "System.Threading.Monitor.Enter", "System.Threading.Monitor.ReliableEnter",
        "System.Threading.Monitor.TryEnter", "System.Threading.Lock.Enter", "System.Threading.Lock.EnterAndGetCurrentThreadId",
        "System.Threading.Lock.TryEnterSlow", "System.Threading.WaitHandle.Wait", "System.Threading.LowLevelLifoSemaphore.Wait",
        "System.Threading.LowLevelMonitor.Wait", "System.Threading.ManualResetEventSlim.Wait", "System.Threading.SemaphoreSlim.Wait",
        "System.Threading.Thread.Join", "System.Threading.Tasks.Task.Wait", "System.Threading.Tasks.Task.InternalWait",
        "System.Threading.Tasks.Task.SpinThenBlockingWait",
    ];

    // System calls that move data or wait on a descriptor; a thread whose innermost frame is one is in the kernel.
    private static readonly HashSet<string> IoCalls = new(StringComparer.Ordinal)
    {
        "Read", "PRead", "PReadV", "Write", "PWrite", "PWriteV", "Receive", "ReceiveMessage", "Send", "SendMessage", "SendFile",
        "Connect", "Accept", "Poll", "PollEvents", "Select", "FSync", "FLock", "Open", "Stat", "LStat", "FStat",
    };

    /// <summary>Whether <paramref name="frames"/> are a pool worker's: its stack starts at the pool's worker loop.</summary>
    public static bool OnPool(IReadOnlyList<string> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        return frames.Any(n => n.Contains("PortableThreadPool+WorkerThread.WorkerThreadStart", StringComparison.Ordinal));
    }

    /// <summary>The state <paramref name="frames"/> show, the framework's method the thread blocked in (or null), and
    /// the first other frame above it (or null).</summary>
    public static (StackState State, string? Api, string? Site) Read(IReadOnlyList<string> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        var names = frames.Select(Name).ToList();
        if (names.Any(
            n => n.Contains("PortableThreadPool+GateThread", StringComparison.Ordinal)
                || n.Contains("PortableThreadPool+WaitThread", StringComparison.Ordinal)
            || n.StartsWith("System.Threading.TimerQueue.TimerThread", StringComparison.Ordinal)
                || n.Contains("FinalizerThread", StringComparison.Ordinal)))
        {
            return (StackState.Runtime, null, null);
        }

        // A pool worker between work items waits on the pool's semaphore, outside any item.
        if (names.Any(n => n.Contains("PortableThreadPool+WorkerThread.WorkerThreadStart", StringComparison.Ordinal))
            && !names.Any(n => n.StartsWith("System.Threading.ThreadPoolWorkQueue.Dispatch", StringComparison.Ordinal)))
        {
            return (StackState.Idle, null, null);
        }

        // The first frame of code outside the framework: the caller of the blocking API, which is the framework frame
        // below it. A stack of the framework's alone in a work item names the innermost frame, the call it is in;
        // outside any work item it is a thread the libraries keep for themselves (the sockets' event loop, a
        // server's heartbeat), not the work's.
        var site = SiteFrame(names);
        var inItem = names.Any(n => n.StartsWith("System.Threading.ThreadPoolWorkQueue.Dispatch", StringComparison.Ordinal));
        if (site < 0 && !inItem && names.Count > 0)
        {
            return (StackState.Runtime, null, null);
        }

        var framework = site < 0 ? names : names[..site];
        var api = site > 0 ? framework[^1] : names.Count > 0 ? names[0] : null;
        var siteName = site < 0 ? null : names[site];

        if (framework.Any(n => Sleeps.Any(s => n.StartsWith(s, StringComparison.Ordinal))))
        {
            return (StackState.Sleeping, api, siteName);
        }

        // In a system call that moves data, or a socket's own wait for one: I/O.
        var top = names.Count > 0 ? names[0] : string.Empty;
        var inIoCall = top.StartsWith("Interop+Sys.", StringComparison.Ordinal) && IoCalls.Contains(top["Interop+Sys.".Length..]);
        var waiting = framework.Any(n => Waits.Any(w => n.StartsWith(w, StringComparison.Ordinal)));
        if (inIoCall || (waiting && framework.Any(n => n.StartsWith("System.Net.Sockets.", StringComparison.Ordinal))))
        {
            return (StackState.Io, api, siteName);
        }

        return waiting ? (StackState.Waiting, api, siteName) : (StackState.Running, null, null);
    }

    /// <summary>
    /// Whether a stack read as <paramref name="state"/> cannot be trusted for it because frames the trace left unnamed
    /// stand where the rules look: between the code's own frame and the top (or anywhere, with no frame of the code's own).
    /// A stack known by a name (an idle pool thread, the runtime's own) stands.
    /// </summary>
    public static bool Unnamed(IReadOnlyList<string> frames, StackState state)
    {
        ArgumentNullException.ThrowIfNull(frames);
        if (state is StackState.Idle or StackState.Runtime)
        {
            return false;
        }

        var own = SiteFrame(frames);
        return (own < 0 ? frames : frames.Take(own)).Any(f => f.Length == 0 || f.StartsWith('?'));
    }

    /// <summary>
    /// Whether the framework's frames at the top of <paramref name="frames"/> were called from a method generated at run
    /// time (<c>dynamicClass</c>: ASP.NET's request delegates): the code that called them was inlined into it.
    /// </summary>
    public static bool CalledFromGenerated(IReadOnlyList<string> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        var first = frames.Select(Name).FirstOrDefault(n => !(n.StartsWith("System.", StringComparison.Ordinal)
            || n.StartsWith("Interop", StringComparison.Ordinal) || n.StartsWith("Internal.", StringComparison.Ordinal)));
        return first is not null && first.StartsWith("dynamicClass.", StringComparison.Ordinal);
    }

    /// <summary>Whether <paramref name="api"/> is a way into a lock (<c>lock</c> on an object or a <c>Lock</c>), whose
    /// contention the runtime reports with its owner.</summary>
    public static bool EntersLock(string? api) =>
        api is not null
            && (api.StartsWith("System.Threading.Monitor.", StringComparison.Ordinal)
                && !api.StartsWith("System.Threading.Monitor.Wait", StringComparison.Ordinal)
            || api.StartsWith("System.Threading.Lock.", StringComparison.Ordinal));

    /// <summary>The index in <paramref name="frames"/> of the first frame of code outside the framework, or -1.</summary>
    public static int SiteFrame(IReadOnlyList<string> frames)
    {
        ArgumentNullException.ThrowIfNull(frames);
        for (var i = 0; i < frames.Count; i++)
        {
            if (!Framework(Name(frames[i])))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>A frame's method without its arguments.</summary>
    public static string Name(string frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        var open = frame.IndexOf('(', StringComparison.Ordinal);
        return open < 0 ? frame : frame[..open];
    }

    // The runtime's libraries, interop stubs, frames the profiler could not name, and methods made at run time
    // (dynamicClass: ASP.NET's request delegates, compiled from expression trees, into which the JIT may inline a
    // small handler; a site named lambda_method3 told a reader nothing).
    private static bool Framework(string name) =>
        name.Length == 0 || name.StartsWith('?') || name.StartsWith("System.", StringComparison.Ordinal)
            || name.StartsWith("Microsoft.", StringComparison.Ordinal)
        || name.StartsWith("Interop", StringComparison.Ordinal) || name.StartsWith("Internal.", StringComparison.Ordinal)
            || name.StartsWith("dynamicClass.", StringComparison.Ordinal);
}
