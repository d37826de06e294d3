using System.Globalization;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Statistics;

namespace ConcurrencyLab.Running;

/// <summary>
/// Runs a plan: for each scenario, warmup rounds then measured rounds over every variant, the order of
/// variants rotated each round so none always runs first, each trial through the executor. A trial that
/// fails or times out is recorded and the run goes on. Cancelling returns what was measured so far.
/// </summary>
public sealed class Runner
{
    private readonly ITrialExecutor _executor;
    private readonly IRunObserver? _observer;
    private readonly TimeProvider _time;

    public Runner(ITrialExecutor executor, IRunObserver? observer = null, TimeProvider? time = null)
    {
        _executor = executor ?? throw new ArgumentNullException(nameof(executor));
        _observer = observer;
        _time = time ?? TimeProvider.System;
    }

    /// <summary>Whether the last run was cut short by cancellation.</summary>
    public bool Cancelled { get; private set; }

    public async Task<RunResult> RunAsync(RunPlan plan, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var startedAt = _time.GetUtcNow().ToString("O", CultureInfo.InvariantCulture);
        Notify(o => o.RunStarting(plan), null);
        var scenarios = new List<ScenarioResult>();
        var index = 0;
        Cancelled = false;

        foreach (var scenarioPlan in plan.Scenarios)
        {
            var trials = scenarioPlan.Variants.ToDictionary(v => v.Name, _ => new List<TrialResult>());
            var notes = new List<string>(scenarioPlan.Notes);
            var rounds = plan.Settings.Warmup + plan.Settings.Repeat;
            RunFixture? fixture = null;
            try
            {
                try
                {
                    fixture = await scenarioPlan.Scenario.PrepareRunAsync(scenarioPlan.Parameters, plan.Settings.Seed, cancellationToken).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    // Nothing to run the trials on: say why in one line, and go on to the next scenario.
                    notes.Add("the scenario's set-up failed, so none of its trials ran: " + TrialFailure.Describe(ex));
                    rounds = 0;
                }

                notes.AddRange(fixture?.Notes ?? []);
                // The fixture's values win: it may settle one the user left open, such as a folder.
                var parameters = fixture is null ? scenarioPlan.Parameters.Values : scenarioPlan.Parameters.Values.SetItems(fixture.TrialParameters);
                for (var round = 0; round < rounds; round++)
                {
                    var warmup = round < plan.Settings.Warmup;
                    var repeat = warmup ? round : round - plan.Settings.Warmup;
                    foreach (var variant in Rotate(scenarioPlan.Variants, round))
                    {
                        cancellationToken.ThrowIfCancellationRequested();
                        var progress = new TrialProgress(scenarioPlan.Scenario.Name, variant.Name, warmup, repeat, index++, plan.TotalTrials);
                        Notify(o => o.TrialStarting(progress), notes);
                        var request = new TrialRequest
                        {
                            Scenario = scenarioPlan.Scenario.Name,
                            Variant = variant,
                            Parameters = parameters,
                            Seed = plan.Settings.Seed,
                            SampleIntervalMs = plan.Settings.SampleIntervalMs,
                            Repeat = repeat,
                            Prime = plan.Settings.Prime,
                            TimeoutMs = plan.TrialTimeout.TotalMilliseconds,
                            ExpectedDurationMs = scenarioPlan.Scenario.ExpectedTrialDuration(scenarioPlan.Parameters).TotalMilliseconds,
                        };
                        var result = await _executor.RunAsync(scenarioPlan.Scenario, request, plan.TrialTimeout, cancellationToken).ConfigureAwait(false);
                        Notify(o => o.TrialFinished(progress, result), notes);
                        if (warmup)
                        {
                            if (result.Status != TrialStatus.Ok)
                            {
                                notes.Add($"warmup trial of {variant.Name} ended {result.Status.ToText()}: {result.Error}");
                            }
                        }
                        else
                        {
                            trials[variant.Name].Add(result);
                        }
                    }
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                Cancelled = true;
                notes.Add("the run was cancelled; trials measured before that are kept.");
            }
            finally
            {
                if (fixture is not null)
                {
                    try
                    {
                        await fixture.DisposeAsync().ConfigureAwait(false);
                    }
                    catch (Exception ex) when (ex is not OutOfMemoryException)
                    {
                        // What was measured stands; the user learns what was left behind.
                        notes.Add("the scenario's set-up could not be torn down: " + TrialFailure.Describe(ex));
                    }
                }
            }

            var scenarioResult = Summarise(scenarioPlan, trials, notes, fixture);
            scenarioResult = scenarioResult with { Notes = [.. scenarioResult.Notes, .. Conclude(scenarioPlan.Scenario, scenarioResult)] };
            scenarios.Add(scenarioResult);
            Notify(o => o.ScenarioFinished(scenarioResult), null);
            if (Cancelled)
            {
                break;
            }
        }

        return new RunResult
        {
            StartedAt = startedAt,
            Environment = EnvironmentInfo.Current(),
            Settings = plan.Settings,
            Scenarios = scenarios,
        };
    }

    /// <summary>
    /// Tells the observer, but never lets a display's failure lose what was measured: the error becomes a
    /// note (or is written to stderr when the scenario's notes are already final) and the run goes on.
    /// </summary>
    private void Notify(Action<IRunObserver> call, List<string>? notes)
    {
        if (_observer is null)
        {
            return;
        }

        try
        {
            call(_observer);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            var message = $"the progress display failed: {ex.GetType().Name}: {ex.Message}".ReplaceLineEndings(" ");
            if (notes is not null)
            {
                notes.Add(message);
            }
            else
            {
                Console.Error.WriteLine("conclab: " + message);
            }
        }
    }

    /// <summary>The scenario's reading of its results; a failure there costs a note, never the results.</summary>
    private static IReadOnlyList<string> Conclude(Scenario scenario, ScenarioResult result)
    {
        try
        {
            return [.. scenario.Conclusions(result)];
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            return [$"the scenario's conclusions could not be drawn: {TrialFailure.Describe(ex)}"];
        }
    }

    /// <summary>Round r starts at variant r mod n, so each variant runs first in turn.</summary>
    internal static IEnumerable<T> Rotate<T>(IReadOnlyList<T> items, int round)
    {
        for (var i = 0; i < items.Count; i++)
        {
            yield return items[(i + round) % items.Count];
        }
    }

    private ScenarioResult Summarise(ScenarioPlan plan, Dictionary<string, List<TrialResult>> trials, List<string> notes, RunFixture? fixture)
    {
        // A bound the set-up measured on this machine replaces the one planned from the parameters alone.
        var ideal = fixture?.Ideal ?? plan.Ideal;
        var baselineTrials = trials.GetValueOrDefault(plan.Baseline) ?? [];
        var baselineOk = baselineTrials.Where(t => t.Status == TrialStatus.Ok).Select(t => t.WallMs).ToList();
        double? baselineMedian = baselineOk.Count > 0 ? MedianEstimate.MedianOf(baselineOk) : null;

        var digests = trials.Values.SelectMany(t => t).Select(t => t.WorkloadDigest).Where(d => !string.IsNullOrEmpty(d)).Distinct().ToList();
        if (digests.Count > 1)
        {
            notes.Add($"trials ran different workloads ({digests.Count} digests): results are not comparable.");
        }

        if (_executor is InProcessTrialExecutor { AbandonedTrial: true })
        {
            notes.Add("an in-process trial was abandoned after its timeout and may have disturbed later trials.");
        }

        var variants = plan.Variants.Select(v => new VariantResult
        {
            Name = v.Name,
            Description = v.Description,
            Family = v.Family,
            Form = v.Form,
            Parameters = v.Parameters,
            Status = trials[v.Name].Count == 0 ? TrialStatus.Failed : Summarizer.VariantStatus(trials[v.Name]),
            Trials = trials[v.Name],
            Summary = Summarizer.Summarise(trials[v.Name], ideal.Ms, baselineMedian, plan.Scenario.Metrics),
        }).ToList();

        return new ScenarioResult
        {
            Name = plan.Scenario.Name,
            Parameters = plan.Parameters.Values,
            IdealMs = ideal.Ms,
            IdealReason = ideal.Reason,
            Bounds = fixture?.Bounds ?? new Dictionary<string, double>(),
            Baseline = plan.Baseline,
            Metrics = plan.Scenario.Metrics,
            Variants = variants,
            Notes = notes,
        };
    }
}
