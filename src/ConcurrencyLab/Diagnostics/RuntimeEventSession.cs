using System.Diagnostics;
using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Diagnostics;

/// <summary>
/// Reads the runtime's own events from one process the runner is about to start, from outside it. The runner
/// listens on a diagnostic port of its own (a Unix socket in the temporary folder) and starts the process with
/// <c>DOTNET_DiagnosticPorts</c> naming it: the process's runtime connects at start-up and waits, as under
/// dotnet-trace's launch mode, until the session is open and the runner resumes it, so no event of the
/// region can be missed because attaching was slow. A process whose runtime never connects (diagnostics
/// turned off with <c>DOTNET_EnableDiagnostics=0</c>) runs all the same, and its account says why it has none.
/// </summary>
internal sealed class RuntimeEventSession : IAsyncDisposable
{
    /// <summary>The variable that tells a starting runtime where to connect.</summary>
    public const string PortVariable = "DOTNET_DiagnosticPorts";

    private const string RuntimeProvider = "Microsoft-Windows-DotNETRuntime";

    // The runtime's keywords: GC, contention, threading (the pool's decisions) and wait handles (.NET 9).
    private const long GcKeyword = 0x1;
    private const long ContentionKeyword = 0x4000;
    private const long ThreadingKeyword = 0x10000;
    private const long WaitHandleKeyword = 0x40000000000;

    // For stacks: the profiler's samples, and the runtime's method events (JIT, loader) that name their frames.
    private const string SampleProvider = "Microsoft-DotNETCore-SampleProfiler";
    private const long JitKeyword = 0x10;
    private const long LoaderKeyword = 0x8;
    private const long IlMapKeyword = 0x20000;

    // The runtime's meters (System.Diagnostics.Metrics' event source): the pool's queue length and completed items.
    private const string MetersProvider = "System.Diagnostics.Metrics";
    private const long MeterValuesKeyword = 0x2;
    private const string QueueLengthInstrument = "dotnet.thread_pool.queue.length";
    private const string CompletedInstrument = "dotnet.thread_pool.work_item.count";

    private readonly CancellationTokenSource _stop = new();
    private readonly Task<string?> _attached;
    private readonly RuntimeEventLog _log = new();
    private DiagnosticsClientConnector? _connector;
    private readonly CancellationTokenSource _rotation = new();
    private readonly List<string> _segments = [];
    private readonly List<Task> _recording = [];
    private List<EventPipeSession> _sessions = [];
    private Task _reading = Task.CompletedTask;
    private Task _rotating = Task.CompletedTask;

    private RuntimeEventSession(RuntimeEvents level, string port, int? processId = null, bool readPoolQueue = false)
    {
        Level = level;
        Port = port;
        ReadPoolQueue = readPoolQueue;

        // Beside the port, in the run journal's folder when there is one: a run killed outright leaves them to the next.
        Samples = Path.ChangeExtension(port, ".nettrace");

        // The listener is up before this returns: the connector binds its socket before its first await. A process
        // already running is reached at its own diagnostics socket instead, as dotnet-trace reaches it.
        _attached = processId is { } id
            ? Task.Run(() => OpenSessions(new DiagnosticsClient(id), resume: false, $"the runtime of process {id} could not be attached to"),
                CancellationToken.None)
            : AttachAsync(_stop.Token);
    }

    /// <summary>Which events are read.</summary>
    public RuntimeEvents Level { get; }

    /// <summary>
    /// Whether to take the port back out of the connected process's environment before it resumes: a program the lab
    /// did not write (<c>conclab why -- dotnet test</c>) may start .NET children, which would otherwise inherit the
    /// variable and wait, suspended, for a port that answers only once. Set before the process starts.
    /// </summary>
    public bool KeepPortFromChildren { get; set; }

    /// <summary>
    /// Whether to read the pool's queue length and completed work items from the runtime's meter too, once a second (.NET 9
    /// and later publish them): a session more, for a program watched (<c>conclab why</c>).
    /// </summary>
    public bool ReadPoolQueue { get; }

    /// <summary>
    /// How often the stack samples start a new file, each ended by the runtime naming its code (its rundown), for a program
    /// watched (<c>conclab why</c>): one killed or ended by its parent never sends that naming, and only its last file's
    /// precompiled frames go unnamed rather than all of them. Null: one file for the process's whole life (a trial's).
    /// </summary>
    public TimeSpan? SegmentEvery => ReadPoolQueue ? TimeSpan.FromSeconds(5) : null;

    /// <summary>The socket the process's runtime connects to.</summary>
    public string Port { get; }

    /// <summary>The file the stack samples are recorded to, under <see cref="RuntimeEvents.Stacks"/>; deleted once read.</summary>
    private string Samples { get; }

    /// <summary>Completes once a runtime connected and its sessions were opened (null), or could not be (a note why).</summary>
    public Task<string?> Attaching => _attached;

    /// <summary>Whether a runtime connected and its session was opened.</summary>
    public bool Attached => _attached.IsCompletedSuccessfully && _attached.Result is null;

    /// <summary>
    /// A session listening for one process, or null when <paramref name="level"/> is off. <paramref name="note"/>
    /// says why there is none when the port could not be opened.
    /// </summary>
    public static RuntimeEventSession? Listen(RuntimeEvents level, out string? note, bool readPoolQueue = false)
    {
        note = null;
        if (level == RuntimeEvents.Off)
        {
            return null;
        }

        var port = PortPath();
        try
        {
            return new RuntimeEventSession(level, port, readPoolQueue: readPoolQueue);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or System.Net.Sockets.SocketException
            or PlatformNotSupportedException or ArgumentException)
        {
            QuietFile.TryDelete(port);
            note = "the runtime's events could not be read: no diagnostic port could be opened (" + ex.Message + ")";
            return null;
        }
    }

    /// <summary>
    /// A session on process <paramref name="processId"/>, already running, through its runtime's own diagnostics socket,
    /// or null when <paramref name="level"/> is off. Whether it could attach is known once its account is asked for: a
    /// process that is not .NET, not this user's, or has diagnostics turned off gets an account that says so.
    /// </summary>
    public static RuntimeEventSession? AttachTo(int processId, RuntimeEvents level, bool readPoolQueue = false)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(processId);
        if (level == RuntimeEvents.Off)
        {
            return null;
        }

        // No socket of its own is bound; the name only places the stack samples' file.
        var port = PortPath();
        return new RuntimeEventSession(level, port, processId, readPoolQueue);
    }

    // In the run journal's folder, which only this user may enter, so no other user can connect to the port or plant
    // a file in its place; in the temporary folder where there is no journal, or where the path would be too long for
    // a Unix socket (108 bytes), and a next run then finds it by its name.
    private static string PortPath()
    {
        var key = Guid.NewGuid().ToString("N")[..12];
        return RunJournal.Current?.Place($"events-{key}.sock") is { } placed && System.Text.Encoding.UTF8.GetByteCount(placed) < 107
            ? placed
            : Path.Combine(Path.GetTempPath(), $"conclab-events-{Environment.ProcessId}-{key}.sock");
    }

    /// <summary>Makes <paramref name="info"/>'s process connect to this session's port as its runtime starts.</summary>
    public void Configure(ProcessStartInfo info)
    {
        ArgumentNullException.ThrowIfNull(info);
        info.Environment[PortVariable] = Port;
    }

    /// <summary>
    /// Once the process has exited: waits a moment for the last events, then gives the account of the region
    /// between <paramref name="regionStart"/> and <paramref name="regionEnd"/> (Stopwatch ticks; a null end for a
    /// region that never ended). Null start: no region is known, the account covers the process's whole life.
    /// </summary>
    public async Task<RuntimeAccount> AccountAsync(long? regionStart, long? regionEnd,
        bool complete, string? note, IReadOnlyCollection<int>? labThreads = null, int? caller = null) =>
        (await AccountsAsync([(regionStart, regionEnd)], complete, note, labThreads, caller).ConfigureAwait(false))[0];

    /// <summary>
    /// Ends the sessions while the process still runs, so its runtime names the methods it compiled (the rundown a
    /// process killed outright never sends) and every event is in; waits at most 10 s for the streams to end.
    /// </summary>
    public async Task StopAsync()
    {
        await _rotation.CancelAsync().ConfigureAwait(false);
        await _rotating.ConfigureAwait(false);
        foreach (var session in Sessions())
        {
            try
            {
                session.Stop();
            }
            catch (Exception ex) when (ex is DiagnosticsClientException or IOException or TimeoutException or ObjectDisposedException
                or ServerNotAvailableException)
            {
                // Gone already: its stream has ended, or ends now.
            }
        }

        await Task.WhenAny(AllReading(), Task.Delay(TimeSpan.FromSeconds(10))).ConfigureAwait(false);
    }

    private List<EventPipeSession> Sessions()
    {
        lock (_recording)
        {
            return [.. _sessions];
        }
    }

    // Every stream's reading: the runtime's events, the meter's, and each file of stack samples.
    private Task AllReading()
    {
        lock (_recording)
        {
            return Task.WhenAll([_reading, .. _recording]);
        }
    }

    /// <summary>
    /// Once the process has exited: the account of each of <paramref name="regions"/> (Stopwatch ticks), such as the
    /// steps of a load run against one service process, with its stack samples read once for them all.
    /// </summary>
    public Task<IReadOnlyList<RuntimeAccount>> AccountsAsync(
        IReadOnlyList<(long Start, long End)> regions,
        string? note,
        IReadOnlyCollection<int>? excluded = null)
    {
        ArgumentNullException.ThrowIfNull(regions);
        return AccountsAsync([.. regions.Select(r => ((long?)r.Start, (long?)r.End))], complete: true, note, excluded, caller: null);
    }

    // The accounts of regions of the process that ended, its stack samples read once for them all.
    private async Task<IReadOnlyList<RuntimeAccount>> AccountsAsync(
        IReadOnlyList<(long? Start, long? End)> regions,
        bool complete,
        string? note,
        IReadOnlyCollection<int>? labThreads,
        int? caller)
    {
        var attachNote = await WaitForEventsAsync().ConfigureAwait(false);
        if (attachNote is not null && _sessions.Count == 0)
        {
            return [.. regions.Select(_ => new RuntimeAccount { Events = Level, Complete = false, Note = attachNote })];
        }

        var notes = string.Join("; ", new[] { note, attachNote }.Where(n => n is not null));
        var accounts = regions.Select(
            r => _log.Account(Level, r.Start, r.End, Stopwatch.Frequency, complete && attachNote is null, notes.Length == 0 ? null : notes,
                labThreads, caller)).ToList();
        var segments = Segments().Where(File.Exists).ToList();
        if (Level < RuntimeEvents.Stacks || segments.Count == 0 || regions.Count == 0)
        {
            return accounts;
        }

        try
        {
            var owners = _log.Snapshot().Where(e => e.Kind == RuntimeEventKind.ContentionStart && e.Value > 0)
                .Select(e => new LockWait(e.Ticks, e.Thread, e.Value)).ToList();
            var threads = ThreadSamples.ReadEach(segments, regions, labThreads ?? [], caller, owners);
            return [.. accounts.Select((a, i) => a with { Threads = threads[i] })];
        }
#pragma warning disable CA1031 // Samples that cannot be read cost their part of the account, never the trial or the run.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            foreach (var segment in segments)
            {
                QuietFile.TryDelete(segment);
            }

            var why = $"the stack samples could not be read: {ex.GetType().Name}: {ex.Message}".ReplaceLineEndings(" ");
            return [.. accounts.Select(a => a with { Note = a.Note is null ? why : a.Note + "; " + why })];
        }
    }

    private async Task<string?> WaitForEventsAsync()
    {
        // Called once the process has ended. Its runtime waits for the session before running anything, so a
        // process that ended without being attached never connected (diagnostics turned off), or was killed
        // while waiting: stop listening.
        var attached = await Task.WhenAny(_attached, Task.Delay(TimeSpan.FromMilliseconds(200))).ConfigureAwait(false);
        if (attached != _attached)
        {
            await _stop.CancelAsync().ConfigureAwait(false);
        }

        var note = await _attached.ConfigureAwait(false);

        // The stream ends when the process does; a moment more for what is still in the pipe.
        await _rotation.CancelAsync().ConfigureAwait(false);
        await _rotating.ConfigureAwait(false);
        var reading = AllReading();
        if (await Task.WhenAny(reading, Task.Delay(TimeSpan.FromSeconds(5))).ConfigureAwait(false) != reading)
        {
            note ??= "the runtime's event stream had not ended 5 s after its process did: the account may lack the last events";
        }

        return note;
    }

    private async Task<string?> AttachAsync(CancellationToken cancellationToken)
    {
        const string NeverConnected = "the process's runtime never connected to the runner's diagnostic port (diagnostics may be turned " +
            "off, DOTNET_EnableDiagnostics=0), so there is no account";
        try
        {
            // Cancelled, the connector either throws or (in some versions) gives nothing.
            _connector = await DiagnosticsClientConnector.FromDiagnosticPort(Port, cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            return NeverConnected;
        }

        if (_connector?.Instance is not { } client)
        {
            return NeverConnected;
        }

        return OpenSessions(client, resume: true, "the runtime's event session could not be started");
    }

    // Opens the sessions on a connected runtime and starts reading them; a note when they could not be opened. A runtime
    // that connected to our port waits, suspended, until it is told to resume, whatever happened here.
    private string? OpenSessions(DiagnosticsClient client, bool resume, string failed)
    {
        try
        {
            // The pool's decisions and the GC at the informational level; waits are verbose events, asked for
            // in a session of their own so the threading keyword does not bring every work item's queueing.
            var keywords = GcKeyword | ThreadingKeyword | (Level >= RuntimeEvents.Full ? ContentionKeyword : 0);
            _sessions = [client.StartEventPipeSession(
                [new EventPipeProvider(RuntimeProvider, EventLevel.Informational, keywords)], requestRundown: false, circularBufferMB: 64)];
            if (Level >= RuntimeEvents.Full)
            {
                _sessions.Add(
                    client.StartEventPipeSession(
                        [new EventPipeProvider(RuntimeProvider, EventLevel.Verbose, WaitHandleKeyword)], requestRundown: false, circularBufferMB: 64));
            }

            var readers = _sessions.Select(
                s => Task.Factory.StartNew(() => Read(s.EventStream), CancellationToken.None, TaskCreationOptions.LongRunning,
                    TaskScheduler.Default)).ToList();

            if (ReadPoolQueue)
            {
                var meters = client.StartEventPipeSession(
                    [new EventPipeProvider(MetersProvider, EventLevel.Informational, MeterValuesKeyword, new Dictionary<string, string>
                    {
                        ["SessionId"] = Guid.NewGuid().ToString("N"),
                        ["Metrics"] = $"System.Runtime\\{QueueLengthInstrument},System.Runtime\\{CompletedInstrument}",
                        ["RefreshInterval"] = "1",
                        ["MaxTimeSeries"] = "10",
                        ["MaxHistograms"] = "0",
                    })],
                    requestRundown: false,
                    circularBufferMB: 16);
                _sessions.Add(meters);
                readers.Add(
                    Task.Factory.StartNew(() => ReadMeters(meters.EventStream), CancellationToken.None, TaskCreationOptions.LongRunning,
                        TaskScheduler.Default));
            }

            // Stacks go to a file as they come, for TraceEvent to name their frames once the process has ended (the
            // rundown at its end names what was compiled before the session, the framework's ready-made code); the
            // maps from native code to IL let a frame be placed on a line of its source where the PDB is at hand.
            _reading = Task.WhenAll(readers);
            if (Level >= RuntimeEvents.Stacks)
            {
                var first = StartStacks(client);
                if (SegmentEvery is { } every)
                {
                    _rotating = Task.Run(() => RotateAsync(client, first, every, _rotation.Token), CancellationToken.None);
                }
            }

            return null;
        }
        catch (Exception ex) when (ex is DiagnosticsClientException or IOException or TimeoutException or UnauthorizedAccessException
            or System.Net.Sockets.SocketException)
        {
            return $"{failed}: {ex.Message.TrimEnd('.')}";
        }
        finally
        {
            // Whatever happened, the process must not stay suspended waiting for us.
            try
            {
                if (resume && KeepPortFromChildren)
                {
                    client.SetEnvironmentVariable(PortVariable, string.Empty);
                }
            }
            catch (Exception ex) when (ex is DiagnosticsClientException or IOException or TimeoutException)
            {
            }

            try
            {
                if (resume)
                {
                    client.ResumeRuntime();
                }
            }
            catch (Exception ex) when (ex is DiagnosticsClientException or IOException or TimeoutException)
            {
            }
        }
    }

    // A stack session recording to the next file.
    private EventPipeSession StartStacks(DiagnosticsClient client)
    {
        var session = client.StartEventPipeSession(
            [new EventPipeProvider(SampleProvider, EventLevel.Informational), new EventPipeProvider(RuntimeProvider, EventLevel.Verbose, JitKeyword | LoaderKeyword | IlMapKeyword)],
            requestRundown: true,
            circularBufferMB: 256);
        lock (_recording)
        {
            var path = _segments.Count == 0 ? Samples
                : Path.ChangeExtension(Samples, $".{_segments.Count.ToString(System.Globalization.CultureInfo.InvariantCulture)}.nettrace");
            _sessions.Add(session);
            _segments.Add(path);
            _recording.Add(Task.Factory.StartNew(() => Record(session.EventStream, path), CancellationToken.None, TaskCreationOptions.LongRunning,
                TaskScheduler.Default));
        }

        return session;
    }

    // Every so often, a new file's session is started, then the last one's stopped: its rundown names what ran in it.
    // The two overlap for a moment, so no stretch goes unsampled; the samples both took are read once.
    // The first file ends after a second, so a program killed early still has its code named up to then (for one attached
    // to, everything it compiled before the watch).
    private async Task RotateAsync(DiagnosticsClient client, EventPipeSession current, TimeSpan every, CancellationToken cancellationToken)
    {
        var wait = TimeSpan.FromSeconds(1);
        while (true)
        {
            try
            {
                await Task.Delay(wait, cancellationToken).ConfigureAwait(false);
                wait = every;
                var next = StartStacks(client);
                current.Stop();
                current = next;
            }
            catch (OperationCanceledException)
            {
                return;
            }
            catch (Exception ex) when (ex is DiagnosticsClientException or IOException or TimeoutException or ObjectDisposedException
                or ServerNotAvailableException or UnauthorizedAccessException or System.Net.Sockets.SocketException)
            {
                // The process is gone, or going: its last file is its last.
                return;
            }
        }
    }

    private List<string> Segments()
    {
        lock (_recording)
        {
            return [.. _segments];
        }
    }

    private void Read(Stream stream)
    {
        try
        {
            using var source = new EventPipeEventSource(stream);
            var clr = source.Clr;

            // The raw timestamp, not TraceEvent's relative milliseconds: EventPipe stamps events with the clock
            // Stopwatch reads (CLOCK_MONOTONIC in nanoseconds on Linux, QueryPerformanceCounter on Windows), so
            // the trial's region, timed in Stopwatch ticks in another process, cuts them exactly.
#pragma warning disable CS0618 // "discouraged", for the reason above
            static long T(TraceEvent e) => e.TimeStampQPC;
#pragma warning restore CS0618
            clr.ThreadPoolWorkerThreadAdjustmentAdjustment += e => _log.Add(
                new RuntimeEvent(T(e), RuntimeEventKind.PoolAdjustment, e.ThreadID, e.NewWorkerThreadCount, e.AverageThroughput,
                    (PoolAdjustmentReason)(int)e.Reason));
            clr.ThreadPoolWorkerThreadStart += e => _log.Add(new RuntimeEvent(T(e), RuntimeEventKind.WorkerStart, e.ThreadID));
            clr.ThreadPoolWorkerThreadStop += e => _log.Add(new RuntimeEvent(T(e), RuntimeEventKind.WorkerStop, e.ThreadID));
            clr.GCStart += e => _log.Add(new RuntimeEvent(T(e), RuntimeEventKind.GcStart, e.ThreadID));
            clr.GCSuspendEEStart += e =>
            {
                if (e.Reason is GCSuspendEEReason.SuspendForGC or GCSuspendEEReason.SuspendForGCPrep)
                {
                    _log.Add(new RuntimeEvent(T(e), RuntimeEventKind.GcSuspend, e.ThreadID));
                }
            };
            clr.GCRestartEEStop += e => _log.Add(new RuntimeEvent(T(e), RuntimeEventKind.GcRestart, e.ThreadID));
            // Since .NET 8 a contention names the lock's owner by its OS thread id, which the stack samples know.
            clr.ContentionStart += e => _log.Add(
                new RuntimeEvent(T(e), RuntimeEventKind.ContentionStart, e.ThreadID, e.Version >= 2
                    && e.LockOwnerThreadID is > 0 and <= int.MaxValue ? (int)e.LockOwnerThreadID : 0));
            clr.ContentionStop += e => _log.Add(
                new RuntimeEvent(T(e), RuntimeEventKind.ContentionStop, e.ThreadID, Number: e.Version >= 1 ? e.DurationNs : 0));
            clr.WaitHandleWaitStart += e => _log.Add(new RuntimeEvent(T(e), RuntimeEventKind.WaitStart, e.ThreadID, (int)e.WaitSource));
            clr.WaitHandleWaitStop += e => _log.Add(new RuntimeEvent(T(e), RuntimeEventKind.WaitStop, e.ThreadID));
            source.Process();
            _log.Lost += source.EventsLost;
        }
        catch (Exception ex) when (ex is IOException or EndOfStreamException or ObjectDisposedException or InvalidOperationException
            or FormatException)
        {
            // A process killed mid-write cuts its stream: what arrived before is kept.
        }
    }

    // The meter's published values: each a string, as its event source writes them, on the clock the other events use.
    private void ReadMeters(Stream stream)
    {
        try
        {
            using var source = new EventPipeEventSource(stream);
            source.Dynamic.All += e =>
            {
                if (e.ProviderName != MetersProvider || e.PayloadByName("instrumentName") is not string instrument)
                {
                    return;
                }

#pragma warning disable CS0618 // the raw timestamp, as in Read
                var ticks = e.TimeStampQPC;
#pragma warning restore CS0618
                var value = e.PayloadByName("value") as string;
                if (!double.TryParse(value, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture,
                    out var number) || !double.IsFinite(number) || number < 0)
                {
                    return;
                }

                if (instrument == QueueLengthInstrument)
                {
                    _log.Add(new RuntimeEvent(ticks, RuntimeEventKind.QueueLength, e.ThreadID, (int)Math.Min(number, int.MaxValue)));
                }
                else if (instrument == CompletedInstrument)
                {
                    _log.Add(new RuntimeEvent(ticks, RuntimeEventKind.ItemsCompleted, e.ThreadID, Number: number));
                }
            };
            source.Process();
        }
        catch (Exception ex) when (ex is IOException or EndOfStreamException or ObjectDisposedException or InvalidOperationException
            or FormatException)
        {
            // As for the runtime's events: what arrived before a cut is kept.
        }
    }

    private static void Record(Stream stream, string path)
    {
        try
        {
            using var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None);
            stream.CopyTo(file);
        }
        catch (IOException)
        {
            // A process killed mid-write cuts its stream: what arrived is kept, and read as far as it goes.
        }
    }

    /// <inheritdoc/>
    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);

        // A process killed as it connected (a run stopped by Ctrl+C) leaves the attach waiting on the runtime's answer
        // with the diagnostics library's own timeout of 30 s: the listener closed first ends that wait, and the attach
        // is given a few seconds at most, so a stopped run stops at once.
        var connectorClosed = false;
        if (!_attached.IsCompleted && _connector is not null)
        {
            await _connector.DisposeAsync().ConfigureAwait(false);
            connectorClosed = true;
        }

        try
        {
            await _attached.WaitAsync(TimeSpan.FromSeconds(3)).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is DiagnosticsClientException or IOException or TimeoutException or OperationCanceledException
            or ObjectDisposedException or InvalidOperationException)
        {
        }

        await _rotation.CancelAsync().ConfigureAwait(false);
        await _rotating.ConfigureAwait(false);
        foreach (var session in Sessions())
        {
            session.Dispose();
        }

        if (_connector is not null && !connectorClosed)
        {
            await _connector.DisposeAsync().ConfigureAwait(false);
        }

        _stop.Dispose();
        _rotation.Dispose();
        QuietFile.TryDelete(Port);
        foreach (var segment in Segments().Append(Samples).Distinct())
        {
            QuietFile.TryDelete(segment);
            QuietFile.TryDelete(ThreadSamples.ConvertedPath(segment));
        }
    }
}
