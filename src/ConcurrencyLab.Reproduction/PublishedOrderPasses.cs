using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Reproduction;

/// <summary>
/// Runs a post's cases as it did: one process, every case once, in the published order, each inheriting the pool
/// the ones before it grew. Each pass is a fresh process of this program (<c>run --in-process --fixed-order
/// --repeat 1 --warmup 0 --no-prime</c>), started with the processor count the pass is for, so passes are
/// independent of each other and of the runner; their trials are put together into one result per variant,
/// named by processor count as a sweep would name them.
/// </summary>
internal sealed class PublishedOrderPasses
{
    // What the program exits with when it refuses its command line (the command line's ExitCode.BadInput).
    private const int ExitCodeBadInput = 2;

    private readonly SelfLauncher _launcher;
    private readonly Action<string> _say;
    private readonly Action<int>? _passStarted;

    /// <param name="launcher">How this program is started again.</param>
    /// <param name="say">Where a line of progress goes, one per pass.</param>
    /// <param name="passStarted">Told each pass's process id once it runs (a pass runs its trials in its own process).</param>
    public PublishedOrderPasses(SelfLauncher launcher, Action<string> say, Action<int>? passStarted = null)
    {
        _launcher = launcher;
        _say = say;
        _passStarted = passStarted;
    }

    /// <summary>Runs every pass of <paramref name="run"/> and returns their trials as one run; each pass's own results
    /// stay in <paramref name="folder"/>.</summary>
    public async Task<RunResult> RunAsync(Scenario scenario, ClaimRun run, bool quick, string folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(run);
        var passes = (quick ? run.QuickRepeat : run.Repeat) ?? (quick ? RunOptions.QuickRepeat : RunOptions.DefaultRepeat);
        var coreCounts = run.Cores.Count == 0 ? [(int?)null] : run.Cores.Select(c => (int?)c).ToList();
        var notes = new List<string>
        {
            $"as published: {passes} passes{(run.Cores.Count > 0 ? " at each processor count" : string.Empty)}, each a fresh process that " +
                $"ran {string.Join(", ", run.VariantsAt(quick))} once, in that order, unprimed.",
        };
        var byCores = new List<(int? Cores, List<ScenarioResult> Passes)>();
        RunResult? first = null;

        // Over every pass, each a process this one waits for: what a pass measures of the machine sees this process as another's.
        var load = MachineLoadMeter.Start();
        foreach (var cores in coreCounts)
        {
            var results = new List<ScenarioResult>();
            for (var pass = 0; pass < passes; pass++)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var passFolder = Path.Combine(folder, "passes", $"{(cores is { } c ? $"cores-{c}-" : string.Empty)}{pass + 1}");
                _say($"{run.Key}: pass {pass + 1} of {passes}{(cores is { } n ? $" at {n} cores" : string.Empty)}");
                var (result, problem) = await RunPassAsync(scenario, run, quick, cores, passFolder, cancellationToken).ConfigureAwait(false);
                if (result is { Scenarios.Count: > 0 } && result.Scenarios[0] is var scenarioResult)
                {
                    first ??= result;
                    results.Add(scenarioResult);
                }

                if (problem is not null)
                {
                    notes.Add($"pass {pass + 1}{(cores is { } k ? $" at {k} cores" : string.Empty)}: {problem}");
                }
            }

            byCores.Add((cores, results));
        }

        if (first is null)
        {
            throw new ReproductionException($"{run.Key}: no pass produced results ({string.Join("; ", notes.Skip(1))})");
        }

        var template = first.Scenarios[0];
        var merged = Merge(scenario, template, run.VariantsAt(quick), byCores) with { MachineLoad = load.Finish() };
        var settings = first.Settings with { Repeat = passes, Isolated = false, FixedOrder = true, Prime = false, Warmup = 0 };
        merged = merged with { Claims = PostJudge.Judge(scenario, merged, machine: first.Environment, settings: settings) };
        return first with
        {
            Environment = EnvironmentInfo.ForTrialsOfThisProgram(),
            Settings = settings,
            Scenarios = [merged with { Notes = [.. notes, .. template.Notes] }],
            Notes = [],
        };
    }

    // One variant result per variant and processor count, holding the trials of every pass, summarised as any run's.
    internal static ScenarioResult Merge(
        Scenario scenario,
        ScenarioResult template,
        IReadOnlyList<string> names,
        IReadOnlyList<(int? Cores, List<ScenarioResult> Passes)> byCores)
    {
        // Named by processor count as a sweep names them, when there are several counts to tell apart.
        var swept = RuntimeSettings.Cores.Parameter;
        var counts = byCores.Select(b => b.Cores).OfType<int>().ToList();
        var unswept = RecordedVariants.SpaceOf(scenario, template);
        var space = unswept?.WithSweeps(counts.Count > 1 ? [(swept, counts)] : []);
        var variants = new List<VariantResult>();
        foreach (var (cores, passes) in byCores)
        {
            var baseline = passes.SelectMany(p => p.Variants.Where(v => v.Name == template.Baseline)).SelectMany(v => v.Trials)
                .Where(t => t.Status == TrialStatus.Ok).Select(t => t.WallMs).ToList();
            double? baselineMedian = baseline.Count > 0 ? Statistics.MedianEstimate.MedianOf(baseline) : null;
            foreach (var name in names)
            {
                var found = passes.SelectMany(p => p.Variants.Where(v => v.Name == name)).ToList();
                var trials = found.SelectMany(v => v.Trials).Select((t, i) => t with { Repeat = i }).ToList();
                var model = found.FirstOrDefault();
                var parameters = new Dictionary<string, string>(model?.Parameters ?? new Dictionary<string, string>(), StringComparer.Ordinal);
                var merged = name;
                if (cores is { } count && counts.Count > 1)
                {
                    parameters[swept.Name] = count.ToString(CultureInfo.InvariantCulture);
                    var key = model is not null && unswept?.KeyOf(model) is { } recorded ? recorded
                        : unswept is not null && unswept.TryParse(name, allowUnavailable: true, out var parsed, out _) ? parsed.Key
                        : throw new ReproductionException($"{template.Name}: the variant {name} is not one the scenario can name");
                    merged = space!.NameOf(key.With(swept.Name, VariantValue.Of(count)));
                }

                variants.Add(new VariantResult
                {
                    Name = merged,
                    Description = model?.Description ?? name,
                    Family = model?.Family,
                    Form = model?.Form,
                    Parameters = parameters,
                    Status = trials.Count == 0 ? TrialStatus.Failed : Summarizer.VariantStatus(trials),
                    Trials = trials,
                    Summary = Summarizer.Summarise(trials, template.IdealMs, baselineMedian, template.Metrics),
                });
            }
        }

        // Answered again from the merged variants: the template's answer was its first pass's alone.
        return Summarizer.Answer(template with { Variants = variants }, System.Environment.ProcessorCount);
    }

    // One pass: the program again, in one process, in the published order; its results file, or why there is none.
    private async Task<(RunResult? Result, string? Problem)> RunPassAsync(
        Scenario scenario,
        ClaimRun run,
        bool quick,
        int? cores,
        string folder,
        CancellationToken cancellationToken)
    {
        var arguments = new List<string> { "run", scenario.Name, "--in-process", "--fixed-order",
            "--variants", string.Join(",", run.VariantsAt(quick)), "--repeat", "1", "--warmup", "0", "--no-prime", "--plain", "--out", folder };
        var trialTimeout = run.TrialTimeoutAt(quick);
        arguments.AddRange(["--trial-timeout", trialTimeout.TotalSeconds.ToString(CultureInfo.InvariantCulture)]);
        if (quick)
        {
            arguments.Add("--quick");
        }

        foreach (var (name, value) in run.ParametersAt(quick))
        {
            var descriptor = scenario.Parameters.FirstOrDefault(p => p.Name == name);
            if (descriptor is Parameter<bool> { IsSwitch: true } flag)
            {
                // Read as the switch reads it, never compared as text: given only where it is on.
                if (flag.Parse(value) is (true, null))
                {
                    arguments.Add("--" + name);
                }
            }
            else
            {
                arguments.AddRange(["--" + name, value]);
            }
        }

        var info = _launcher.CreateStartInfo(arguments);
        if (cores is { } count)
        {
            info.Environment[RuntimeSettings.Cores.Variable] = RuntimeSettings.Cores.Write(count);
        }

        using var process = new Process { StartInfo = info };
        process.Start();
        _passStarted?.Invoke(process.Id);

        // Read both streams to their ends so the child never blocks on a full pipe; only the last error line is kept.
        var output = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var errors = process.StandardError.ReadToEndAsync(CancellationToken.None);
        var limit = TimeSpan.FromTicks((trialTimeout + RunOptions.TrialStartUpAllowance).Ticks * Math.Max(1, run.VariantsAt(quick).Count));
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(limit);
        try
        {
            await process.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
            cancellationToken.ThrowIfCancellationRequested();
            return (null, $"the pass outlived {limit.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s and was stopped");
        }

        await output.ConfigureAwait(false);
        var stderr = (await errors.ConfigureAwait(false)).Trim();
        // Exit code 2 is bad input: the pass ran nothing, and a results file there is not its own.
        var path = Path.Combine(folder, "results.json");
        if (process.ExitCode == ExitCodeBadInput || !File.Exists(path))
        {
            var line = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault();
            return (null, $"exit code {process.ExitCode}, no results{(line is null ? string.Empty : ": " + line)}");
        }

        try
        {
            return (ResultsFile.Read(path), process.ExitCode == 0 ? null : $"exit code {process.ExitCode}: a trial failed (see {path})");
        }
        catch (ResultsFileException ex)
        {
            return (null, ex.Message);
        }
    }
}
