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

    public ChildProcessTrialExecutor(SelfLauncher launcher, RuntimeEvents events = RuntimeEvents.Off, IReadOnlyDictionary<string, string>? environment = null)
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
        var (scenario, request, timeout) = (launch.Scenario, launch.Request, launch.Timeout);
        var (processStarted, childStarted, measured, before) = (launch.ProcessStarted, launch.ChildStarted, launch.Measured, launch.Before);
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(scenario);

        // Listening before the process starts: its runtime connects as it starts, and waits for the session.
        // A scenario with services gets a second port, for the one service its trial observes.
        await using var events = RuntimeEventSession.Listen(_events, out var eventsNote);
        await using var serviceEvents = scenario.Services.Count > 0 ? RuntimeEventSession.Listen(_events, out _) : null;
        request = request with { ServiceEventPort = serviceEvents?.Port };
        var resultPath = Path.Combine(Path.GetTempPath(), $"conclab-trial-{Environment.ProcessId}-{Guid.NewGuid():N}.json");
        var info = _launcher.CreateStartInfo(
        [
            TrialHost.RequestArgument,
            TrialJson.Write(request),
            TrialHost.ResultArgument,
            resultPath,
        ], redirectInput: before is not null);
        RunJournal.Current?.Hand(info);

        // The runtime's settings for the run, then the variant's own (a sweep over cores), read by the trial's
        // runtime as it starts.
        foreach (var (name, value) in _environment.Select(e => (e.Key, e.Value)).Concat(RuntimeSettings.Environment(request.Variant.Parameters)))
        {
            info.Environment[name] = value;
        }

        events?.Configure(info);
        if (scenario.Services.Count > 0)
        {
            // The trial names each service it starts (ChildAnnouncement), for a runner that tells crank's agent.
            info.Environment[ChildAnnouncement.Variable] = "1";
        }

        var errors = new StringBuilder();

        // The services the trial started, by id and start time: a trial ends them before it writes its result, but
        // one that timed out leaves them to end on their own once its process is gone (ServiceHost, within a second).
        var children = new List<PreviousTrial>();
        PreviousTrial? self = null;
        var written = 0;
        CancellationTokenSource? exitDeadline = null;
        using var process = new Process { StartInfo = info };

        // Drain both pipes: a child blocked on a full pipe would look like a hang.
        process.OutputDataReceived += static (_, _) => { };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                return;
            }

            if (ChildAnnouncement.TryRead(e.Data, out var child))
            {
                if (ProcessIdentity.StartTimeOf(child) is { } childStart)
                {
                    lock (children)
                    {
                        children.Add(new PreviousTrial(child, childStart));
                    }
                }

                childStarted?.Invoke(child);
                return;
            }

            if (e.Data == TrialHost.ResultWrittenLine)
            {
                Volatile.Write(ref written, 1);
                ShortenToExitGrace(Volatile.Read(ref exitDeadline));
                if (Volatile.Read(ref self) is { } exiting)
                {
                    measured?.Invoke(exiting);
                }

                return;
            }

            lock (errors)
            {
                errors.AppendLine(e.Data);
                if (errors.Length > KeptErrorCharacters * 2)
                {
                    errors.Remove(0, errors.Length - KeptErrorCharacters);
                }
            }
        };

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
                return Failed($"could not start the trial process '{info.FileName}': {ex.Message}") with { Runtime = events is null ? null : new RuntimeAccount { Events = _events, Complete = false, Note = "the trial's process never started" } };
            }

            var startTime = ProcessIdentity.StartTimeOf(process.Id);
            Volatile.Write(ref self, startTime is null ? null : new PreviousTrial(process.Id, startTime));
            processStarted?.Invoke(process.Id);
            using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            var limit = timeout + RunOptions.TrialStartUpAllowance + KillGrace;
            deadline.CancelAfter(limit);
            // Before the pipes are read: the line that shortens the deadline cannot come sooner.
            Volatile.Write(ref exitDeadline, deadline);
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            if (before is not null)
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

                // A result written before the process was stopped (still exiting after the grace, or the run
                // cancelled meanwhile) is what the trial measured: kept.
                if (Volatile.Read(ref written) == 1 && File.Exists(resultPath) && await ReadResultAsync().ConfigureAwait(false) is { } kept)
                {
                    return await WithAccountAsync(
                        kept with { Repeat = request.Repeat },
                        cancellationToken.IsCancellationRequested
                            ? "the run was cancelled while the trial's process exited, after it wrote its result; the account holds what arrived"
                            : $"the trial's process was still exiting {TrialWatch.Seconds(ExitGrace)} s after it wrote its result and was killed; the account holds what arrived").ConfigureAwait(false);
                }

                cancellationToken.ThrowIfCancellationRequested();
                return await WithAccountAsync(
                    TrialResult.Unmeasured(
                        TrialStatus.Timeout,
                        $"killed after {TrialWatch.Seconds(limit)} s: its process outlived the trial timeout of {TrialWatch.Seconds(timeout)} s, its start-up allowance of {TrialWatch.Seconds(RunOptions.TrialStartUpAllowance)} s and {TrialWatch.Seconds(KillGrace)} s besides",
                        isolated: true) with { Repeat = request.Repeat },
                    "the trial's process was killed; its region's bounds are unknown, so the account covers what arrived of the process's whole life").ConfigureAwait(false);
            }

            // Let the asynchronous readers reach the end of both pipes.
            process.WaitForExit();

            if (process.ExitCode != 0 || !File.Exists(resultPath))
            {
                string tail;
                lock (errors)
                {
                    tail = LastLine(errors.ToString());
                }

                return await WithAccountAsync(
                    Failed($"the trial process exited with code {process.ExitCode}{(tail.Length > 0 ? ": " + tail : string.Empty)}"),
                    "the trial's process failed; its region's bounds are unknown, so the account covers what arrived of the process's whole life").ConfigureAwait(false);
            }

            var result = await ReadResultAsync().ConfigureAwait(false);
            return result is null
                ? Failed("the trial process wrote an empty result")
                : await WithAccountAsync(result with { Repeat = request.Repeat }, result.Status == TrialStatus.Timeout ? "the trial timed out: the account runs from the region's start to the last event that arrived" : null).ConfigureAwait(false);
        }
        finally
        {
            QuietFile.TryDelete(resultPath);
            QuietFile.TryDelete(resultPath + ".partial");

            // The next trial's region, and its services' measurements, wait for this (the runner finishes a trial
            // before it tells the next to begin): none of this trial's services may outlive it into them.
            List<PreviousTrial> started;
            lock (children)
            {
                started = [.. children];
            }

            foreach (var child in started.Where(c => !c.WaitUntilGone()))
            {
                StopChild(child);
            }
        }

        TrialResult Failed(string error) => TrialResult.Unmeasured(TrialStatus.Failed, error, isolated: true) with { Repeat = request.Repeat };

        // The file is complete once it exists (the child renames it into place); read even as the run is cancelled.
        async Task<TrialResult?> ReadResultAsync() => TrialJson.ReadResult(await File.ReadAllTextAsync(resultPath, CancellationToken.None).ConfigureAwait(false));

        // The runtime's account of the region the trial reported, its figures among the trial's metrics; the
        // region's clock stays between the processes.
        async Task<TrialResult> WithAccountAsync(TrialResult result, string? incomplete)
        {
            if (events is null)
            {
                return eventsNote is null ? result.WithoutPlumbing() : result.WithoutPlumbing() with { Runtime = new RuntimeAccount { Events = _events, Complete = false, Note = eventsNote } };
            }

            var region = result.Region;
            var complete = incomplete is null && region?.End is not null;
            var account = await events.AccountAsync(region?.Start, region?.End, complete, incomplete, region?.LabThreads, region?.Caller).ConfigureAwait(false);

            // A trial that timed out brought no service measurements, but the service's runtime still told its
            // side of the region, which is often the point: kept under a plain name.
            var service = result.Service ?? (serviceEvents is { Attached: true } ? new ServiceMeasurements { Name = "observed" } : null);
            if (service is not null && serviceEvents is not null)
            {
                var serviceAccount = await serviceEvents.AccountAsync(region?.Start, region?.End, complete, incomplete, service.LabThreads).ConfigureAwait(false);
                service = service with { Runtime = serviceAccount, Metrics = WithAccount(service.Metrics, serviceAccount) };
            }

            // A trial with no measurements (it crashed or timed out) gets no figures from the account either.
            var metrics = result.Metrics.Count > 0 ? WithAccount(result.Metrics, account) : result.Metrics;
            return (result with { Runtime = account, Metrics = metrics, Service = service }).WithoutPlumbing();
        }

        static MetricValues WithAccount(IReadOnlyDictionary<string, double> measured, RuntimeAccount account)
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

    // A service still running after PreviousTrial.MostWait: stopped, if the id is still that process's.
    private static void StopChild(PreviousTrial child)
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
