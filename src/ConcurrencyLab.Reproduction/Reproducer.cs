using System.Globalization;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using Microsoft.Extensions.Logging;

namespace ConcurrencyLab.Reproduction;

/// <summary>
/// <c>conclab reproduce</c>'s work: for each post, runs every <see cref="ClaimRun"/> its claims name (isolated
/// through the runner, as published through <see cref="PublishedOrderPasses"/>), writes each run's own results
/// in a folder of its own, and judges every claim on every run it names. A run that fails, or a scenario whose
/// set-up fails, costs its claims a verdict ("could not be judged"), never the other posts'.
/// </summary>
internal sealed class Reproducer
{
    private readonly Func<RunOptions, IRunObserver?> _observer;
    private readonly ILogger? _logger;
    private readonly PublishedOrderPasses _passes;
    private readonly ProbeBuilds _builds;
    private readonly IReadOnlyList<ChartFormat> _chartFormats;
    private readonly Action<string> _say;

    /// <param name="observer">A progress display for each isolated run, made from its options; none when it returns null.</param>
    /// <param name="passes">How as-published passes are run.</param>
    /// <param name="chartFormats">The formats each run's charts are written in.</param>
    /// <param name="say">Where a line goes when a run starts, or cannot be made.</param>
    /// <param name="logger">Where the runner says what goes wrong outside a trial.</param>
    /// <param name="builds">How runs in builds of the trial probe are made; null for the probe found above this program.</param>
    public Reproducer(
        Func<RunOptions, IRunObserver?> observer,
        PublishedOrderPasses passes,
        IReadOnlyList<ChartFormat> chartFormats,
        Action<string> say,
        ILogger? logger = null,
        ProbeBuilds? builds = null)
    {
        _builds = builds ?? new ProbeBuilds(say);
        _say = say;
        _observer = observer;
        _passes = passes;
        _chartFormats = chartFormats;
        _logger = logger;
    }

    /// <summary>Every scenario of <paramref name="catalog"/> that reproduces a post, in order.</summary>
    public static IReadOnlyList<Scenario> Posts(IReadOnlyList<Scenario> catalog) => [.. catalog.Where(s => PostClaims.Of(s) is not null)];

    /// <summary>Runs and judges the claims of <paramref name="scenarios"/>, writing everything under <paramref name="folder"/>.</summary>
    public async Task<ReproductionResult> RunAsync(IReadOnlyList<Scenario> scenarios, bool quick, string folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenarios);
        var rows = new List<ClaimVerdict>();
        var runs = new List<ReproducedRun>();
        var started = DateTimeOffset.UtcNow;
        var cancelled = false;
        foreach (var scenario in scenarios)
        {
            var claims = PostClaims.Of(scenario)!;
            var results = new Dictionary<string, RunOutcome>(StringComparer.Ordinal);
            foreach (var run in claims.Runs.Where(r => r.MadeAt(quick)))
            {
                if (cancelled)
                {
                    results[run.Key] = RunOutcome.NotMade("the reproduction was cancelled before this run");
                    continue;
                }

                var target = Path.Combine(folder, run.Key);
                _say($"{run.Key}: {run.Kind}; {Describe(run, quick)}");
                var runStarted = DateTimeOffset.UtcNow;
                try
                {
                    var result = run.AsPublished
                        ? Write(await _passes.RunAsync(scenario, run, quick, target, cancellationToken).ConfigureAwait(false), target)
                        : run.Builds.Count > 0
                            ? Write(await _builds.RunAsync(scenario, run, quick, target, cancellationToken).ConfigureAwait(false), target)
                            : await RunIsolatedAsync(scenario, run, quick, target, cancellationToken).ConfigureAwait(false);
                    cancelled |= result.Cancelled;
                    var measured = result.Scenarios.Count > 0 ? result.Scenarios[0] : null;
                    results[run.Key] = new RunOutcome(measured, measured is null ? "the run measured nothing" : null,
                        false, result.Environment, result.Settings);
                    runs.Add(
                        new ReproducedRun(scenario.Name, run.Key, run.Kind, Describe(run, quick),
                            target, (DateTimeOffset.UtcNow - runStarted).TotalSeconds, measured?.Notes
                                ?? [], measured?.Variants.All(v => v.Status == TrialStatus.Ok) == true, measured is not null));
                }
                catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
                {
                    cancelled = true;
                    results[run.Key] = RunOutcome.NotMade("the reproduction was cancelled during this run");
                }
                catch (ReproductionException ex)
                {
                    _say(ex.Message);
                    results[run.Key] = new RunOutcome(null, ex.Message, false, null, null);
                    runs.Add(
                        new ReproducedRun(scenario.Name, run.Key, run.Kind, Describe(run, quick),
                            target, (DateTimeOffset.UtcNow - runStarted).TotalSeconds, [ex.Message], false, false));
                }
            }

            rows.AddRange(Judge(scenario, quick, results));
        }

        return new ReproductionResult
        {
            StartedAt = started.ToString("O", CultureInfo.InvariantCulture),
            Seconds = (DateTimeOffset.UtcNow - started).TotalSeconds,
            Quick = quick,
            Environment = EnvironmentInfo.ForTrialsOfThisProgram(),
            Claims = rows,
            Runs = runs,
            Cancelled = cancelled,
        };
    }

    /// <summary>
    /// Why the earlier reproduction in <paramref name="from"/> cannot be judged again, in one line: it holds no run
    /// folder of the posts chosen (nothing to judge), or its runs were measured on more than one machine, whose
    /// claims would be judged as one machine's. Null when it can be; a results file that cannot be read is for
    /// <see cref="JudgeAgain"/> to record.
    /// </summary>
    /// <param name="scenarios">The posts chosen.</param>
    /// <param name="quick">The scale the earlier reproduction ran at.</param>
    /// <param name="from">Its folder.</param>
    /// <param name="read">Where each results file read here is kept, by its path, for <see cref="JudgeAgain"/> to judge
    /// without reading it again.</param>
    public static string? JudgeAgainProblem(IReadOnlyList<Scenario> scenarios, bool quick, string from, IDictionary<string, RunResult>? read = null)
    {
        ArgumentNullException.ThrowIfNull(scenarios);
        ArgumentNullException.ThrowIfNull(from);
        var keys = scenarios.SelectMany(s => PostClaims.Of(s)?.Runs.Where(r => r.MadeAt(quick)).Select(r => r.Key) ?? []).ToList();
        var present = keys.Where(k => Directory.Exists(Path.Combine(from, k))).ToList();
        if (present.Count == 0)
        {
            return $"--from {from}: nothing to judge: it holds no run folder of {(scenarios.Count == 1 ? scenarios[0].Name : "the posts " +
                "chosen")} at the {(quick ? "quick" : "full")} scale ({string.Join(", ", keys)}).";
        }

        var machines = new List<(string Key, EnvironmentInfo Machine)>();
        foreach (var key in present)
        {
            try
            {
                var path = Path.Combine(from, key, JsonExporter.Default.FileName);
                var run = ResultsFile.Read(path);
                read?.TryAdd(path, run);
                machines.Add((key, run.Environment));
            }
            catch (ResultsFileException)
            {
                // Recorded against its claims when they are judged.
            }
        }

        var distinct = machines.DistinctBy(m => (m.Machine.MachineName, m.Machine.ProcessorCount, m.Machine.Os, m.Machine.Architecture)).ToList();
        return distinct.Count < 2
            ? null
            : $"--from {from} holds runs measured on {distinct.Count} machines " +
                $"({string.Join("; ", distinct.Select(m => $"{m.Key}: {Hosting.ForeignText.Line(m.Machine.MachineName, 40)}, {m.Machine.ProcessorCount} cores, {Hosting.ForeignText.Line(m.Machine.Os, 60)} {Hosting.ForeignText.Line(m.Machine.Architecture, 10)}"))}): a claim is judged on one machine's runs; give each machine's runs a folder of their own.";
    }

    /// <summary>
    /// Judges the claims of <paramref name="scenarios"/> again, by this build's rules, on the results an earlier
    /// reproduction measured into <paramref name="from"/> (each run's <c>results.json</c>, read as any results file
    /// is: one that cannot be read leaves its claims unjudged, with why). Nothing is run.
    /// </summary>
    public static ReproductionResult JudgeAgain(
        IReadOnlyList<Scenario> scenarios,
        bool quick,
        string from,
        IReadOnlyDictionary<string, RunResult>? read = null)
    {
        ArgumentNullException.ThrowIfNull(scenarios);
        var rows = new List<ClaimVerdict>();
        var runs = new List<ReproducedRun>();
        var started = DateTimeOffset.UtcNow;
        EnvironmentInfo? machine = null;

        // The posts the earlier reproduction ran: those with a run's folder in it.
        foreach (var scenario in scenarios.Where(
            s => PostClaims.Of(s)!.Runs.Any(r => r.MadeAt(quick) && Directory.Exists(Path.Combine(from, r.Key)))))
        {
            var results = new Dictionary<string, RunOutcome>(StringComparer.Ordinal);
            foreach (var run in PostClaims.Of(scenario)!.Runs.Where(r => r.MadeAt(quick)))
            {
                // The path is made of this build's own run keys, never of anything the earlier files say.
                var folder = Path.Combine(from, run.Key);
                if (!Directory.Exists(folder))
                {
                    results[run.Key] = RunOutcome.NotMade($"the earlier reproduction has no run {run.Key}");
                    continue;
                }

                try
                {
                    var path = Path.Combine(folder, JsonExporter.Default.FileName);
                    var earlier = read?.GetValueOrDefault(path) ?? ResultsFile.Read(path);
                    var measured = earlier.Scenarios.FirstOrDefault(s => s.Name == scenario.Name);
                    machine ??= earlier.Environment;
                    results[run.Key] = new RunOutcome(measured, measured is null ? $"{folder} holds no results of {scenario.Name}" : null,
                        false, earlier.Environment, earlier.Settings);
                    runs.Add(
                        new ReproducedRun(scenario.Name, run.Key, run.Kind, Describe(run, quick), folder, 0, measured?.Notes
                            ?? [], measured?.Variants.All(v => v.Status == TrialStatus.Ok) == true, measured is not null));
                }
                catch (ResultsFileException ex)
                {
                    results[run.Key] = new RunOutcome(null, ex.Message, false, null, null);
                    runs.Add(new ReproducedRun(scenario.Name, run.Key, run.Kind, Describe(run, quick), folder, 0, [ex.Message], false, false));
                }
            }

            rows.AddRange(Judge(scenario, quick, results));
        }

        return new ReproductionResult
        {
            StartedAt = started.ToString("O", CultureInfo.InvariantCulture),
            Quick = quick,

            // The machine that measured the results, as they recorded it: not the one judging them again.
            Environment = machine ?? EnvironmentInfo.Current(),
            Claims = rows,
            Runs = runs,
            JudgedFrom = from,
        };
    }

    // Every claim of the post on every run made for it at this scale; a claim none of whose runs is made at this
    // scale says so, and how to test it.
    private static List<ClaimVerdict> Judge(Scenario scenario, bool quick, Dictionary<string, RunOutcome> results)
    {
        var claims = PostClaims.Of(scenario)!;

        // Each run's evidence knows the post's other runs (the same dictionary, read once it is full), for a rule
        // that compares two. A run at one processor count is not a sweep: its variants carry no count in their names.
        var evidence = new Dictionary<string, ClaimEvidence>(StringComparer.Ordinal);
        foreach (var run in claims.Runs.Where(r => r.MadeAt(quick)))
        {
            var outcome = results.TryGetValue(run.Key, out var found) ? found : RunOutcome.NotMade("the run was not made");
            var space = outcome.Result is null ? null : RecordedVariants.SpaceOf(scenario, outcome.Result);
            evidence[run.Key] = new ClaimEvidence(outcome.Result, run.Cores.Count > 1 ? run.Cores : [], outcome.Absent,
                evidence, outcome.Machine, outcome.Settings, outcome.WasNotMade, space);
        }

        var rows = new List<ClaimVerdict>();
        foreach (var claim in claims.Claims)
        {
            var made = claim.Runs.Select(key => claims.Runs.First(r => r.Key == key)).Where(r => r.MadeAt(quick)).ToList();
            foreach (var run in made)
            {
                rows.Add(new ClaimVerdict(scenario.Name, claims.Post, run.Key, run.Kind, claim.ToResult(claim.Evaluate(evidence[run.Key]))));
            }

            if (made.Count == 0)
            {
                // Its runs are made at the other scale only, because this one cannot meet the claim's conditions.
                var scale = quick ? "the quick scale" : "the full scale";
                var how = quick ? $"conclab reproduce {scenario.Name}" : $"conclab reproduce {scenario.Name} --quick";
                var first = claims.Runs.First(r => r.Key == claim.Runs[0]);
                rows.Add(new ClaimVerdict(scenario.Name, claims.Post, first.Key, first.Kind, claim.ToResult(
                    Judgement.NotTested($"not tested at {scale}: it needs {claim.Needs()}; {how} tests it"))));
            }
        }

        return rows;
    }

    /// <summary>The options of an isolated run of <paramref name="run"/>: its variants and parameters, each processor count a sweep.</summary>
    internal static RunOptions OptionsOf(Scenario scenario, ClaimRun run, bool quick) => RuntimeSettings.Cores.Apply(new RunOptions
    {
        Scenarios = [scenario.Name],
        Variants = run.VariantsAt(quick),
        Parameters = run.ParametersAt(quick),
        Quick = quick,
        Repeat = quick ? run.QuickRepeat : run.Repeat,

        // A post's counts, run in full: a verdict weighs intervals a variant stopped early would have narrowed or
        // widened, and the published claims are judged on the counts their runs were written for.
        RepeatExactly = true,
        Warmup = run.Warmup,
        TrialTimeout = run.TrialTimeoutAt(quick),
    }, run.Cores);

    private async Task<RunResult> RunIsolatedAsync(Scenario scenario, ClaimRun run, bool quick, string folder, CancellationToken cancellationToken)
    {
        var options = OptionsOf(scenario, run, quick);
        if (!RunPlanner.TryCreate(options, [scenario], out var plan, out var errors))
        {
            throw new ReproductionException($"{run.Key} could not be planned: {string.Join("; ", errors)}");
        }

        // An observer that holds a display ends it here, however the run ended, before anything else is printed.
        var observer = _observer(options);
        RunResult result;
        try
        {
            result = await Lab.MeasureAsync(plan, options, observer, _logger, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            (observer as IDisposable)?.Dispose();
        }

        return Write(result, folder);
    }

    /// <summary>Writes a run's own results (JSON, Markdown, CSV, HTML, charts) into <paramref name="folder"/>; a
    /// failure is a note, not the end.</summary>
    internal RunResult Write(RunResult result, string folder)
    {
        var failures = Exporters.ExportAll(result, folder, Exporters.Default, _chartFormats, out _);
        return failures.Count == 0 ? result : result with { Notes = [.. result.Notes, .. failures.Select(f => "could not write " + f)] };
    }

    private static string Describe(ClaimRun run, bool quick)
    {
        var parameters = run.ParametersAt(quick);
        var parts = new List<string> { string.Join(", ", run.VariantsAt(quick)) };
        if (parameters.Count > 0)
        {
            parts.Add(string.Join(" ", parameters.Select(p => $"--{p.Key} {p.Value}")));
        }

        if (run.Cores.Count > 0)
        {
            parts.Add($"cores {string.Join(" and ", run.Cores)}");
        }

        return string.Join("; ", parts);
    }
}

/// <summary>What one of a post's runs gave: its results with the machine and settings they were measured with, or why there are none.</summary>
/// <param name="Result">The scenario's results, or null.</param>
/// <param name="Absent">Why there are none, when there are none.</param>
/// <param name="WasNotMade">Whether the run was never made (cancelled before it, not found), rather than made and failed.</param>
/// <param name="Machine">The machine that measured it.</param>
/// <param name="Settings">How it was made.</param>
internal sealed record RunOutcome(ScenarioResult? Result, string? Absent, bool WasNotMade, EnvironmentInfo? Machine, RunSettings? Settings)
{
    public static RunOutcome NotMade(string why) => new(null, why, true, null, null);
}

/// <summary>A run that could not be made at all; its claims cannot be judged.</summary>
internal sealed class ReproductionException : Exception
{
    public ReproductionException(string message)
        : base(message)
    {
    }

    public ReproductionException()
    {
    }

    public ReproductionException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
