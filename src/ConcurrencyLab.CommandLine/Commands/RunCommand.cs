using System.CommandLine;
using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using Spectre.Console;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// <c>conclab run [scenario] [options]</c>: plans the run, refuses bad input with exit code 2 before any
/// trial starts, runs the trials with a progress display, prints a table per scenario and writes the reports.
/// </summary>
internal static class RunCommand
{
    /// <summary>The name under which <c>run</c> runs the full quick suite.</summary>
    public const string AllScenarios = "all";

    public static Command Create(IAnsiConsole console, IReadOnlyList<Scenario> scenarios, LabProgramOptions settings)
    {
        var run = new Command("run", "Run every scenario at its quick scale, or one scenario: conclab run <scenario> [options].");
        var switches = new Switches();

        // Completes to the variants of the scenario in hand (a shell's completion, or `conclab "[suggest]" ...`).
        switches.Variants.CompletionSources.Add(context =>
            NamedScenarios.Find(scenarios, context.ParseResult.CommandResult.Command.Name) is { } scenario
                ? Rendering.ScenarioListing.Completions(scenario, context.WordToComplete, context.ParseResult.GetValue(switches.Quick))
                : []);
        foreach (var option in switches.All)
        {
            option.Recursive = true;
            run.Options.Add(option);
        }

        run.SetAction(
            (parse, cancellationToken) => ExecuteAsync(
                console, new RunInvocation(scenarios, settings, switches, parse, null, [], EveryDefault: false), cancellationToken));

        // The bare run is a first look; the whole quick suite keeps a name of its own.
        if (scenarios.Any(s => s.FirstLook.Count > 0))
        {
            var all = new Command(
                AllScenarios, "Every scenario at its quick scale with all its default variants: the full quick suite, where a bare run " +
                    "takes a first look.");
            all.SetAction(
                (parse, cancellationToken) => ExecuteAsync(
                    console, new RunInvocation(scenarios, settings, switches, parse, null, [], EveryDefault: true), cancellationToken));
            run.Subcommands.Add(all);
        }

        foreach (var scenario in scenarios)
        {
            var command = new Command(scenario.Name, scenario.Summary);
            var parameterOptions = ParameterOptions.Add(command, scenario.Parameters);

            command.SetAction(
                (parse, cancellationToken) => ExecuteAsync(
                    console, new RunInvocation(scenarios, settings, switches, parse, scenario, parameterOptions, EveryDefault: false),
                        cancellationToken));
            run.Subcommands.Add(command);
        }

        return run;
    }

    // The command's action: the command line read into a typed request, the request checked and planned, then run.
    // Every refusal comes before anything runs, in one go, exit code 2.
    private static async Task<int> ExecuteAsync(IAnsiConsole console, RunInvocation invocation, CancellationToken cancellationToken)
    {
        var errors = new List<string>();

        // Before anything starts: a temporary folder that cannot serve would hang the run, or lose its trials.
        if (ConcurrencyLab.FileSystem.TemporaryFolder.Problem() is { } temporary)
        {
            errors.Add(temporary);
        }

        var request = Read(console, invocation, errors);
        var plan = errors.Count == 0 ? Validate(request, invocation.Scenarios, errors) : null;
        if (errors.Count > 0 || plan is null)
        {
            await ErrorLine.WriteAsync(errors).ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        return await RunAsync(console, invocation.Settings, request, plan, cancellationToken).ConfigureAwait(false);
    }

    // The command line as a typed request; what does not parse is added to errors, with the flag it came from.
    private static RunRequest Read(IAnsiConsole console, RunInvocation invocation, List<string> errors)
    {
        var (scenarios, settings, switches, parse, scenario, parameterOptions, everyDefault) = invocation;
        var parameters = ParameterOptions.Read(parse, parameterOptions);

        // What is not given keeps RunOptions' default; what is given is checked against its range by the planner.
        var defaults = settings.Defaults;
        var options = defaults with
        {
            Scenarios = scenario is null ? [] : [scenario.Name],
            Variants = SplitList(parse.GetValue(switches.Variants)),
            Parameters = parameters,
            Repeat = WholeNumber(parse, switches.Repeat, errors) ?? WholeNumber(parse, switches.RepeatExactly, errors) ?? defaults.Repeat,
            RepeatExactly = parse.GetResult(switches.RepeatExactly) is not null || defaults.RepeatExactly,
            Warmup = WholeNumber(parse, switches.Warmup, errors) ?? defaults.Warmup,
            Seed = WholeNumber(parse, switches.Seed, errors) ?? defaults.Seed,
            Quick = parse.GetValue(switches.Quick) || scenario is null || defaults.Quick,

            // A bare run takes a first look at every scenario: the variants that carry its published finding and
            // the answer done right.
            FirstLook = (scenario is null && !everyDefault) || defaults.FirstLook,
            InProcess = parse.GetValue(switches.InProcess) || defaults.InProcess,
            FixedOrder = parse.GetValue(switches.FixedOrder) || defaults.FixedOrder,
            TrialTimeout = Number(parse, switches.TrialTimeout, errors, "seconds") is { } seconds ? Span(seconds, TimeSpan.TicksPerSecond)
                : defaults.TrialTimeout,
            SampleInterval = Number(parse, switches.SampleInterval, errors, "milliseconds") is { } ms ? Span(ms, TimeSpan.TicksPerMillisecond)
                : defaults.SampleInterval,
            Baseline = parse.GetValue(switches.Baseline) ?? defaults.Baseline,
            Prime = !parse.GetValue(switches.NoPrime) && defaults.Prime,
            Events = Events(parse, switches.Events, errors) ?? defaults.Events,
            Grow = parse.GetValue(switches.Grow) ?? defaults.Grow,
            AllowLargePlan = parse.GetValue(switches.Yes) || defaults.AllowLargePlan,
        };
        options = RuntimeSettingsOf(parse, switches, errors, options);

        if (parse.GetResult(switches.Repeat) is not null && parse.GetResult(switches.RepeatExactly) is not null)
        {
            errors.Add("--repeat and --repeat-exactly cannot both be given: --repeat N is the most trials, --repeat-exactly N the exact count.");
        }

        // An empty list is not "every variant": it names none, which is a mistake, not a request for the defaults.
        if (parse.GetValue(switches.Variants) is { } named && options.Variants.Count == 0)
        {
            errors.Add($"--variants must name at least one variant, not '{named}'.");
        }

        // Found out now, not after the run, when the results would have nowhere to go.
        var outFolder = parse.GetValue(switches.Out);
        var jsonPath = parse.GetValue(switches.Json);
        errors.AddRange(ResultsOutput.Problems(outFolder, jsonPath));

        var columns = TableColumns.Default;
        if (parse.GetValue(switches.Columns) is { } columnsText
            && !TableColumns.TryParse(columnsText, scenarios.SelectMany(s => s.Metrics), out columns, out var columnsProblem))
        {
            errors.Add(columnsProblem);
        }

        var thresholds = new List<Threshold>();
        foreach (var text in parse.GetValue(switches.Assert) ?? [])
        {
            if (Threshold.TryParse(text, out var threshold, out var problem))
            {
                thresholds.Add(threshold!);
            }
            else
            {
                errors.Add(problem!);
            }
        }

        var live = LiveSession.Possible(console, parse.GetValue(switches.Plain));
        return new RunRequest(options, outFolder, jsonPath, columns, thresholds, live, parse.GetValue(switches.Crank) || CrankJob.IsRunning());
    }

    // The request planned; what the plan refuses, and a threshold on a variant the run will not measure, are errors.
    private static RunPlan? Validate(RunRequest request, IReadOnlyList<Scenario> scenarios, List<string> errors)
    {
        if (!RunPlanner.TryCreate(request.Options, scenarios, Flag, out var plan, out var planErrors))
        {
            errors.AddRange(planErrors);
            return null;
        }

        // A threshold on a variant the run will not measure could never fail: a typo, said before anything runs.
        var planned = plan.Scenarios.SelectMany(s => s.Variants.Select(v => (s.Scenario.Name, v.Name))).ToList();
        errors.AddRange(request.Thresholds.Where(t => !t.Names(planned))
            .Select(t => $"--assert '{t.Text}': this run measures no such variant{(t.Scenario is null ? string.Empty : " in " + t.Scenario)}."));

        // A misspelt quantity would only fail at the end, after the whole benchmark: refused before anything runs.
        var measured = StandardMetrics.All.Select(m => m.Id).Concat(plan.Scenarios.SelectMany(s => s.Scenario.Metrics.Select(m => m.Id))).ToList();
        errors.AddRange(request.Thresholds.Select(t => t.UnknownQuantity(measured)).OfType<string>());
        return errors.Count == 0 ? plan : null;
    }

    // The flag that sets a RunOptions member, for the planner's errors: a user of the command line reads its flags,
    // a user of the library its members.
    private static string Flag(string member) => member switch
    {
        nameof(RunOptions.Repeat) => "--repeat (or --repeat-exactly)",
        nameof(RunOptions.Warmup) => "--warmup",
        nameof(RunOptions.TrialTimeout) => "--trial-timeout",
        nameof(RunOptions.SampleInterval) => "--sample-interval",
        nameof(RunOptions.Baseline) => "--baseline",
        nameof(RunOptions.InProcess) => "--in-process",
        nameof(RunOptions.RuntimeEnvironment) => "--runtime-env",
        nameof(RunOptions.AllowLargePlan) => "--yes",
        RunPlanner.RuntimeSettingsKey => "the runtime's settings (--cores, --pool-min-threads, --hill-climbing, --gc, --runtime-env)",
        _ => member,
    };

    // The planned run: measured through the one pipeline, shown, written, and held to its thresholds last.
    private static async Task<int> RunAsync(
        IAnsiConsole console,
        LabProgramOptions settings,
        RunRequest request,
        RunPlan plan,
        CancellationToken cancellationToken)
    {
        var (options, columns, thresholds, live, jsonPath) = (request.Options, request.Columns, request.Thresholds, request.Live, request.JsonPath);

        // Made only now the input is known to be good: a refused command line leaves nothing behind. Taken for this run
        // before anything is measured: another run writing there would lose one's results.
        var folder = request.OutFolder ?? Exporters.DefaultFolder();
        var made = request.OutFolder is null || !Directory.Exists(folder);
        using var taken = OutputLock.Take("--out", folder, out var held);
        if ((taken is null ? held : ResultsRoom.Problem(folder, plan)) is { } refusal)
        {
            // A folder made for this run goes with it; one that was there stays as it was.
            taken?.Dispose();
            if (made && taken is not null && Directory.Exists(folder) && !Directory.EnumerateFileSystemEntries(folder).Any())
            {
                Directory.Delete(folder);
            }

            await ErrorLine.WriteAsync(refusal).ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        var logger = new ConsoleErrorLogger();
        var result = live
            ? await RunLiveAsync(console, options, logger, plan, request.Crank, cancellationToken).ConfigureAwait(false)
            : await Lab.MeasureAsync(plan, options, CrankJob.Observing(new PlainProgress(console, printTables: true, columns), request.Crank),
                logger, cancellationToken).ConfigureAwait(false);
        if (live)
        {
            // The live view cleared itself: the tables come once the run is over.
            foreach (var scenarioResult in result.Scenarios)
            {
                console.Write(ResultTableRenderer.Render(scenarioResult, columns: columns, width: console.Profile.Width));
            }
        }

        if (result.Scenarios.Count > 1)
        {
            console.Write(RunSummaryRenderer.Render(result));
        }

        var failures = ResultsOutput.Write(console, result, folder, jsonPath, settings.ChartFormats);
        if (result.Cancelled)
        {
            return ExitCode.Cancelled;
        }

        // The thresholds last, after every result is written, so a failed one loses nothing.
        var breaches = thresholds.SelectMany(t => t.Check(result)).Where(c => !c.Met).ToList();
        foreach (var breach in breaches)
        {
            console.MarkupLineInterpolated($"[red]threshold not met: {breach.Threshold.Text}: {breach.Message}[/]");
        }

        if (thresholds.Count > 0 && breaches.Count == 0)
        {
            console.MarkupLineInterpolated($"[green]{thresholds.Count} threshold(s) met.[/]");
        }

        // Last of all: crank's agent reads the block where it ends the output.
        if (request.Crank)
        {
            await CrankJob.WriteAsync(result).ConfigureAwait(false);
        }

        var allOk = result.Scenarios.SelectMany(s => s.Variants).All(v => v.Status == TrialStatus.Ok);
        return breaches.Count > 0 ? ExitCode.ThresholdFailed : allOk && failures.Count == 0 ? ExitCode.Ok : ExitCode.Failed;
    }

    private static async Task<RunResult> RunLiveAsync(
        IAnsiConsole console,
        RunOptions options,
        ConsoleErrorLogger logger,
        RunPlan plan,
        bool crank,
        CancellationToken cancellationToken)
    {
        RunResult? record = null;
        await LiveSession.Show(console, plan, async observer =>
            record = await Lab.MeasureAsync(plan, options, CrankJob.Observing(observer, crank), logger, cancellationToken).ConfigureAwait(false))
                .ConfigureAwait(false);
        return record!;
    }

    private static string[] SplitList(string? text) =>
        text is null ? [] : text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static int? WholeNumber(ParseResult parse, Option<string> option, List<string> errors)
    {
        var text = parse.GetValue(option);
        if (text is null)
        {
            return null;
        }

        if (int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
        {
            return value;
        }

        errors.Add($"{option.Name} must be a whole number, not '{text}'.");
        return null;
    }

    private static double? Number(ParseResult parse, Option<string> option, List<string> errors, string unit)
    {
        var text = parse.GetValue(option);
        if (text is null)
        {
            return null;
        }

        if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value))
        {
            return value;
        }

        errors.Add($"{option.Name} must be a number of {unit}, not '{text}'.");
        return null;
    }

    // A duration of so many units, held within what a TimeSpan can say and never rounded down to nothing (a positive
    // number stays positive), so the planner refuses it with its range rather than as something else.
    private static TimeSpan Span(double units, long ticksPerUnit) =>
        TimeSpan.FromTicks((long)Math.Ceiling(Math.Clamp(units * ticksPerUnit, TimeSpan.MinValue.Ticks / 2.0, TimeSpan.MaxValue.Ticks / 2.0)));

    // The runtime's settings for every trial, each by RuntimeSetting.Apply's rule: one value (--cores 2) the runtime's
    // own variable for the whole run, several (--cores 2,8) a sweep that multiplies the variants; then any DOTNET_
    // variable given as NAME=VALUE (which the planner checks).
    private static RunOptions RuntimeSettingsOf(ParseResult parse, Switches switches, List<string> errors, RunOptions options)
    {
        Setting(switches.Cores, RuntimeSettings.Cores,
            WholeNumberOf, $"a whole number from {RuntimeSettings.Cores.Parameter.Minimum} to {RuntimeSettings.Cores.Parameter.Maximum}");
        Setting(switches.MinThreads, RuntimeSettings.PoolMinimum,
            WholeNumberOf, $"a whole number from {RuntimeSettings.PoolMinimum.Parameter.Minimum} to {RuntimeSettings.PoolMinimum.Parameter.Maximum}");
        Setting(switches.HillClimbing, RuntimeSettings.HillClimbing, text => text.ToLowerInvariant() switch { "on" => 1, "off" => 0, _ => null },
            "on or off");
        Setting(switches.Gc, RuntimeSettings.ServerGc, text => text.ToLowerInvariant() switch { "server" => 1, "workstation" => 0, _ => null },
            "server or workstation");

        // A variable an option of its own sets (--gc sets DOTNET_gcServer) is not given again: the two could
        // disagree, and which one the trials ran with would be no one's guess.
        (Option<string> Option,
            RuntimeSetting Setting)[] dedicated = [(switches.Cores, RuntimeSettings.Cores), (switches.MinThreads, RuntimeSettings.PoolMinimum),
                (switches.HillClimbing, RuntimeSettings.HillClimbing), (switches.Gc, RuntimeSettings.ServerGc)];
        var environment = new Dictionary<string, string>(options.RuntimeEnvironment, StringComparer.Ordinal);
        foreach (var pair in parse.GetValue(switches.RuntimeEnv) ?? [])
        {
            var equals = pair.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0)
            {
                errors.Add($"--runtime-env takes DOTNET_NAME=VALUE, not '{pair}'.");
                continue;
            }

            var name = pair[..equals].Trim();
            if (dedicated.FirstOrDefault(d => string.Equals(d.Setting.Variable, name, StringComparison.OrdinalIgnoreCase)
                && parse.GetValue(d.Option) is not null) is { Option: { } both })
            {
                errors.Add($"--runtime-env {pair} and {both.Name} {parse.GetValue(both)} both set {name}; give one of them.");
                continue;
            }

            environment[name] = pair[(equals + 1)..];
        }

        return options with { RuntimeEnvironment = environment };

        static int? WholeNumberOf(string text) => int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n : null;

        void Setting(Option<string> option, RuntimeSetting setting, Func<string, int?> read, string allowed)
        {
            if (parse.GetValue(option) is not { } text)
            {
                return;
            }

            var values = new List<int>();
            var items = text.Split(',', StringSplitOptions.TrimEntries);
            if (items.Length > Parameter.MostListValues)
            {
                errors.Add(
                    string.Create(
                        CultureInfo.InvariantCulture, $"{option.Name} takes at most {Parameter.MostListValues:N0} values, not {items.Length:N0}."));
                return;
            }

            foreach (var item in items)
            {
                if (read(item) is { } value && value >= setting.Parameter.Minimum && value <= setting.Parameter.Maximum)
                {
                    if (!values.Contains(value))
                    {
                        values.Add(value);
                    }
                }
                else
                {
                    errors.Add($"{option.Name} takes {allowed}, or several separated by commas, not '{text}'.");
                    return;
                }
            }

            options = setting.Apply(options, values);
        }
    }

    // off, pool, full or stacks, in any case; anything else is a one-line error.
    private static RuntimeEvents? Events(ParseResult parse, Option<string> option, List<string> errors)
    {
        if (parse.GetValue(option) is not { } text)
        {
            return null;
        }

        foreach (var level in Enum.GetValues<RuntimeEvents>())
        {
            if (string.Equals(text.Trim(), level.ToString(), StringComparison.OrdinalIgnoreCase))
            {
                return level;
            }
        }

        errors.Add($"{option.Name} must be off, pool, full or stacks, not '{text}'.");
        return null;
    }

    /// <summary>What one of <c>run</c>'s commands was invoked with: the program's scenarios and settings, the parsed
    /// line, and which command.</summary>
    /// <param name="Scenarios">The program's scenarios.</param>
    /// <param name="Settings">The program's settings (defaults, chart formats).</param>
    /// <param name="Switches">The options every <c>run</c> command shares.</param>
    /// <param name="Parse">The parsed command line.</param>
    /// <param name="Scenario">The scenario named, or null for a run of them all.</param>
    /// <param name="ParameterOptions">That scenario's own options, each with the parameter it sets.</param>
    /// <param name="EveryDefault">Whether it is <c>run all</c>: every default variant, not the first look.</param>
    private sealed record RunInvocation(
        IReadOnlyList<Scenario> Scenarios,
        LabProgramOptions Settings,
        Switches Switches,
        ParseResult Parse,
        Scenario? Scenario,
        IReadOnlyList<(Parameter Descriptor, Option Option)> ParameterOptions,
        bool EveryDefault);

    /// <summary>The options every run takes, before or after the scenario name; one set per command tree.</summary>
    private sealed class Switches
    {
        public readonly Option<string> Variants = new(
            "--variants") { Description = "Comma-separated variant names to run instead of the defaults, e.g. channel,parallel-for@4" };
        public readonly Option<string> Repeat = new(
            "--repeat") { Description = $"The most measured trials per variant: one stops once out of contention after " +
                $"{EarlyStopping.MinimumTrials} ({EarlyStopping.FarMinimumTrials} in a workload of your own, " +
                $"{EarlyStopping.FarOutOfContentionRatio:0}x out), or with its interval tight after " +
                $"{EarlyStopping.TightMinimumTrials} [default: {RunOptions.DefaultRepeat}; {RunOptions.QuickRepeat} with --quick]" };
        public readonly Option<string> RepeatExactly = new(
            "--repeat-exactly") { Description = "Exactly this many measured trials per variant, none stopping early" };
        public readonly Option<string> Warmup = new(
            "--warmup") { Description = $"Discarded trials per variant before the measured ones [default: {RunOptions.DefaultWarmup}; " +
                $"{RunOptions.QuickWarmup} with --quick]" };
        public readonly Option<string> Seed = new(
            "--seed") { Description = $"Seed of the workload; the same seed gives the same work [default: {RunOptions.DefaultSeed}]" };
        public readonly Option<bool> Quick = new(
            "--quick") { Description = "Each scenario's small scale, with no warmup trials: a minute or two a scenario" };
        public readonly Option<string> Out = new(
            "--out") { Description = "Folder for results.json, results.md, results.csv, report.html and the charts (charts/*.svg and *.png) " +
                "[default: conclab-results/<UTC timestamp>]" };
        public readonly Option<string> Json = new("--json") { Description = "Also write results.json to this file" };
        public readonly Option<bool> InProcess = new(
            "--in-process") { Description = "Run every trial in this process, to see what isolation changes" };
        public readonly Option<bool> FixedOrder = new(
            "--fixed-order") { Description = "Run the variants in the order --variants names them in every round, not rotated; with " +
                "--in-process, as a post that ran its cases one after another in one process" };
        public readonly Option<string> TrialTimeout = new("--trial-timeout")
        {
            Description = $"Seconds a trial's measured region may last before the trial is stopped and recorded as timed out (its start-up " +
                $"and priming have {RunOptions.TrialStartUpAllowance.TotalSeconds.ToString(CultureInfo.InvariantCulture)} s of their own), " +
                $"at most {RunOptions.MaxTrialTimeout.TotalSeconds.ToString(CultureInfo.InvariantCulture)} [default: " +
                $"{RunOptions.DefaultTrialTimeout.TotalSeconds.ToString(CultureInfo.InvariantCulture)}]",
        };

        public readonly Option<string> SampleInterval = new("--sample-interval")
        {
            Description = $"Milliseconds between samples of threads, the pool's queue and CPU; 0 turns the sampler off [default: " +
                $"{RunOptions.DefaultSampleInterval.TotalMilliseconds.ToString(CultureInfo.InvariantCulture)}]",
        };
        public readonly Option<string> Baseline = new(
            "--baseline") { Description = "Variant the ratio column compares with [default: the scenario's]" };
        public readonly Option<bool> NoPrime = new(
            "--no-prime") { Description = "Measure each variant cold: skip the unmeasured dry run that compiles its code first" };
        public readonly Option<string> Columns = new(
            "--columns") { Description = "The console table's columns: all, or ids separated by commas (medianWallMs, peakThreads, " +
                "cpuMs...); by default those that decide, as many as the terminal fits. The results files keep every column" };
        public readonly Option<bool> Yes = new(
            "--yes") { Description = $"Run a plan estimated to take {RunPlan.Spoken(RunOptions.LargePlanDuration)} or more at least, which " +
                $"is otherwise refused with its count and estimate (no plan runs past {RunOptions.MostVariants:N0} variants or " +
                $"{RunOptions.MostTrials:N0} trials, what a results file holds)" };
        public readonly Option<bool> Plain = new("--plain") { Description = "Plain progress lines even on a terminal" };
        public readonly Option<bool> Crank = new(
            "--crank") { Description = "Report as a crank job: each trial's process id on standard error (##ChildProcessId:PID), and the " +
                "run's figures between #StartJobStatistics and #EndJobStatistics as the last output; on by itself under crank's agent " +
                "(CRANK_JOB_ID set)" };
        public readonly Option<string> Events = new("--events")
        {
            Description = $"The runtime's own account of each trial, read from its events outside its process: off; pool (the thread pool's " +
                $"decisions and why, GC pauses); full (also lock contentions and waits: time blocked); stacks (also every thread's stack " +
                $"each millisecond: time by state, and the call sites that blocked) [default: " +
                $"{RunOptions.DefaultEvents.ToString().ToLowerInvariant()}]",
        };

        public readonly Option<string[]> Assert = new("--assert")
        {
            Description = "A threshold the run must meet, or exit 3 once every result is written: [scenario/]variant:quantity<=value, the " +
                "quantity median (ms, or a multiple of the ideal: median<=1.2ideal), efficiency, ratio, failed, lost or a metric's id " +
                "(peakPoolThreads<=8); * for every variant; repeatable",
            AllowMultipleArgumentsPerToken = false,
        };

        public readonly Option<string> Cores = new(
            "--cores") { Description = "The processor count every trial's runtime sees (DOTNET_PROCESSOR_COUNT): its pool minimum and " +
                "default degrees follow; above the real cores, the runtime's policies are emulated, not the CPUs. Several, comma-separated, " +
                "multiply the variants (whenall:cores=2, whenall:cores=8)" };
        public readonly Option<string> MinThreads = new(
            "--pool-min-threads") { Description = "The pool's minimum worker threads in every trial " +
                "(DOTNET_ThreadPool_ForceMinWorkerThreads); several multiply the variants (:pool-min=N)" };
        public readonly Option<string> HillClimbing = new(
            "--hill-climbing") { Description = "on or off: the pool's hill climbing in every trial (DOTNET_HillClimbing_Disable); on,off " +
                "multiplies the variants (:hill-climbing=1|0)" };
        public readonly Option<string> Gc = new(
            "--gc") { Description = "server or workstation: the GC every trial runs (DOTNET_gcServer); server,workstation multiplies the " +
                "variants (:server-gc=1|0)" };
        public readonly Option<string[]> RuntimeEnv = new(
            "--runtime-env") { Description = "Any DOTNET_NAME=VALUE set in every trial's process before its runtime starts; repeatable",
                AllowMultipleArgumentsPerToken = false };

        public readonly Option<string> Grow = new(
            "--grow") { Description = "How each variant's cost grows with the work: NAME=SIZE,SIZE,... (items=100,1000,10000) runs every " +
                "variant at each size of a whole-number parameter of the scenario and reports the growth exponent of its median, with its " +
                "interval, and the size at which it stops keeping up" };

        public Option[] All
            => [Variants, Repeat, RepeatExactly, Warmup, Seed, Quick, Out, Json, InProcess, FixedOrder, TrialTimeout, SampleInterval, Baseline,
                NoPrime, Events, Assert, Cores, MinThreads, HillClimbing, Gc, RuntimeEnv, Grow, Columns, Yes, Plain, Crank];
    }
}

/// <summary>A <c>run</c> as its command line asked for it, typed.</summary>
/// <param name="Options">What to run and how.</param>
/// <param name="OutFolder">Where the reports go; null for a new folder under <c>conclab-results/</c>.</param>
/// <param name="JsonPath">A further copy of <c>results.json</c>, or null.</param>
/// <param name="Columns">The console table's columns.</param>
/// <param name="Thresholds">What <c>--assert</c> holds the results to.</param>
/// <param name="Live">Whether the live view shows the run (a terminal that can draw it, and no <c>--plain</c>).</param>
/// <param name="Crank">Whether the run reports as a crank job (<c>--crank</c>, or under crank's agent).</param>
internal sealed record RunRequest(RunOptions Options, string? OutFolder, string? JsonPath, TableColumns Columns,
    IReadOnlyList<Threshold> Thresholds, bool Live, bool Crank = false);
