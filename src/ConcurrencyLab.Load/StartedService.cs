using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Text;
using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Load;

/// <summary>
/// A user's service the lab started from a command for one variant and repeat: waited for until its ready URL
/// answers, its output kept (the last lines, for an error), its CPU read, and stopped afterwards: SIGTERM first,
/// as a service manager would, then killed with its children if it has not ended within 2 s, and the runtime's
/// diagnostics socket it leaves when killed removed.
/// </summary>
internal sealed partial class StartedService : IAsyncDisposable
{
    private const int KeptLines = 20;
    // A web app ends within a few hundred milliseconds of SIGTERM; one whose pool is starved does not end at all, and
    // waiting 5 s for it cost 10 s of a 90 s run.
    private static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(2);

    private readonly Process _process;
    private readonly string? _startTime;
    private readonly Queue<string> _lines = new();
    private readonly Lock _linesLock = new();
    private bool _stopped;
    private bool _grouped;

    // util-linux's setsid: run by a process that leads no group (a child the runtime just made), it calls setsid() and
    // becomes the command, so the service's process id is its session's and its group's.
    private const string SetSid = "/usr/bin/setsid";
    private List<(int Id, string? Start)> _readyTree = [];

    private StartedService(Process process, long startedAt)
    {
        _process = process;
        StartedAt = startedAt;
        _startTime = ProcessIdentity.StartTimeOf(process.Id);
        process.OutputDataReceived += (_, e) => Keep(e.Data);
        process.ErrorDataReceived += (_, e) => Keep(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
    }

    /// <summary>When it was started, in Stopwatch ticks.</summary>
    public long StartedAt { get; }

    /// <summary>Its process id.</summary>
    public int ProcessId => _process.Id;

    /// <summary>Its process id and those of the processes it had started by the time it was ready.</summary>
    public IReadOnlyCollection<int> ProcessIds => [_process.Id, .. _readyTree.Select(t => t.Id)];

    /// <summary>Whether it has ended.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>Its exit code, once it has ended.</summary>
    public int? ExitCode => _process.HasExited ? _process.ExitCode : null;

    /// <summary>The CPU it has used so far, in milliseconds; null once it has ended.</summary>
    public double? CpuMs() => CpuMsOf(_process);

    /// <summary>The CPU <paramref name="process"/> has used so far, in milliseconds; null once it has ended or where it cannot be read.</summary>
    internal static double? CpuMsOf(Process process)
    {
        try
        {
            process.Refresh();
            return process.HasExited ? null : process.TotalProcessorTime.TotalMilliseconds;
        }
        catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            return null;
        }
    }

    /// <summary>Its last lines of output and error, oldest first, joined by " | ".</summary>
    public string LastLines()
    {
        lock (_linesLock)
        {
            return string.Join(" | ", _lines);
        }
    }

    /// <summary>
    /// Splits <paramref name="command"/> as a shell would for words and quotes (no variables, no globs, no pipes),
    /// starts it with <paramref name="session"/>'s diagnostic port in its environment, and waits until
    /// <paramref name="ready"/> answers with success; throws <see cref="InvalidOperationException"/> with its last
    /// lines of output when it exits first or does not answer within <paramref name="timeout"/>.
    /// </summary>
    public static async Task<StartedService> StartAsync(
        string command,
        Uri ready,
        TimeSpan timeout,
        RuntimeEventSession? session,
        string? allowHost,
        CancellationToken cancellationToken)
    {
        var words = Words(command);
        if (words.Count == 0)
        {
            throw new InvalidOperationException("--start names no command.");
        }

        // On Linux the command starts in a session, and so a process group, of its own (setsid, which the command
        // becomes, keeping its process id): whatever it forks, even a server it leaves behind when it exits at once
        // as many start scripts do, stays in that group, and the group is ended with it.
        var grouped = OperatingSystem.IsLinux() && File.Exists(SetSid);
        var info = new ProcessStartInfo(grouped ? SetSid : words[0])
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = false,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
        };
        foreach (var word in grouped ? ["--", .. words] : words.Skip(1))
        {
            info.ArgumentList.Add(word);
        }

        session?.Configure(info);
        Process process;
        try
        {
            process = Process.Start(info) ?? throw new InvalidOperationException($"'{words[0]}' could not be started.");
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new InvalidOperationException($"--start '{command}' could not be started: {ex.Message}.", ex);
        }

        var service = new StartedService(process, Stopwatch.GetTimestamp()) { _grouped = grouped };
        try
        {
            await service.WaitReadyAsync(ready, timeout, allowHost, cancellationToken).ConfigureAwait(false);
            service._readyTree = [.. Tree(process.Id).Select(id => (id, ProcessIdentity.StartTimeOf(id)))];
            return service;
        }
        catch
        {
            await service.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    private async Task WaitReadyAsync(Uri ready, TimeSpan timeout, string? allowHost, CancellationToken cancellationToken)
    {
        // The lab's guarded handler: a redirect is an answer that is not ready, said with where it pointed, never followed.
        var handler = Loopback.Handler(allowHost);
        handler.ConnectTimeout = TimeSpan.FromSeconds(2);
        using var client = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(5) };
        var deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        string? last = null;
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (_process.HasExited)
            {
                // A moment for its last words; not longer, as a child it left may hold its output open.
                await Task.WhenAny(_process.WaitForExitAsync(CancellationToken.None), Task.Delay(1000, CancellationToken.None)).ConfigureAwait(false);
                throw new InvalidOperationException($"the service exited with code {_process.ExitCode} before {ready} answered{Said()}");
            }

            try
            {
                using var response = await client.GetAsync(ready, cancellationToken).ConfigureAwait(false);
                if (response.IsSuccessStatusCode)
                {
                    return;
                }

                last = response.Headers.Location is { } location
                    ? $"HTTP {(int)response.StatusCode} to {ForeignText.Line(location.OriginalString, 200)}, not followed"
                    : $"HTTP {(int)response.StatusCode}";
            }
            catch (HttpRequestException ex)
            {
                last = ex.HttpRequestError.ToString();
            }
            catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                last = "no answer within 5 s";
            }

            if (Stopwatch.GetTimestamp() > deadline)
            {
                throw new InvalidOperationException($"the service did not answer {ready} with success within {timeout.TotalSeconds:0.#} s " +
                    $"(last: {last}){Said()}");
            }

            await Task.Delay(50, cancellationToken).ConfigureAwait(false);
        }
    }

    private string Said() => LastLines() is { Length: > 0 } lines ? $"; its last output: {lines}" : "; it wrote nothing.";

    private void Keep(string? line)
    {
        if (string.IsNullOrWhiteSpace(line))
        {
            return;
        }

        lock (_linesLock)
        {
            _lines.Enqueue(line.Length > 300 ? line[..300] + "..." : line);
            while (_lines.Count > KeptLines)
            {
                _lines.Dequeue();
            }
        }
    }

    /// <summary>Stops the service (SIGTERM, then a kill of its tree after 2 s) and removes what a killed runtime leaves.</summary>
    public ValueTask DisposeAsync() => StopAsync(beforeKill: null);

    /// <summary>
    /// Stops the service as <see cref="DisposeAsync"/> does, calling <paramref name="beforeKill"/> once SIGTERM has not
    /// ended it within 2 s and before it is killed: the moment to end an event session, whose rundown (the names of
    /// the methods compiled before it) a process killed outright never sends.
    /// </summary>
    public async ValueTask StopAsync(Func<Task>? beforeKill)
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;

        // The command may be a shell or a launcher whose child is the .NET service: each process of the tree is written
        // down now (and when the service was ready, for a child that has died since), so every one is stopped, also one
        // its parent leaves behind, and what a killed one leaves is removed once it is gone.
        // With the command in a process group of its own, every process still in that group is stopped too, also one
        // whose parent exited and left it to init, which no tree from the command reaches.
        var tree = Tree(_process.Id, _grouped).Select(id => (Id: id, Start: ProcessIdentity.StartTimeOf(id))).Concat(_readyTree)
            .Where(t => t.Start is not null).Distinct().ToList();
        bool Alive((int Id, string? Start) member) => ProcessIdentity.StartTimeOf(member.Id) == member.Start;
        var killed = false;
        try
        {
            // SIGTERM to each, as a service manager stops a service; a shell does not pass it on to its children.
            foreach (var member in tree.Where(Alive))
            {
                _ = Terminate(member.Id);
            }

            if (!_process.HasExited && Terminate(_process.Id) != 0)
            {
                _process.Kill(entireProcessTree: true);
                killed = true;
            }

            // Polled, not awaited: waiting for the process's exit also waits for the end of its output, which a child
            // that outlived it holds open for as long as it lives (such a wait once hung a run for good).
            if (!await GoneAsync(() => _process.HasExited && !tree.Any(Alive), StopGrace).ConfigureAwait(false))
            {
                if (beforeKill is not null)
                {
                    await beforeKill().ConfigureAwait(false);
                }

                killed = true;
                if (!_process.HasExited)
                {
                    _process.Kill(entireProcessTree: true);
                }

                foreach (var member in tree.Where(Alive))
                {
                    _ = Kill(member.Id, 9);
                }

                _ = await GoneAsync(() => _process.HasExited && !tree.Any(Alive), StopGrace).ConfigureAwait(false);
            }
        }
        catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            // It ended on its own in the meantime.
        }
        finally
        {
            // A runtime that ends normally removes its socket; one that was killed or crashed leaves it.
            if (killed || (_process.HasExited && _process.ExitCode != 0))
            {
                ProcessIdentity.RemoveDiagnosticsSocket(_process.Id, _startTime);
            }

            foreach (var (id, start) in tree.Where(t => !Alive(t)))
            {
                ProcessIdentity.RemoveDiagnosticsSocket(id, start);
            }

            _process.Dispose();
        }
    }

    private static async Task<bool> GoneAsync(Func<bool> gone, TimeSpan limit)
    {
        var deadline = Stopwatch.GetTimestamp() + (long)(limit.TotalSeconds * Stopwatch.Frequency);
        while (!gone())
        {
            if (Stopwatch.GetTimestamp() > deadline)
            {
                return false;
            }

            await Task.Delay(20, CancellationToken.None).ConfigureAwait(false);
        }

        return true;
    }

    // The live descendants of a process and, where it leads a process group of its own, the group's other members
    // (a child whose parent exited is init's, out of the tree, but still in the group): one pass over /proc (none elsewhere).
    private static List<int> Tree(int root, bool group = false)
    {
        var found = new List<int>();
        if (!OperatingSystem.IsLinux())
        {
            return found;
        }

        var parents = new Dictionary<int, int>();
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(folder), out var id) || ProcessIdentity.StatOf(id) is not { } stat)
            {
                continue;
            }

            parents[id] = stat.Parent;
            if (group && stat.Group == root && id != root)
            {
                found.Add(id);
            }
        }

        var frontier = new List<int> { root };
        while (frontier.Count > 0)
        {
            frontier = [.. parents.Where(p => frontier.Contains(p.Value)).Select(p => p.Key)];
            found.AddRange(frontier);
        }

        return [.. found.Distinct()];
    }

    /// <summary>
    /// The words of a command line: split at unquoted spaces, with single quotes taking everything literally and
    /// double quotes everything but a backslash before a double quote or a backslash.
    /// </summary>
    internal static IReadOnlyList<string> Words(string command)
    {
        var words = new List<string>();
        var word = new StringBuilder();
        var inWord = false;
        char? quote = null;
        for (var i = 0; i < command.Length; i++)
        {
            var c = command[i];
            if (quote is { } q)
            {
                if (c == q)
                {
                    quote = null;
                }
                else if (q == '"' && c == '\\' && i + 1 < command.Length && command[i + 1] is '"' or '\\')
                {
                    word.Append(command[++i]);
                }
                else
                {
                    word.Append(c);
                }
            }
            else if (char.IsWhiteSpace(c))
            {
                if (inWord)
                {
                    words.Add(word.ToString());
                    word.Clear();
                    inWord = false;
                }
            }
            else if (c is '"' or '\'')
            {
                quote = c;
                inWord = true;
            }
            else if (c == '\\' && i + 1 < command.Length)
            {
                word.Append(command[++i]);
                inWord = true;
            }
            else
            {
                word.Append(c);
                inWord = true;
            }
        }

        if (quote is not null)
        {
            throw new InvalidOperationException($"--start has an unclosed {quote} quote: {command}");
        }

        if (inWord)
        {
            words.Add(word.ToString());
        }

        return words;
    }

    /// <summary>A free TCP port on 127.0.0.1 now, for a service told its port by <see cref="LoadOptions.PortPlaceholder"/>.</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static int Terminate(int processId) => OperatingSystem.IsWindows() ? -1 : Kill(processId, 15);

    // (Kill with signal 9 below is SIGKILL, for a child its parent left behind.)

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);
}
