using System.Text.Json;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// Runs one trial in the current process. A child process started by the runner enters through
/// <see cref="RunChildAsync"/>; the in-process mode calls <see cref="RunAsync(TrialRequest, Scenario, bool, CancellationToken)"/> directly.
/// </summary>
internal static class TrialHost
{
    /// <summary>The first argument of a child trial process, followed by the request as JSON.</summary>
    public const string RequestArgument = "--conclab-trial";

    /// <summary>Followed by the path the child writes its <see cref="TrialResult"/> to.</summary>
    public const string ResultArgument = "--conclab-result";

    /// <summary>The line a child writes on standard error once its result file is in place: the runner may start the next trial.</summary>
    public const string ResultWrittenLine = "##conclab-result-written";

    /// <summary>The line the runner writes on a child's standard input once it has finished the trial before
    /// (<see cref="TrialRequest.After"/>).</summary>
    public const string BeginLine = "begin";

    /// <summary>Exit code of a child that could not read its request or find its scenario.</summary>
    public const int BadRequestExitCode = 3;

    /// <summary>Exit code of a child that stopped itself because the process that started it is gone.</summary>
    public const int ParentGoneExitCode = 5;

    /// <summary>Whether <paramref name="args"/> are a child trial's arguments.</summary>
    public static bool IsChildInvocation(IReadOnlyList<string> args) =>
        args is not null && args.Count > 0 && args[0] == RequestArgument;

    /// <summary>
    /// The child side: reads the request from <paramref name="args"/>, runs the trial, writes the result
    /// file and returns the process exit code.
    /// </summary>
    public static async Task<int> RunChildAsync(IReadOnlyList<string> args, IEnumerable<Scenario> scenarios)
    {
        ArgumentNullException.ThrowIfNull(args);

        // The thread the program entered on waits here for the trial to end: the host's wait, not the variant's,
        // unless the variant's region begins on it (then it is the caller, and the account counts it as such).
        Measurement.LabThreads.EnlistCurrent();
        if (args.Count != 4 || args[0] != RequestArgument || args[2] != ResultArgument)
        {
            await Console.Error.WriteLineAsync($"usage: {RequestArgument} <request-json> {ResultArgument} <path>").ConfigureAwait(false);
            return BadRequestExitCode;
        }

        TrialRequest? request;
        try
        {
            request = TrialJson.ReadRequest(args[1]);
        }
        catch (JsonException ex)
        {
            // A request the runner never wrote (run by hand, say): one line, as for an unknown scenario.
            await Console.Error.WriteLineAsync(ex.Message).ConfigureAwait(false);
            return BadRequestExitCode;
        }

        var scenario = NamedScenarios.Find(scenarios, request?.Scenario);
        if (request is null || scenario is null)
        {
            await Console.Error.WriteLineAsync($"unknown scenario '{request?.Scenario}'").ConfigureAwait(false);
            return BadRequestExitCode;
        }

        var watch = new TrialWatch(request.TimeoutMs > 0 ? TimeSpan.FromMilliseconds(request.TimeoutMs)
            : RunOptions.MaxTrialTimeout, RunOptions.TrialStartUpAllowance);
        var resultFile = new ResultFile(args[3]);
        StartWatchdog(watch, resultFile, request.Repeat);
        var result = await RunAsync(request, scenario, isolated: true, watch, CancellationToken.None).ConfigureAwait(false);
        if (!resultFile.TryWrite(result))
        {
            // The watchdog has written the timeout and is ending the process.
            await Task.Delay(Timeout.Infinite).ConfigureAwait(false);
        }

        return 0;
    }

    /// <summary>
    /// One plain thread that sleeps between looks, so it costs no CPU and takes nothing from the pool being
    /// measured: it ends the trial when its region outlives the timeout (writing the timeout as the trial's
    /// result), and ends the process when the parent is gone, so no trial, and none of the services it
    /// started, outlives a run killed with SIGKILL by more than a moment.
    /// </summary>
    private static void StartWatchdog(TrialWatch watch, ResultFile resultFile, int repeat)
    {
        var parent = ParentProcess.Id;
        var watchdog = new Thread(() =>
        {
            Measurement.LabThreads.EnlistCurrent();
            while (true)
            {
                Thread.Sleep(watch.PollInterval);
                if (ParentProcess.IsGone(parent))
                {
                    Environment.Exit(ParentGoneExitCode);
                }

                if (watch.Overrun() is { } reason
                    && resultFile.TryWrite(TrialResult.Unmeasured(TrialStatus.Timeout, "stopped: " + reason, isolated: true) with { Repeat = repeat,
                        Region = watch.Region }))
                {
                    Environment.Exit(0);
                }
            }
        })
        {
            IsBackground = true,
            Name = "conclab watchdog",
        };
        watchdog.Start();
    }

    /// <summary>Where the child writes its one result, whether the trial's own or the watchdog's timeout: the first to
    /// come is written, the other dropped.</summary>
    private sealed class ResultFile(string path)
    {
        private int _claimed;

        public bool TryWrite(TrialResult result)
        {
            if (Interlocked.Exchange(ref _claimed, 1) != 0)
            {
                return false;
            }

            var temporary = path + ".partial";
            File.WriteAllBytes(temporary, TrialJson.WriteUtf8(result));

            // Rename so the parent never reads a half-written file.
            File.Move(temporary, path, overwrite: true);
            Console.Error.WriteLine(ResultWrittenLine);
            return true;
        }
    }

    /// <summary>Runs <paramref name="request"/> on <paramref name="scenario"/> in this process.</summary>
    public static Task<TrialResult> RunAsync(TrialRequest request, Scenario scenario, bool isolated, CancellationToken cancellationToken = default) =>
        RunAsync(request, scenario, isolated, watch: null, cancellationToken);

    /// <summary>Runs the trial, and hands its meter to <paramref name="watch"/> so a watchdog can time the measured region.</summary>
    internal static async Task<TrialResult> RunAsync(
        TrialRequest request,
        Scenario scenario,
        bool isolated,
        TrialWatch? watch,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(scenario);
        var parameters = ParameterValues.FromValidated(request.Parameters);
        using var meter = new TrialMeter(
            TimeSpan.FromMilliseconds(request.SampleIntervalMs),
            TimeSpan.FromMilliseconds(request.ExpectedDurationMs))
        {
            ProcessStartedUtc = isolated ? ProcessStartTime() : null,
            BeforeStart = request.After is { } previous ? () => WaitForTrialBefore(previous) : null,
        };
        watch?.Watch(meter);
        var context = new TrialContext(request.Variant, parameters, request.Seed,
            meter, request.Prime) { ServiceEventPort = request.ServiceEventPort };
        try
        {
            var outcome = await scenario.RunTrialAsync(context, cancellationToken).ConfigureAwait(false);
            if (meter.Result is null)
            {
                // A scenario that failed before its region (such as while priming) says why; keep its words.
                return TrialResult.Unmeasured(TrialStatus.Failed, outcome.Error ?? "the scenario never started its meter",
                    isolated) with { Repeat = request.Repeat, Region = meter.Region };
            }

            // A value no descriptor names could be shown by no report, and one under a standard metric's id would
            // replace a measurement: a scenario's mistake, told in its trials rather than hidden.
            var stray = outcome.Metrics?.Keys.Where(id => !scenario.Metrics.Any(m => m.Id == id) || StandardMetrics.All.Any(m => m.Id == id))
                .ToList() ?? [];
            if (stray.Count > 0)
            {
                outcome = outcome with { Error = outcome.Error
                    ?? $"the scenario recorded metrics it does not describe in Scenario.Metrics, or that are standard ones: " +
                        $"{string.Join(", ", stray)}" };
            }

            return TrialRecord.Of(meter.Result, outcome, isolated) with { Repeat = request.Repeat, Region = meter.Region };
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            // A fixture that failed to start or a scenario bug: recorded, and the run goes on.
            return TrialResult.Unmeasured(TrialStatus.Failed, Scenarios.TrialFailure.Describe(ex), isolated) with { Repeat = request.Repeat,
                Region = meter.Region };
        }
    }

    private static void WaitForTrialBefore(ProcessInstance previous)
    {
        // The runner's word that it has finished the trial before, its account included. The end of input instead
        // means the runner is gone, and the watchdog ends this process. However long the runner takes (converting a
        // long trial's stack samples), none of it counts against this trial's start-up allowance (TrialWatch).
        _ = Console.In.ReadLine();
        if (!previous.WaitUntilGone())
        {
            throw new InvalidOperationException($"the trial before this one (process {previous.ProcessId}) was still running " +
                $"{TrialWatch.Seconds(ProcessInstance.MostWait)} s after it wrote its result, so this region would have shared the machine with it");
        }
    }

    // When this process started, by the kernel's count. On Linux from /proc and the boot clock (see ProcessAge), which
    // needs none of System.Diagnostics.Process; elsewhere, or should /proc not say, from Process.StartTime.
    private static DateTime? ProcessStartTime()
    {
        if (OperatingSystem.IsLinux()
            && ProcessIdentity.StartTimeOf(Environment.ProcessId) is { } ticks
            && long.TryParse(ticks, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var startTicks)
            && ProcessAge.Since(startTicks) is { } age)
        {
            return DateTime.UtcNow - age;
        }

        try
        {
            using var self = System.Diagnostics.Process.GetCurrentProcess();
            return self.StartTime.ToUniversalTime();
        }
        catch (Exception ex) when (ex is InvalidOperationException or NotSupportedException or System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }
}
