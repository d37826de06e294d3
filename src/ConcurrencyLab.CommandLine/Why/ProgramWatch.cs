using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.CommandLine.Why;

/// <summary>
/// Watches one .NET program from outside it, as <c>conclab why</c> does: a program it starts, suspended at the
/// runtime's start until the lab's event sessions are open (so nothing of its life is missed), or one already running,
/// reached at its runtime's own diagnostics socket. Gives the runtime's account of the window watched.
/// </summary>
internal sealed class ProgramWatch
{
    /// <summary>How long a started program's runtime has to connect before the program is taken as not .NET.</summary>
    public static readonly TimeSpan ConnectLimit = TimeSpan.FromSeconds(10);

    private ProgramWatch(WatchedProgram program, RuntimeAccount account, IReadOnlyList<RuntimeAccount> childAccounts, int notWatched)
    {
        Program = program;
        Account = account;
        ChildAccounts = childAccounts;
        ChildrenNotWatched = notWatched;
    }

    /// <summary>What was watched, for how long, and how the window ended.</summary>
    public WatchedProgram Program { get; }

    /// <summary>The runtime's account of the window.</summary>
    public RuntimeAccount Account { get; }

    /// <summary>The account of each child in <see cref="WatchedProgram.Children"/>, in its order.</summary>
    public IReadOnlyList<RuntimeAccount> ChildAccounts { get; }

    /// <summary>.NET children found but not watched: past <see cref="ChildWatch.MostChildren"/>.</summary>
    public int ChildrenNotWatched { get; }

    /// <summary>
    /// Starts <paramref name="command"/> (a file, or a name on PATH) with <paramref name="arguments"/>, its runtime
    /// suspended until the sessions are open, and watches it until it exits, <paramref name="duration"/> passes, or
    /// <paramref name="cancellationToken"/> is cancelled (then the program and its children are stopped too). Throws
    /// <see cref="WatchException"/>, with a one-line reason, for a program that cannot be watched. With
    /// <paramref name="noInline"/>, its JIT inlines nothing (<c>DOTNET_JitNoInline=1</c>), so every method that blocked has a frame.
    /// </summary>
    public static async Task<ProgramWatch> LaunchAsync(
        string command,
        IReadOnlyList<string> arguments,
        RuntimeEvents level,
        TimeSpan? duration,
        bool noInline,
        CancellationToken cancellationToken)
    {
        var session = RuntimeEventSession.Listen(level, out var note, readPoolQueue: true)
            ?? throw new WatchException(note ?? "the runtime's events are off");
        await using (session.ConfigureAwait(false))
        {
            // Its children inherit the environment: the port is taken back from it once its runtime is attached, so
            // a .NET child does not wait, suspended, for a port nobody answers.
            session.KeepPortFromChildren = true;
            var info = new ProcessStartInfo(command) { UseShellExecute = false };
            foreach (var argument in arguments)
            {
                info.ArgumentList.Add(argument);
            }

            session.Configure(info);
            if (noInline)
            {
                // Every call a frame of its own, so a handler inlined into a generated method is named (at a cost in speed).
                info.Environment["DOTNET_JitNoInline"] = "1";
            }

            using var process = StartOrExplain(info, command);
            var started = Stopwatch.GetTimestamp();
            var connected = await Task.WhenAny(session.Attaching, process.WaitForExitAsync(CancellationToken.None), Task.Delay(ConnectLimit,
                CancellationToken.None)).ConfigureAwait(false);
            if (connected != session.Attaching || await session.Attaching.ConfigureAwait(false) is { } refused)
            {
                var exited = process.HasExited ? process.ExitCode.ToString(CultureInfo.InvariantCulture) : null;
                Stop(process);
                throw new WatchException(exited is not null
                    ? $"{command} exited (code {exited}) before a .NET runtime in it connected: it is not a .NET program, or it ended at once"
                    : $"{command} is not a .NET program, or runs with diagnostics off: no runtime connected within " +
                        $"{ConnectLimit.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s, " +
                        "so it was stopped");
            }

            await using var children = ChildWatch.Start(process.Id, level, started);
            var ended = await WatchAsync(process, duration, cancellationToken).ConfigureAwait(false);
            var end = Stopwatch.GetTimestamp();
            var watchedChildren = await children.FinishAsync(end).ConfigureAwait(false);
            if (!process.HasExited)
            {
                // The sessions end first, so the runtime names the code it ran (its rundown), then the program goes, and its children.
                await session.StopAsync().ConfigureAwait(false);
                Stop(process);
                ended += "; the program and its children were stopped with it";
            }

            // Its main thread (on Linux, the thread whose id is the process's) told apart from the rest, as a trial's caller is.
            var account = await session.AccountAsync(null, null, complete: true, note: null, caller: process.Id).ConfigureAwait(false);
            var program = new WatchedProgram
            {
                ProcessId = process.Id,
                CommandLine = [command, .. arguments],
                Launched = true,
                ExitCode = SafeExitCode(process),
                WindowMs = Stopwatch.GetElapsedTime(started, end).TotalMilliseconds,
                Ended = ended,
                Children = [.. watchedChildren.Select(c => c.Child)],
                InliningOff = noInline,
            };
            return new ProgramWatch(program, account, [.. watchedChildren.Select(c => c.Account)], children.NotWatched);
        }
    }

    /// <summary>
    /// Watches the .NET program running as <paramref name="processId"/> for <paramref name="duration"/>, or until it
    /// exits or <paramref name="cancellationToken"/> is cancelled (the program is left running). Throws
    /// <see cref="WatchException"/> for a process that cannot be watched.
    /// </summary>
    public static async Task<ProgramWatch> AttachAsync(int processId, RuntimeEvents level, TimeSpan duration, CancellationToken cancellationToken)
    {
        if (ProgramChecks.Problem(processId) is { } problem)
        {
            throw new WatchException(problem);
        }

        using var process = Process.GetProcessById(processId);

        // Read now: a program that exits in the window takes its command line with it.
        var commandLine = ProgramChecks.CommandLine(processId, process);
        var session = RuntimeEventSession.AttachTo(processId, level, readPoolQueue: true) ?? throw new WatchException("the runtime's events are off");
        await using (session.ConfigureAwait(false))
        {
            if (await session.Attaching.ConfigureAwait(false) is { } refused)
            {
                throw new WatchException(refused);
            }

            var start = Stopwatch.GetTimestamp();
            await using var children = ChildWatch.Start(processId, level, start);
            var ended = await WatchAsync(process, duration, cancellationToken).ConfigureAwait(false);
            var end = Stopwatch.GetTimestamp();
            var watchedChildren = await children.FinishAsync(end).ConfigureAwait(false);
            if (!process.HasExited)
            {
                await session.StopAsync().ConfigureAwait(false);
                ended += "; the program runs on";
            }

            var account = await session.AccountAsync(start, end, complete: true, note: null, caller: processId).ConfigureAwait(false);
            var program = new WatchedProgram
            {
                ProcessId = processId,
                CommandLine = commandLine,
                Launched = false,
                ExitCode = SafeExitCode(process),
                WindowMs = Stopwatch.GetElapsedTime(start, end).TotalMilliseconds,
                Ended = ended,
                Children = [.. watchedChildren.Select(c => c.Child)],
            };
            return new ProgramWatch(program, account, [.. watchedChildren.Select(c => c.Account)], children.NotWatched);
        }
    }

    // Until the program exits, the duration passes, or the user stops the watch: which of them, in a few words.
    private static async Task<string> WatchAsync(Process process, TimeSpan? duration, CancellationToken cancellationToken)
    {
        using var limit = duration is { } d ? new CancellationTokenSource(d) : new CancellationTokenSource();
        using var either = CancellationTokenSource.CreateLinkedTokenSource(limit.Token, cancellationToken);
        try
        {
            await process.WaitForExitAsync(either.Token).ConfigureAwait(false);
            return Exited(process);
        }
        catch (OperationCanceledException)
        {
            return process.HasExited ? Exited(process)
                : cancellationToken.IsCancellationRequested ? "the watch was stopped"
                : $"after {duration!.Value.TotalSeconds.ToString("0.##", CultureInfo.InvariantCulture)} s";
        }
    }

    private static string Exited(Process process) =>
        SafeExitCode(process) is { } code ? $"the program exited with code {code.ToString(CultureInfo.InvariantCulture)}" : "the program exited";

    private static Process StartOrExplain(ProcessStartInfo info, string command)
    {
        try
        {
            return Process.Start(info) ?? throw new WatchException($"{command} could not be started");
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new WatchException($"{command} could not be started: {ex.Message}");
        }
    }

    private static void Stop(Process process)
    {
        try
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
                process.WaitForExit(TimeSpan.FromSeconds(10));
            }
        }
        catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            // Gone already.
        }
    }

    private static int? SafeExitCode(Process process)
    {
        try
        {
            return process.HasExited ? process.ExitCode : null;
        }
        catch (InvalidOperationException)
        {
            // Not our child: its code is not ours to read.
            return null;
        }
    }
}

/// <summary>A program that cannot be watched, said in one line.</summary>
internal sealed class WatchException(string message) : Exception(message);
