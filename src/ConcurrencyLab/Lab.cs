using ConcurrencyLab.Analysis;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab;

/// <summary>
/// Runs scenarios from code and hands back the results, with no console and no files: for a test, a notebook
/// or a tool of your own. A program that should behave like <c>conclab</c> uses <c>LabProgram.RunAsync</c> from the
/// <c>ConcurrencyLab.CommandLine</c> package instead. Either way the lab starts the program again for each trial:
/// call <see cref="ChildEntry.TryRunAsync"/> first in <c>Main</c> (LabProgram does).
/// </summary>
public static class Lab
{
    /// <summary>
    /// Plans and runs <paramref name="scenarios"/> with each trial in a fresh copy of this program (or in this
    /// process, under <see cref="RunOptions.InProcess"/>), and returns the summarised results; throws
    /// <see cref="ArgumentException"/> with the plan's problems, one per line, when the options are not good.
    /// </summary>
    public static async Task<LabResult> MeasureAsync(
        IReadOnlyList<Scenario> scenarios,
        RunOptions options,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scenarios);
        ArgumentNullException.ThrowIfNull(options);
        if (!RunPlanner.TryCreate(options, scenarios, out var plan, out var errors))
        {
            throw new ArgumentException(string.Join(Environment.NewLine, errors), nameof(options));
        }

        return new LabResult(await MeasureAsync(plan, options, observer: null, logger: null, cancellationToken).ConfigureAwait(false));
    }

    /// <summary>
    /// The one pipeline every way in takes once a plan is made (this class, <c>conclab run</c>, each run of
    /// <c>conclab reproduce</c>): the plan's trials executed as <paramref name="options"/> say (in child processes
    /// unless in-process), then summarised, the answers and the claims' verdicts with them.
    /// </summary>
    internal static async Task<RunResult> MeasureAsync(
        RunPlan plan,
        RunOptions options,
        IRunObserver? observer,
        Microsoft.Extensions.Logging.ILogger? logger,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(options);
        if (!plan.Scenarios.Any(s => s.SearchDegrees))
        {
            // One run, which prepares each phase's set-up and tears it down before the next (a --grow size's files
            // are gone before the next size's are written).
            return Summarizer.Summarise(await new Runner(TrialExecutors.For(options), observer, logger).RunAsync(plan, cancellationToken)
                .ConfigureAwait(false));
        }

        // --dop auto: the degrees are searched first, by probes of their own, and the plan runs the degrees found. The
        // search's rounds and the run after them share one journal and one set-up a phase (one calibration), torn down
        // after the last of them. A probe is read for its wall and CPU time only: it runs without the runtime's account,
        // whose session each trial's process would otherwise open and close.
        RunRecord record;
        var setUps = new SharedSetUps();
        try
        {
            var probing = options with { Events = Measurement.RuntimeEvents.Off };
            plan = await DegreeSearch.RunAsync(
                plan, relay => new Runner(TrialExecutors.For(probing), relay, logger, setUps: setUps), Environment.ProcessorCount, observer,
                cancellationToken).ConfigureAwait(false);
            record = await new Runner(TrialExecutors.For(options), observer, logger, setUps: setUps).RunAsync(plan, cancellationToken)
                .ConfigureAwait(false);
        }
        finally
        {
            await setUps.DisposeAsync().ConfigureAwait(false);
        }

        return Summarizer.Summarise(setUps.Notes.Count == 0 ? record : record with { Notes = [.. record.Notes, .. setUps.Notes] });
    }
}
