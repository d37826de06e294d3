using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.CommandLine.Why;

/// <summary>
/// The .NET programs a watched program starts (<c>dotnet test</c>'s test host, a worker it spawns), found among its
/// descendants in <c>/proc</c> ten times a second and attached to at their runtime's own diagnostics socket, as
/// <c>--pid</c> attaches. A child is not held at its start (the watched program's own children never wait on a port
/// nobody answers), so its first tenths of a second may go unseen; a child that is not .NET is left alone.
/// </summary>
internal sealed class ChildWatch : IAsyncDisposable
{
    /// <summary>The most children watched at once: each costs the stack profiler's samples in its own process.</summary>
    public const int MostChildren = 8;

    /// <summary>How long a new descendant has to show a diagnostics socket before it is taken as not .NET.</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(3);

    private readonly int _root;
    private readonly RuntimeEvents _level;
    private readonly long _windowStart;
    private readonly CancellationTokenSource _stop = new();
    private readonly Dictionary<int, long> _pending = [];
    private readonly HashSet<int> _done = [];
    private readonly List<Child> _children = [];
    private readonly Task _polling;
    private int _notWatched;

    private ChildWatch(int root, RuntimeEvents level, long windowStart)
    {
        (_root, _level, _windowStart) = (root, level, windowStart);
        _polling = OperatingSystem.IsLinux() ? Task.Run(PollAsync) : Task.CompletedTask;
    }

    /// <summary>Starts looking for the .NET descendants of <paramref name="root"/>, the window having begun at
    /// <paramref name="windowStart"/>.</summary>
    public static ChildWatch Start(int root, RuntimeEvents level, long windowStart) => new(root, level, windowStart);

    /// <summary>
    /// Ends the watch at <paramref name="end"/> (Stopwatch ticks): the sessions of children still running are stopped (the
    /// children run on; a started program's tree is stopped after), and each child's account is read.
    /// </summary>
    public async Task<IReadOnlyList<(WatchedChild Child, RuntimeAccount Account)>> FinishAsync(long end)
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await _polling.ConfigureAwait(false);
        var accounts = new List<(WatchedChild, RuntimeAccount)>();
        foreach (var child in _children)
        {
            var ended = child.Exited is not null ? "it exited" : "it ran on past the watch";
            if (child.Exited is null)
            {
                await child.Session.StopAsync().ConfigureAwait(false);
            }

            var stop = child.Exited ?? end;
            var account = await child.Session.AccountAsync(child.Start, stop, complete: true, note: null).ConfigureAwait(false);
            accounts.Add((new WatchedChild
            {
                ProcessId = child.ProcessId,
                CommandLine = child.CommandLine,
                StartMs = Math.Round(Ms(child.Start - _windowStart), 1),
                WindowMs = Math.Round(Ms(stop - child.Start), 1),
                Ended = ended,
            }, account));
        }

        return accounts;
    }

    /// <summary>Children found but not watched, past <see cref="MostChildren"/> or because attaching failed.</summary>
    public int NotWatched => _notWatched;

    private static double Ms(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;

    private async Task PollAsync()
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(100));
        try
        {
            do
            {
                Look();
            }
            while (await timer.WaitForNextTickAsync(_stop.Token).ConfigureAwait(false));
        }
        catch (OperationCanceledException)
        {
        }
    }

    private void Look()
    {
        var now = Stopwatch.GetTimestamp();
        foreach (var child in _children.Where(c => c.Exited is null && !Alive(c.ProcessId)))
        {
            child.Exited = now;
        }

        // The runtimes' published sockets, listed once a poll rather than once for each process still waited on.
        var published = ProgramChecks.Published();
        foreach (var id in Descendants(_root).Where(id => !_done.Contains(id)))
        {
            var first = _pending.TryGetValue(id, out var seen) ? seen : _pending[id] = now;
            if (!published.Contains(id) || ProgramChecks.Problem(id, published) is not null)
            {
                // Not (yet) a runtime with a socket: a .NET program publishes its socket within a moment of starting.
                if (Stopwatch.GetElapsedTime(first, now) > Patience)
                {
                    _done.Add(id);
                }

                continue;
            }

            _done.Add(id);
            if (_children.Count >= MostChildren || RuntimeEventSession.AttachTo(id, _level, readPoolQueue: true) is not { } session)
            {
                _notWatched++;
                continue;
            }

            _children.Add(new Child(id, CommandLine(id), session, Stopwatch.GetTimestamp()));
        }
    }

    private static IReadOnlyList<string> CommandLine(int id)
    {
        try
        {
            using var process = Process.GetProcessById(id);
            return ProgramChecks.CommandLine(id, process);
        }
        catch (ArgumentException)
        {
            return [$"process {id.ToString(CultureInfo.InvariantCulture)}"];
        }
    }

    // Every live process below the root, from each process's parent in /proc/PID/stat.
    private static List<int> Descendants(int root)
    {
        var parents = new Dictionary<int, List<int>>();
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(folder), NumberStyles.None, CultureInfo.InvariantCulture, out var id) || Parent(id) is not { } parent)
            {
                continue;
            }

            if (!parents.TryGetValue(parent, out var list))
            {
                parents[parent] = list = [];
            }

            list.Add(id);
        }

        var found = new List<int>();
        var next = new Queue<int>([root]);
        while (next.TryDequeue(out var id))
        {
            foreach (var child in parents.GetValueOrDefault(id) ?? [])
            {
                found.Add(child);
                next.Enqueue(child);
            }
        }

        return found;
    }

    private static int? Parent(int id)
    {
        try
        {
            // After the name, which may hold spaces and parentheses: " S PPID ...".
            var stat = File.ReadAllText($"/proc/{id.ToString(CultureInfo.InvariantCulture)}/stat");
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ', 3);
            return fields.Length >= 2 && fields[0] != "Z" && int.TryParse(fields[1], NumberStyles.None, CultureInfo.InvariantCulture, out var parent)
                ? parent : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentOutOfRangeException)
        {
            return null;
        }
    }

    private static bool Alive(int id) => Directory.Exists($"/proc/{id.ToString(CultureInfo.InvariantCulture)}") && Parent(id) is not null;

    /// <inheritdoc/>
    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await _polling.ConfigureAwait(false);
        foreach (var child in _children)
        {
            await child.Session.DisposeAsync().ConfigureAwait(false);
        }

        _stop.Dispose();
    }

    private sealed class Child(int processId, IReadOnlyList<string> commandLine, RuntimeEventSession session, long start)
    {
        public int ProcessId { get; } = processId;

        public IReadOnlyList<string> CommandLine { get; } = commandLine;

        public RuntimeEventSession Session { get; } = session;

        public long Start { get; } = start;

        public long? Exited { get; set; }
    }
}
