using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Reproduction;

/// <summary>
/// Times a claim's cases in builds of the trial probe (<see cref="ProbeBuild"/>): publishes the probe each way into
/// the run's own folder (from the lab's sources, which a clone has), then runs every trial in a fresh process of the
/// build, the order of the cases rotated each round, unprimed as the post ran them. Each case in each build is a
/// variant of its own, <c>channel:build=native-aot</c>; a build that cannot be made fails its variants, with why.
/// </summary>
internal sealed class ProbeBuilds
{
    /// <summary>The probe's project, relative to the root of the lab's sources.</summary>
    public const string ProjectPath = "src/ConcurrencyLab.BuildProbe/ConcurrencyLab.BuildProbe.csproj";

    private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(10);

    private readonly Action<string> _say;
    private readonly string? _project;

    /// <param name="say">Where a line of progress goes.</param>
    /// <param name="project">The probe's project file; null for the one in the sources this build was made from.</param>
    public ProbeBuilds(Action<string> say, string? project = null)
    {
        _say = say;
        _project = project ?? Find();
    }

    /// <summary>
    /// The probe's project in the sources this build was made from (their folder is stamped into the assembly when it
    /// is built); null when they are not on this machine, as for a tool installed from a package. Only that one
    /// folder is looked in: a project found anywhere else would be code this build never saw.
    /// </summary>
    public static string? Find() =>
        typeof(ProbeBuilds).Assembly.GetCustomAttributes(typeof(System.Reflection.AssemblyMetadataAttribute), false)
            .OfType<System.Reflection.AssemblyMetadataAttribute>()
            .FirstOrDefault(a => a.Key == "ConcurrencyLab.SourceRoot")?.Value is { Length: > 0 } root
            ? Find(root)
            : null;

    /// <summary>The probe's project under the sources' root <paramref name="root"/>; null when it is not there.</summary>
    public static string? Find(string root)
    {
        var candidate = Path.Combine(root, ProjectPath);
        return File.Exists(candidate) ? Path.GetFullPath(candidate) : null;
    }

    /// <summary>The name a build's variants carry: <c>framework</c>, <c>as-noted</c>, <c>native-aot</c>.</summary>
    public static string Name(ProbeBuild build) => build.Word();

    /// <summary>Builds every build of <paramref name="run"/> and times its cases in each.</summary>
    public async Task<RunResult> RunAsync(Scenario scenario, ClaimRun run, bool quick, string folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(run);
        if (_project is null)
        {
            throw new ReproductionException($"{run.Key}: the builds are made from the lab's sources ({ProjectPath}), and the sources this " +
                $"conclab was built from are not on this machine; run conclab from a clone");
        }

        var parameters = ParameterValues.Create(scenario.Parameters, run.ParametersAt(quick), quick, out var errors);
        if (errors.Count > 0)
        {
            throw new ReproductionException($"{run.Key} could not be planned: {string.Join("; ", errors)}");
        }

        // The builds are made in the run's own folder and removed once timed: hundreds of MB that measure nothing.
        var buildsFolder = Path.Combine(folder, "builds");
        try
        {
            return await BuildAndTimeAsync(scenario, run, quick, parameters, buildsFolder, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            FileSystem.QuietFile.DeleteTree(buildsFolder);
        }
    }

    private async Task<RunResult> BuildAndTimeAsync(
        Scenario scenario,
        ClaimRun run,
        bool quick,
        ParameterValues parameters,
        string buildsFolder,
        CancellationToken cancellationToken)
    {
        var started = DateTimeOffset.UtcNow;
        var builds = new List<(ProbeBuild Build, string[]? Command, string? Problem)>();
        foreach (var build in run.Builds)
        {
            cancellationToken.ThrowIfCancellationRequested();
            _say($"{run.Key}: building the probe {Name(build)}");
            var (command,
                problem) = await PublishAsync(build, Path.Combine(buildsFolder, Name(build)), Path.Combine(buildsFolder, "artifacts"),
                    cancellationToken).ConfigureAwait(false);
            builds.Add((build, command, problem));
        }

        var repeat = (quick ? run.QuickRepeat : run.Repeat) ?? (quick ? RunOptions.QuickRepeat : RunOptions.DefaultRepeat);
        // Each case is the variant with its build as one more value of its key: channel:build=native-aot.
        var space = scenario.Variants(parameters);
        var variants = run.VariantsAt(quick)
            .Select(name => space.TryParse(name, allowUnavailable: true, out var variant, out var problem) ? variant
                : throw new ReproductionException($"{run.Key}: {problem}"))
            .ToList();
        VariantKey InBuild(Variant variant, ProbeBuild build) => variant.Key.With(ProbeBuildValues.Parameter, VariantValue.Of(build.Word()));
        var cases = builds.SelectMany(b => variants.Select(v => (Variant: v, b.Build, b.Command, b.Problem))).ToList();
        var trials = cases.ToDictionary(c => InBuild(c.Variant, c.Build), _ => new List<TrialResult>());
        var timeout = run.TrialTimeoutAt(quick) + RunOptions.TrialStartUpAllowance;

        // Over the timed trials only: the builds leave a build server running, which is no trial's.
        var load = MachineLoadMeter.Start();
        for (var round = 0; round < repeat; round++)
        {
            // Rotated each round, as the lab's isolated runs are, so no case always follows the same one.
            foreach (var (variant, build, command, problem) in cases.Skip(round % cases.Count).Concat(cases.Take(round % cases.Count)))
            {
                cancellationToken.ThrowIfCancellationRequested();
                var trial = command is null
                    ? TrialResult.Unmeasured(TrialStatus.Failed, $"the {Name(build)} build could not be made: {problem}", isolated: true)
                    : await TrialAsync(command, scenario, variant.Name, parameters, run, timeout, cancellationToken).ConfigureAwait(false);
                trials[InBuild(variant, build)].Add(trial with { Repeat = round });
                _say($"{run.Key}: {space.NameOf(InBuild(variant, build))} trial {round + 1}: " +
                    $"{(trial.Status == TrialStatus.Ok ? ClaimEvidence.Time(trial.WallMs) : trial.Error)}");
            }
        }

        var machineLoad = load.Finish();
        var ideal = scenario.Ideal(parameters, RunOptions.DefaultSeed);
        var result = Summarizer.Answer(new ScenarioResult
        {
            Name = scenario.Name,
            MachineLoad = machineLoad,
            Parameters = parameters.Values,
            IdealMs = ideal.Ms,
            IdealReason = ideal.Reason,
            Baseline = space.NameOf(InBuild(variants[0], run.Builds[0])),
            Metrics = scenario.Metrics,
            Variants =
            [
                .. cases.Select(c => (c.Variant, c.Build, Key: InBuild(c.Variant, c.Build))).Select(c => new VariantResult
                {
                    Name = space.NameOf(c.Key),
                    Description = $"{c.Variant.Name} in the probe's {c.Build.Word()} build",
                    Family = c.Key.Family,
                    Form = c.Key.Form,
                    Parameters = c.Key.RecordedValues(),
                    Status = Summarizer.VariantStatus(trials[c.Key]),
                    Trials = trials[c.Key],
                    Summary = Summarizer.Summarise(trials[c.Key], ideal.Ms, null, scenario.Metrics),
                }),
            ],
            Notes =
            [
                $"builds: each trial a fresh process of the probe (src/ConcurrencyLab.BuildProbe) built " +
                    $"{string.Join(", ", builds.Select(b => Name(b.Build)))}, unprimed, the order rotated each round.",
                .. builds.Where(b => b.Problem is not null).Select(b => $"the {Name(b.Build)} build could not be made: {b.Problem}"),
            ],
        }, System.Environment.ProcessorCount);
        return new RunResult
        {
            ToolVersion = RunResult.CurrentToolVersion,
            StartedAt = started.ToString("O", CultureInfo.InvariantCulture),
            Environment = EnvironmentInfo.Current(),
            Settings = new RunSettings
            {
                Repeat = repeat,
                Seed = RunOptions.DefaultSeed,
                Quick = quick,
                Isolated = true,
                TrialTimeoutSec = run.TrialTimeoutAt(quick).TotalSeconds,
                SampleIntervalMs = 10,
                Prime = false,
                RuntimeEnvironment = Environment(run),
            },
            Scenarios = [result],
            Cancelled = cancellationToken.IsCancellationRequested,
        };
    }

    // The DOTNET_ variables every trial starts with: the processor count, where the run names one.
    private static Dictionary<string, string> Environment(ClaimRun run) =>
        run.Cores.Count == 1 ? new() { [RuntimeSettings.Cores.Variable] = RuntimeSettings.Cores.Write(run.Cores[0]) } : [];

    // Publishes the probe one way into its own folder; the command that starts a trial of it, or why there is none.
    // The builds share one artifacts folder, one after the other, so the libraries the probe references are compiled
    // once, not once a build: the delay post's four builds took 126 s this way against 158 s apart, one after the other,
    // each build's output the same size to within 1 KB.
    private async Task<(string[]? Command, string? Problem)> PublishAsync(
        ProbeBuild build,
        string folder,
        string artifacts,
        CancellationToken cancellationToken)
    {
        var output = Path.Combine(folder, "app");
        var arguments = new List<string>
        {
            "publish", _project!, "-c", "Release", "-o", output, "--artifacts-path", artifacts, "-nologo",

            // No build server or reused node may outlive the build, holding its output open and its process alive.
            "--disable-build-servers", "-nodeReuse:false", "-p:UseSharedCompilation=false",

            // The lab's libraries warn about reflection the probe never reaches; warnings are not this build's errors.
            "-p:TreatWarningsAsErrors=false", "-p:EnableTrimAnalyzer=false", "-p:EnableAotAnalyzer=false", "-p:EnableSingleFileAnalyzer=false",
                "-p:GenerateDocumentationFile=false",
        };
        var rid = System.Runtime.InteropServices.RuntimeInformation.RuntimeIdentifier;
        arguments.AddRange(build switch
        {
            // The note's own flags, word for word: PublishNativeAot is no property the SDK reads.
            ProbeBuild.AsNoted => ["-r", rid, "--self-contained", "-p:PublishNativeAot=true", "-p:PublishSingleFile=true", "-p:PublishTrimmed=true"],
            ProbeBuild.AsNotedUntrimmed => ["-r", rid, "--self-contained", "-p:PublishSingleFile=true", "-p:PublishTrimmed=false"],
            ProbeBuild.NativeAot => ["-r", rid, "-p:PublishAot=true"],
            _ => [],
        });

        var (exitCode, text) = await RunToEndAsync(DotNet(), arguments, null, BuildTimeout, cancellationToken).ConfigureAwait(false);
        if (exitCode is null)
        {
            return (null, $"the build outlived {BuildTimeout.TotalMinutes:0} minutes and was stopped");
        }

        if (exitCode != 0)
        {
            var line = text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                .LastOrDefault(l => l.Contains("error", StringComparison.OrdinalIgnoreCase)) ?? $"exit code {exitCode}";
            return (null, line);
        }

        var executable = Path.Combine(output, "conclab-build-probe");
        return build == ProbeBuild.Framework
            ? ([DotNet(), Path.Combine(output, "conclab-build-probe.dll")], null)
            : File.Exists(executable) ? ([executable], null) : (null, $"no program at {executable}");
    }

    // One trial in a fresh process of a build: the probe's one line of JSON, or why there is none.
    private static async Task<TrialResult> TrialAsync(
        string[] command,
        Scenario scenario,
        string variant,
        ParameterValues parameters,
        ClaimRun run,
        TimeSpan timeout,
        CancellationToken cancellationToken)
    {
        var arguments = command.Skip(1).Concat([scenario.Name, variant, RunOptions.DefaultSeed.ToString(CultureInfo.InvariantCulture)])
            .Concat(parameters.Values.Select(p => $"{p.Key}={p.Value}")).ToList();
        var (exitCode, text) = await RunToEndAsync(command[0], arguments, Environment(run), timeout, cancellationToken).ConfigureAwait(false);
        if (exitCode is null)
        {
            return TrialResult.Unmeasured(TrialStatus.Timeout, $"the trial outlived {timeout.TotalSeconds:0} s and was stopped", isolated: true);
        }

        var line = text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault(l => l.StartsWith('{'));
        if (exitCode != 0 || line is null)
        {
            return TrialResult.Unmeasured(TrialStatus.Failed, $"the probe exited with {exitCode}: {text.Trim().Split('\n').LastOrDefault()}",
                isolated: true);
        }

        try
        {
            using var document = JsonDocument.Parse(line);
            var root = document.RootElement;
            var metrics = root.GetProperty("metrics").EnumerateObject().Where(p => p.Value.ValueKind == JsonValueKind.Number)
                .ToDictionary(p => p.Name, p => p.Value.GetDouble(), StringComparer.Ordinal);
            return new TrialResult
            {
                Status = Enum.TryParse<TrialStatus>(root.GetProperty("status").GetString(), ignoreCase: true, out var status) ? status
                    : TrialStatus.Failed,
                Error = root.TryGetProperty("error", out var error) ? error.GetString() : null,
                Isolated = true,
                ItemsPlanned = root.GetProperty("itemsPlanned").GetInt32(),
                ItemsCompleted = root.GetProperty("itemsCompleted").GetInt32(),
                Metrics = metrics,
            };
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            return TrialResult.Unmeasured(TrialStatus.Failed, $"the probe's result could not be read: {ex.Message}", isolated: true);
        }
    }

    // Starts a program, reads both its streams to the end, and waits for it; exit code null when it was stopped at
    // the timeout. Stopped or cancelled, it is killed with its children: a run leaves no process behind.
    private static async Task<(int? ExitCode, string Output)> RunToEndAsync(
        string program,
        IEnumerable<string> arguments,
        IReadOnlyDictionary<string, string>? environment,
        TimeSpan timeout,
        CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo(program) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true,
            CreateNoWindow = true };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        info.Environment["DOTNET_NOLOGO"] = "1";
        info.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        info.Environment["DOTNET_CLI_DO_NOT_USE_MSBUILD_SERVER"] = "1";
        using var process = new Process { StartInfo = info };
        try
        {
            process.Start();
        }
        catch (Exception ex) when (ex is System.ComponentModel.Win32Exception or IOException or InvalidOperationException)
        {
            // No dotnet on the PATH, a build that cannot be executed: a failed build or trial, never the reproduction's end.
            return (-1, $"{program} could not be started: {ex.Message}");
        }

        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(timeout);

        // Both streams read to their ends under the same limit as the wait: a child that kept them open would
        // otherwise hold this call for ever.
        var output = process.StandardOutput.ReadToEndAsync(limit.Token);
        var errors = process.StandardError.ReadToEndAsync(limit.Token);
        try
        {
            await process.WaitForExitAsync(limit.Token).ConfigureAwait(false);
            return (process.ExitCode, (await output.ConfigureAwait(false)) + "\n" + (await errors.ConfigureAwait(false)));
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
            cancellationToken.ThrowIfCancellationRequested();
            return (null, string.Empty);
        }
    }

    // The dotnet host this program runs under, or the one on the PATH.
    private static string DotNet()
    {
        if (System.Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host && File.Exists(host))
        {
            return host;
        }

        var process = System.Environment.ProcessPath;
        return process is not null && Path.GetFileNameWithoutExtension(process) == "dotnet" ? process : "dotnet";
    }
}
