using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Reporting;
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
    public Reproducer(Func<RunOptions, IRunObserver?> observer, PublishedOrderPasses passes, IReadOnlyList<ChartFormat> chartFormats, Action<string> say, ILogger? logger = null, ProbeBuilds? builds = null)
    {
        _builds = builds ?? new ProbeBuilds(say);
        _say = say;
        _observer = observer;
        _passes = passes;
        _chartFormats = chartFormats;
        _logger = logger;
    }

    /// <summary>Every scenario of <paramref name="catalog"/> that reproduces a post, in order.</summary>
    public static IReadOnlyList<Scenario> Posts(IReadOnlyList<Scenario> catalog) => [.. catalog.Where(s => s.Claims is not null)];

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
            var claims = scenario.Claims!;
            var evidence = new Dictionary<string, ClaimEvidence>(StringComparer.Ordinal);
            var results = new Dictionary<string, (ScenarioResult? Result, string? Absent)>(StringComparer.Ordinal);
            foreach (var run in claims.Runs.Where(r => r.MadeAt(quick)))
            {
                if (cancelled)
                {
                    results[run.Key] = (null, "the reproduction was cancelled before this run");
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
                    results[run.Key] = (measured, measured is null ? "the run measured nothing" : null);
                    runs.Add(new ReproducedRun(scenario.Name, run.Key, run.Kind, Describe(run, quick), target, (DateTimeOffset.UtcNow - runStarted).TotalSeconds, measured?.Notes ?? [], measured?.Variants.All(v => v.Status == TrialStatus.Ok) == true, measured is not null));
                }
                catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
                {
                    cancelled = true;
                    results[run.Key] = (null, "the reproduction was cancelled during this run");
                }
                catch (ReproductionException ex)
                {
                    _say(ex.Message);
                    results[run.Key] = (null, ex.Message);
                    runs.Add(new ReproducedRun(scenario.Name, run.Key, run.Kind, Describe(run, quick), target, (DateTimeOffset.UtcNow - runStarted).TotalSeconds, [ex.Message], false, false));
                }
            }

            // Each run's evidence knows the post's other runs (the same dictionary, read once it is full), for a
            // rule that compares two.
            foreach (var run in claims.Runs.Where(r => r.MadeAt(quick)))
            {
                // A run at one processor count is not a sweep: its variants carry no count in their names.
                evidence[run.Key] = new ClaimEvidence(results[run.Key].Result, run.Cores.Count > 1 ? run.Cores : [], results[run.Key].Absent, evidence);
            }

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
        }

        return new ReproductionResult
        {
            StartedAt = started.ToString("O", CultureInfo.InvariantCulture),
            Seconds = (DateTimeOffset.UtcNow - started).TotalSeconds,
            Quick = quick,
            Environment = EnvironmentInfo.Current(),
            Claims = rows,
            Runs = runs,
            Cancelled = cancelled,
        };
    }

    /// <summary>The options of an isolated run of <paramref name="run"/>: its variants and parameters, each processor count a sweep.</summary>
    internal static RunOptions OptionsOf(Scenario scenario, ClaimRun run, bool quick) => new()
    {
        Scenarios = [scenario.Name],
        Variants = run.VariantsAt(quick),
        Parameters = run.ParametersAt(quick),
        Quick = quick,
        Repeat = quick ? run.QuickRepeat : run.Repeat,
        Warmup = run.Warmup,
        TrialTimeout = run.TrialTimeoutAt(quick),
        RuntimeSweeps = run.Cores.Count > 1 ? new Dictionary<string, IReadOnlyList<int>> { [RuntimeSettings.Cores.Parameter.Name] = run.Cores } : new Dictionary<string, IReadOnlyList<int>>(),
        RuntimeEnvironment = run.Cores.Count == 1 ? new Dictionary<string, string> { [RuntimeSettings.Cores.Variable] = RuntimeSettings.Cores.Write(run.Cores[0]) } : new Dictionary<string, string>(),
    };

    private async Task<RunResult> RunIsolatedAsync(Scenario scenario, ClaimRun run, bool quick, string folder, CancellationToken cancellationToken)
    {
        var options = OptionsOf(scenario, run, quick);
        if (!RunPlanner.TryCreate(options, [scenario], out var plan, out var errors))
        {
            throw new ReproductionException($"{run.Key} could not be planned: {string.Join("; ", errors)}");
        }

        var record = await new Runner(TrialExecutors.For(options), _observer(options), _logger).RunAsync(plan, cancellationToken).ConfigureAwait(false);
        return Write(Summarizer.Summarise(record), folder);
    }

    /// <summary>Writes a run's own results (JSON, Markdown, CSV, HTML, charts) into <paramref name="folder"/>; a failure is a note, not the end.</summary>
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
