using System.Diagnostics;
using System.Text;
using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Running;

/// <summary>
/// Runs each trial in a fresh process, so no variant inherits threads another one made the pool inject.
/// The child times its own measured region against the timeout and writes a timed-out result itself; one
/// that outlives the timeout, its start-up allowance and a grace besides (hung past its own watchdog) is
/// killed with its whole process tree and reported as timed out.
/// </summary>
internal sealed class ChildProcessTrialExecutor : ITrialExecutor
{
    private const int KeptErrorCharacters = 2000;

    // How long past its own limits the parent lets a child write its timeout before killing it.
    private static readonly TimeSpan KillGrace = TimeSpan.FromSeconds(5);

    // How long a child that has written its result may take to exit before it is killed: what it measured stands.
    private static readonly TimeSpan ExitGrace = TimeSpan.FromSeconds(10);
    private readonly SelfLauncher _launcher;
    private readonly RuntimeEvents _events;
    private readonly IReadOnlyDictionary<string, string> _environment;

    public ChildProcessTrialExecutor(
        SelfLauncher launcher,
        RuntimeEvents events = RuntimeEvents.Off,
        IReadOnlyDictionary<string, string>? environment = null)
    {
        _launcher = launcher ?? throw new ArgumentNullException(nameof(launcher));
        _events = events;
        _environment = environment ?? new Dictionary<string, string>();
    }

    /// <inheritdoc/>
    public bool Isolated => true;

    /// <inheritdoc/>
    public async Task<TrialResult> RunAsync(TrialLaunch launch, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(launch);
        ArgumentNullException.ThrowIfNull(launch.Request);
        ArgumentNullException.ThrowIfNull(launch.Scenario);

        // Listening before the process starts: its runtime connects as it starts, and waits for the session.
        // A scenario with services gets a second port, for the one service its trial observes.
        await using var events = RuntimeEventSession.Listen(_events, out var eventsNote);
        await using var serviceEvents = launch.Scenario.Services.Count > 0 ? RuntimeEventSession.Listen(_events, out _) : null;
        var trial = new Trial(launch, launch.Request with { ServiceEventPort = serviceEvents?.Port },
            new Account(_events, events, serviceEvents, eventsNote));
        var info = StartInfo(trial);
        using var process = new Process { StartInfo = info };

        // Drain both pipes: a child blocked on a full pipe would look like a hang.
        process.OutputDataReceived += static (_, _) => { };
        process.ErrorDataReceived += (_, e) => trial.Output.Read(e.Data);

        // The runner's own JIT yields the cores to the trial (RunnerCompiler says why and what it measured).
        using var compiler = RunnerCompiler.KeepLowered();
        try
        {
            try
            {
                process.Start();
            }
            catch (Exception ex) when (ex is System.ComponentModel.Win32Exception or InvalidOperationException)
            {
                return trial.Failed($"could not start the trial process '{info.FileName}': {ex.Message}") with
                {
                    Runtime = events is null ? null
                        : new RuntimeAccount { Events = _events, Complete = false, Note = "the trial's process never started" },
                };
            }

            return await WatchAsync(trial, process, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            QuietFile.TryDelete(trial.ResultPath);
            QuietFile.TryDelete(trial.ResultPath + ".partial");

            // The next trial's region, and its services' measurements, wait for this (the runner finishes a trial
            // before it tells the next to begin): none of this trial's services may outlive it into them.
            foreach (var child in trial.Output.Children().Where(c => !c.WaitUntilGone()))
            {
                StopChild(child);
            }
        }
    }

    // The launch: the trial's process as the lab starts itself, told its request and where to write its result,
    // with the run's runtime settings and the variant's own (a sweep over cores), read by its runtime as it starts.
    private ProcessStartInfo StartInfo(Trial trial)
    {
        var info = _launcher.CreateStartInfo(
        [
            TrialHost.RequestArgument,
            TrialJson.Write(trial.Request),
            TrialHost.ResultArgument,
            trial.ResultPath,
        ], redirectInput: trial.Launch.Before is not null);
        RunJournal.Current?.Join(info);
        foreach (var (name, value) in _environment.Select(e => (e.Key, e.Value))
            .Concat(RuntimeSettings.Environment(trial.Request.Variant.Parameters)))
        {
            info.Environment[name] = value;
        }

        trial.Account.Events?.Configure(info);
        if (trial.Launch.Scenario.Services.Count > 0)
        {
            // The trial names each service it starts (ChildAnnouncement), for a runner that tells crank's agent.
            info.Environment[ChildAnnouncement.Variable] = "1";
        }

        return info;
    }

    // The started process watched to its end: attached (told to begin once the trial before is finished), waited
    // for within its deadline, and its result collected with the runtime's account of its region.
    private static async Task<TrialResult> WatchAsync(Trial trial, Process process, CancellationToken cancellationToken)
    {
        var startTime = ProcessIdentity.StartTimeOf(process.Id);
        trial.Output.Started(startTime is null ? null : new ProcessInstance(process.Id, startTime));
        trial.Launch.ProcessStarted?.Invoke(process.Id);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var limit = trial.Launch.Timeout + RunOptions.TrialStartUpAllowance + KillGrace;
        deadline.CancelAfter(limit);

        // Before the pipes are read: the line that shortens the deadline cannot come sooner.
        trial.Output.Deadline(deadline);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        if (trial.Launch.Before is { } before)
        {
            _ = TellToBeginAsync(process, before);
        }

        try
        {
            await process.WaitForExitAsync(deadline.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            Kill(process);
            ProcessIdentity.RemoveDiagnosticsSocket(process.Id, startTime);
            return await StoppedAsync(trial, limit, cancellationToken).ConfigureAwait(false);
        }

        // Let the asynchronous readers reach the end of both pipes.
        process.WaitForExit();
        if (process.ExitCode != 0 || !File.Exists(trial.ResultPath))
        {
            var tail = trial.Output.LastError();
            return await trial.Account.AddAsync(
                trial.Failed($"the trial process exited with code {process.ExitCode}{(tail.Length > 0 ? ": " + tail : string.Empty)}"),
                "the trial's process failed; its region's bounds are unknown, so the account covers what arrived of the process's whole life")
                    .ConfigureAwait(false);
        }

        var result = await trial.ReadResultAsync().ConfigureAwait(false);
        return result is null
            ? trial.Failed("the trial process wrote an empty result")
            : await trial.Account.AddAsync(
                result with { Repeat = trial.Request.Repeat },
                result.Status == TrialStatus.Timeout
                    ? "the trial timed out: the account runs from the region's start to the last event that arrived" : null).ConfigureAwait(false);
    }

    // A process stopped at its deadline, or with the run: what it wrote before is kept; otherwise a timeout.
    private static async Task<TrialResult> StoppedAsync(Trial trial, TimeSpan limit, CancellationToken cancellationToken)
    {
        // A result written before the process was stopped (still exiting after the grace, or the run cancelled
        // meanwhile) is what the trial measured: kept.
        if (trial.Output.Written && File.Exists(trial.ResultPath) && await trial.ReadResultAsync().ConfigureAwait(false) is { } kept)
        {
            return await trial.Account.AddAsync(
                kept with { Repeat = trial.Request.Repeat },
                cancellationToken.IsCancellationRequested
                    ? "the run was cancelled while the trial's process exited, after it wrote its result; the account holds what arrived"
                    : $"the trial's process was still exiting {TrialWatch.Seconds(ExitGrace)} s after it wrote its result and was killed; " +
                        $"the account holds what arrived").ConfigureAwait(false);
        }

        cancellationToken.ThrowIfCancellationRequested();
        var timeout = trial.Launch.Timeout;
        return await trial.Account.AddAsync(
            TrialResult.Unmeasured(
                TrialStatus.Timeout,
                $"killed after {TrialWatch.Seconds(limit)} s: its process outlived the trial timeout of {TrialWatch.Seconds(timeout)} s, " +
                    $"its start-up allowance of {TrialWatch.Seconds(RunOptions.TrialStartUpAllowance)} s and " +
                    $"{TrialWatch.Seconds(KillGrace)} s besides",
                isolated: true) with { Repeat = trial.Request.Repeat },
            "the trial's process was killed; its region's bounds are unknown, so the account covers what arrived of the process's whole life")
                .ConfigureAwait(false);
    }

    // One trial in a child process: what it was launched with, where it writes its result, what it said on its
    // standard error, and the account its region gets.
    private sealed class Trial(TrialLaunch launch, TrialRequest request, Account account)
    {
        public TrialLaunch Launch { get; } = launch;

        public TrialRequest Request { get; } = request;

        public Account Account { get; } = account;

        public string ResultPath { get; } = Path.Combine(Path.GetTempPath(), $"conclab-trial-{Environment.ProcessId}-{Guid.NewGuid():N}.json");

        public TrialOutput Output { get; } = new(launch.ChildStarted, launch.Measured);

        public TrialResult Failed(string error) => TrialResult.Unmeasured(TrialStatus.Failed, error, isolated: true) with { Repeat = Request.Repeat };

        // The file is complete once it exists (the child renames it into place); read even as the run is cancelled.
        public async Task<TrialResult?> ReadResultAsync()
            => TrialJson.ReadResult(await File.ReadAllTextAsync(ResultPath, CancellationToken.None).ConfigureAwait(false));
    }

    // What a trial's process says on its standard error, read on the pipe's thread: the services it started (by id
    // and start time: a trial ends them before it writes its result, but one that timed out leaves them to end on
    // their own once its process is gone, ServiceHost, within a second), the line that says its result is written,
    // and the last of its errors.
    private sealed class TrialOutput(Action<int>? childStarted, Action<ProcessInstance>? measured)
    {
        private readonly StringBuilder _errors = new();
        private readonly List<ProcessInstance> _children = [];
        private ProcessInstance? _self;
        private CancellationTokenSource? _deadline;
        private int _written;

        public bool Written => Volatile.Read(ref _written) == 1;

        public void Started(ProcessInstance? self) => Volatile.Write(ref _self, self);

        public void Deadline(CancellationTokenSource deadline) => Volatile.Write(ref _deadline, deadline);

        public void Read(string? line)
        {
            if (line is null)
            {
                return;
            }

            if (ChildAnnouncement.TryRead(line, out var child))
            {
                if (ProcessIdentity.StartTimeOf(child) is { } childStart)
                {
                    lock (_children)
                    {
                        _children.Add(new ProcessInstance(child, childStart));
                    }
                }

                childStarted?.Invoke(child);
                return;
            }

            if (line == TrialHost.ResultWrittenLine)
            {
                Volatile.Write(ref _written, 1);
                ShortenToExitGrace(Volatile.Read(ref _deadline));
                if (Volatile.Read(ref _self) is { } exiting)
                {
                    measured?.Invoke(exiting);
                }

                return;
            }

            lock (_errors)
            {
                _errors.AppendLine(line);
                if (_errors.Length > KeptErrorCharacters * 2)
                {
                    _errors.Remove(0, _errors.Length - KeptErrorCharacters);
                }
            }
        }

        public IReadOnlyList<ProcessInstance> Children()
        {
            lock (_children)
            {
                return [.. _children];
            }
        }

        public string LastError()
        {
            lock (_errors)
            {
                return LastLine(_errors.ToString());
            }
        }
    }

    // The runtime's account of the region a trial reported, its figures among the trial's metrics; the region's
    // clock stays between the processes.
    private sealed class Account(RuntimeEvents level, RuntimeEventSession? events, RuntimeEventSession? serviceEvents, string? eventsNote)
    {
        public RuntimeEventSession? Events => events;

        public async Task<TrialResult> AddAsync(TrialResult result, string? incomplete)
        {
            if (events is null)
            {
                return eventsNote is null ? result.WithoutPlumbing()
                    : result.WithoutPlumbing() with { Runtime = new RuntimeAccount { Events = level, Complete = false, Note = eventsNote } };
            }

            var region = result.Region;
            var complete = incomplete is null && region?.End is not null;
            var account = await events.AccountAsync(region?.Start, region?.End, complete, incomplete, region?.LabThreads, region?.Caller)
                .ConfigureAwait(false);

            // A trial that timed out brought no service measurements, but the service's runtime still told its
            // side of the region, which is often the point: kept under a plain name.
            var service = result.Service ?? (serviceEvents is { Attached: true } ? new ServiceMeasurements { Name = "observed" } : null);
            if (service is not null && serviceEvents is not null)
            {
                var serviceAccount = await serviceEvents.AccountAsync(region?.Start, region?.End, complete, incomplete, service.LabThreads)
                    .ConfigureAwait(false);
                service = service with { Runtime = serviceAccount, Metrics = WithAccount(service.Metrics, serviceAccount) };
            }

            // A trial with no measurements (it crashed or timed out) gets no figures from the account either.
            var metrics = result.Metrics.Count > 0 ? WithAccount(result.Metrics, account) : result.Metrics;
            return (result with { Runtime = account, Metrics = metrics, Service = service }).WithoutPlumbing();
        }

        private static MetricValues WithAccount(IReadOnlyDictionary<string, double> measured, RuntimeAccount account)
        {
            var metrics = new MetricValues();
            metrics.AddRange(measured);
            metrics.AddRange(StandardMetrics.Read(account));
            return metrics;
        }
    }

    // The trial's region waits for a line on its standard input: sent once the runner has finished the trial before.
    private static async Task TellToBeginAsync(Process process, Task before)
    {
        try
        {
            await before.ConfigureAwait(false);
        }
#pragma warning disable CA1031 // Whatever became of the trial before, this one is told to go on; the runner hears of that failure itself.
        catch (Exception)
#pragma warning restore CA1031
        {
        }

        try
        {
            await process.StandardInput.WriteLineAsync(TrialHost.BeginLine).ConfigureAwait(false);
            await process.StandardInput.FlushAsync().ConfigureAwait(false);
            process.StandardInput.Close();
        }
        catch (Exception ex) when (ex is IOException or ObjectDisposedException or InvalidOperationException)
        {
            // The process has ended already (it failed or was stopped before its region).
        }
    }

    // Once a child has written its result only its exit is left, and that gets ExitGrace, not the trial's whole limit.
    private static void ShortenToExitGrace(CancellationTokenSource? deadline)
    {
        try
        {
            deadline?.CancelAfter(ExitGrace);
        }
        catch (ObjectDisposedException)
        {
            // The trial is over already.
        }
    }

    // A service still running after ProcessInstance.MostWait: stopped, if the id is still that process's.
    private static void StopChild(ProcessInstance child)
    {
        try
        {
            using var process = Process.GetProcessById(child.ProcessId);
            if (child.IsRunning())
            {
                Kill(process);
            }
        }
        catch (ArgumentException)
        {
            // Gone meanwhile.
        }
    }

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
        }
        catch (InvalidOperationException)
        {
            // It exited between the timeout and the kill.
        }
    }

    private static string LastLine(string text)
    {
        var lines = text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

        // An unhandled exception prints its message on the first line; later lines are the stack.
        var exception = lines.FirstOrDefault(l => l.StartsWith("Unhandled exception", StringComparison.Ordinal));
        return exception ?? lines.LastOrDefault() ?? string.Empty;
    }
}
