using System.Text.Json;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Running;

/// <summary>
/// Runs one trial in the current process. A child process started by the runner enters through
/// <see cref="RunChildAsync"/>; the in-process mode calls <see cref="RunAsync"/> directly.
/// </summary>
public static class TrialHost
{
    /// <summary>The first argument of a child trial process, followed by the request as JSON.</summary>
    public const string RequestArgument = "--conclab-trial";

    /// <summary>Followed by the path the child writes its <see cref="TrialResult"/> to.</summary>
    public const string ResultArgument = "--conclab-result";

    /// <summary>Exit code of a child that could not read its request or find its scenario.</summary>
    public const int BadRequestExitCode = 3;

    /// <summary>Exit code of a child that stopped itself after outliving its timeout (its parent is gone).</summary>
    public const int WatchdogExitCode = 4;

    // How long past its timeout a child waits for the parent to kill it before it exits by itself.
    private static readonly TimeSpan WatchdogGrace = TimeSpan.FromSeconds(10);

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
        if (args.Count != 4 || args[0] != RequestArgument || args[2] != ResultArgument)
        {
            await Console.Error.WriteLineAsync($"usage: {RequestArgument} <request-json> {ResultArgument} <path>").ConfigureAwait(false);
            return BadRequestExitCode;
        }

        var request = JsonSerializer.Deserialize<TrialRequest>(args[1], LabJson.Options);
        var scenario = scenarios.FirstOrDefault(s => s.Name == request?.Scenario);
        if (request is null || scenario is null)
        {
            await Console.Error.WriteLineAsync($"unknown scenario '{request?.Scenario}'").ConfigureAwait(false);
            return BadRequestExitCode;
        }

        if (request.TimeoutMs > 0)
        {
            StartWatchdog(TimeSpan.FromMilliseconds(request.TimeoutMs) + WatchdogGrace);
        }

        var result = await RunAsync(request, scenario, isolated: true).ConfigureAwait(false);
        var temporary = args[3] + ".partial";
        await File.WriteAllTextAsync(temporary, JsonSerializer.Serialize(result, LabJson.Compact)).ConfigureAwait(false);

        // Rename so the parent never reads a half-written file.
        File.Move(temporary, args[3], overwrite: true);
        return 0;
    }

    private static void StartWatchdog(TimeSpan limit)
    {
        // A plain background thread that sleeps: it costs no CPU and does not touch the pool being measured.
        var watchdog = new Thread(() =>
        {
            Thread.Sleep(limit);
            Environment.Exit(WatchdogExitCode);
        })
        {
            IsBackground = true,
            Name = "conclab watchdog",
        };
        watchdog.Start();
    }

    /// <summary>Runs <paramref name="request"/> on <paramref name="scenario"/> in this process.</summary>
    public static async Task<TrialResult> RunAsync(TrialRequest request, Scenario scenario, bool isolated, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(scenario);
        var parameters = ParameterValues.FromValidated(request.Parameters);
        using var meter = new TrialMeter(
            TimeSpan.FromMilliseconds(request.SampleIntervalMs),
            TimeSpan.FromMilliseconds(request.ExpectedDurationMs));
        var context = new TrialContext(request.Variant, parameters, request.Seed, meter, request.Prime);
        try
        {
            var outcome = await scenario.RunTrialAsync(context, cancellationToken).ConfigureAwait(false);
            if (meter.Result is null)
            {
                // A scenario that failed before its region (such as while priming) says why; keep its words.
                return TrialResult.Unmeasured(TrialStatus.Failed, outcome.Error ?? "the scenario never started its meter", isolated) with { Repeat = request.Repeat };
            }

            // A value no descriptor names could be shown by no report, and one under a standard metric's id would
            // replace a measurement: a scenario's mistake, told in its trials rather than hidden.
            var stray = outcome.Metrics?.Keys.Where(id => !scenario.Metrics.Any(m => m.Id == id) || StandardMetrics.All.Any(m => m.Id == id)).ToList() ?? [];
            if (stray.Count > 0)
            {
                outcome = outcome with { Error = outcome.Error ?? $"the scenario recorded metrics it does not describe in Scenario.Metrics, or that are standard ones: {string.Join(", ", stray)}" };
            }

            return TrialResult.From(meter.Result, outcome, isolated) with { Repeat = request.Repeat };
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            // A fixture that failed to start or a scenario bug: recorded, and the run goes on.
            return TrialResult.Unmeasured(TrialStatus.Failed, Scenarios.TrialFailure.Describe(ex), isolated) with { Repeat = request.Repeat };
        }
    }
}
