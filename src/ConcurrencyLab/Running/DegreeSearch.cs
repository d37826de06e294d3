using System.Globalization;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Strategies;

namespace ConcurrencyLab.Running;

/// <summary>
/// <c>--dop auto</c>: before the run, each strategy that takes a degree has its degree searched by probes of a few
/// trials (<see cref="DegreeProbe"/>); the plan then runs the degree found, with the full repeat count, in place of
/// the degrees it was given. A scenario that was not asked to search is left as it is.
/// </summary>
internal static class DegreeSearch
{
    /// <summary>The most degrees probed for one strategy.</summary>
    public const int Budget = 10;

    /// <summary>The highest degree searched: past it, a batch's items are better served by a strategy without a degree.</summary>
    public const int MaxDegree = 1024;

    /// <summary>
    /// Runs the searches <paramref name="plan"/> asks for, each probe through a runner <paramref name="runner"/>
    /// makes, and gives the plan with the degrees found and, in each scenario's plan, its searches.
    /// </summary>
    public static async Task<RunPlan> RunAsync(
        RunPlan plan,
        Func<IRunObserver?, Runner> runner,
        int processorCount,
        IRunObserver? observer,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(runner);
        var scenarios = new List<ScenarioPlan>();
        foreach (var scenarioPlan in plan.Scenarios)
        {
            if (!scenarioPlan.SearchDegrees)
            {
                scenarios.Add(scenarioPlan);
                continue;
            }

            if (await SearchAsync(plan, scenarioPlan, runner, processorCount, observer, cancellationToken).ConfigureAwait(false) is not { } searched)
            {
                // Cancelled mid-search: the run that follows sees the cancellation and keeps what it can.
                return plan with { Scenarios = [.. scenarios, .. plan.Scenarios.Skip(scenarios.Count)] };
            }

            scenarios.Add(searched);
        }

        return plan with { Scenarios = scenarios };
    }

    // One scenario's searches, in rounds of probes; its plan with the degrees found, or null when the run was cancelled.
    private static async Task<ScenarioPlan?> SearchAsync(
        RunPlan plan,
        ScenarioPlan scenarioPlan,
        Func<IRunObserver?, Runner> runner,
        int processorCount,
        IRunObserver? observer,
        CancellationToken cancellationToken)
    {
        // The plan's own space: a variant made at a degree keeps the run's sweeps (--cores, --grow) in its name.
        var space = scenarioPlan.Space ?? scenarioPlan.Scenario.Variants(scenarioPlan.Parameters);
        // Every strategy that takes a degree, named at a degree or at the API's default (`--variants
        // foreach-async` with --dop auto asks for its degree to be searched).
        var groups = scenarioPlan.Variants
            .Where(v => v.Parameters.ContainsKey(BatchVariant.DegreeName) && StrategyCatalog.Find(v.Family)?.HasDegree == true)
            .GroupBy(Group.Of)
            .ToList();
        var members = groups.ToDictionary(g => g.Key);
        var probeNotes = new SortedSet<string>(StringComparer.Ordinal);
        var relay = observer is null ? null : new ProbeRelay(observer);
        // Each search starts at the cores its trials' runtime sees: the variant's own (a sweep of --cores), else
        // the run's (--cores), else this machine's.
        var runCores = plan.Settings.RuntimeEnvironment.TryGetValue(RuntimeSettings.Cores.Variable, out var set)
            && int.TryParse(set, System.Globalization.NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n >= 1 ? n : processorCount;
        var cores = groups.ToDictionary(g => g.Key, g => g.First().WholeNumber(RuntimeSettings.Cores.Parameter.Name) ?? runCores);
        var probes = groups.ToDictionary(
            g => g.Key,
            g => new DegreeProbe(cores[g.Key], Math.Min(MaxDegree, StrategyCatalog.Find(g.Key.Family)?.MaxDegree ?? MaxDegree), Budget));

        // Rounds: each strategy's next degrees at once, so a probe round is one small run.
        // Each round by the trials its probes want (one for a new degree, more for one a single trial did not
        // settle), each a small run of its own.
        while (true)
        {
            // Each strategy's probe is told the least median the others have reached before it says what it wants.
            foreach (var (group, probe) in probes)
            {
                probe.Rival = probes.Where(p => p.Key != group).Min(p => p.Value.BestMedian);
            }

            var wanted = probes.SelectMany(p => p.Value.Next().Select(d => (Group: p.Key, Degree: d, Trials: p.Value.TrialsFor(d)))).ToList();
            if (wanted.Count == 0)
            {
                break;
            }

            foreach (var round in wanted.GroupBy(w => w.Trials))
            {
                var variants = round.Select(r => (r.Group, r.Degree, Variant: At(space, members[r.Group], r.Degree))).ToList();
                var probePlan = plan with
                {
                    Scenarios = [scenarioPlan with { Variants = [.. variants.Select(v => v.Variant)] }],
                    Settings = plan.Settings with { Repeat = round.Key, Warmup = 0, Adaptive = false },
                };
                RunRecord record;
                try
                {
                    record = await runner(relay).RunAsync(probePlan, cancellationToken).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
                {
                    return null;
                }

                if (record.Cancelled)
                {
                    return null;
                }

                probeNotes.UnionWith(record.Scenarios.SelectMany(s => s.Notes));
                RecordRound(record, variants, probes, cores, scenarioPlan.Scenario.Name, observer);
            }
        }

        return Searched(scenarioPlan, space, groups, probes, probeNotes);
    }

    // Tells the display of each probe trial as it ends, counted across the search's rounds; the rounds' own news
    // (their plans, their tables) is not the run's, and is not passed on.
    private sealed class ProbeRelay(IRunObserver display) : IRunObserver
    {
        private int _trials;

        public void RunStarting(RunPlan plan)
        {
        }

        public void TrialStarting(TrialProgress progress)
        {
        }

        public void TrialFinished(TrialProgress progress, TrialResult result) =>
            display.ProbeTrialFinished(progress.Scenario, progress.Variant, ++_trials, result.Status == TrialStatus.Ok ? result.WallMs : null);

        public void ScenarioFinished(ScenarioRecord scenario)
        {
        }
    }

    // What one round's probes measured, told to each strategy's probe (and to the display).
    private static void RecordRound(
        RunRecord record,
        List<(Group Group, int Degree, Variant Variant)> variants,
        Dictionary<Group, DegreeProbe> probes,
        Dictionary<Group, int> cores,
        string scenario,
        IRunObserver? observer)
    {
        var measured = record.Scenarios.SingleOrDefault()?.Variants.ToDictionary(v => v.Variant.Name, v => v.Trials) ?? [];
        foreach (var (group, degree, variant) in variants)
        {
            // No degree above the batch's items: past it, every item already runs at once.
            if (measured.GetValueOrDefault(variant.Name)?.FirstOrDefault(t => t.ItemsPlanned > 0) is { } planned)
            {
                probes[group].LimitTo(planned.ItemsPlanned);
            }

            var ok = measured.GetValueOrDefault(variant.Name)?.Where(t => t.Status == TrialStatus.Ok).ToList() ?? [];
            var walls = ok.Select(t => t.WallMs).ToList();
            probes[group].Record(degree, walls, BusyShare(ok, cores[group]));
            try
            {
                // Said with every trial of the degree so far, the ones a probe added to included.
                var all = probes[group].Tried.FirstOrDefault(t => t.Degree == degree).WallMs?.Where(w => w < double.MaxValue).ToList() ?? walls;
                observer?.DegreeProbed(scenario, variant.Name, all.Count, all.Count == 0 ? null : Statistics.MedianEstimate.MedianOf(all));
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                // A display that fails costs the display, never the search.
            }
        }
    }

    // The share of the cores the trials kept busy (their process's CPU time over wall time and cores), the most of
    // them, so a jump it predicts is the shorter; null when a trial did not measure its CPU.
    private static double? BusyShare(List<TrialResult> trials, int cores)
    {
        var shares = trials.Select(t => t.Value(Measurement.StandardMetrics.Cpu) is { } cpu && t.WallMs > 0 ? cpu / t.WallMs / cores : (double?)null)
            .ToList();
        return shares.Count == 0 || shares.Any(s => s is null) ? null : shares.Max();
    }

    // The scenario's plan once searched: the degree found in place of each group's degrees, its searches, and notes.
    private static ScenarioPlan Searched(
        ScenarioPlan scenarioPlan,
        VariantSpace space,
        List<IGrouping<Group, Variant>> groups,
        Dictionary<Group, DegreeProbe> probes,
        SortedSet<string> probeNotes)
    {
        // The degree found takes the place of the group's degrees, where the group's first variant was; the API's
        // default degree is a variant of its own and stays, as does the baseline, whatever its degree.
        var found = groups.Where(g => probes[g.Key].Best is not null).ToList();
        var chosen = found.ToDictionary(g => g.Key, g => At(space, g, probes[g.Key].Best!.Value));
        var results = found.Select(g => Result(g.Key, probes[g.Key], chosen[g.Key])).ToList();
        var kept = new List<Variant>();
        foreach (var variant in scenarioPlan.Variants)
        {
            var group = variant.Parameters.ContainsKey(BatchVariant.DegreeName) ? Group.Of(variant) : null;
            var searched = group is not null && chosen.TryGetValue(group, out var at) ? at : null;
            var numbered = variant.WholeNumber(BatchVariant.DegreeName) is not null;
            if (searched is not null && !kept.Any(k => k.Name == searched.Name))
            {
                kept.Add(searched);
            }

            if ((searched is null || !numbered || variant.Name == scenarioPlan.Baseline) && !kept.Any(k => k.Name == variant.Name))
            {
                kept.Add(variant);
            }
        }

        var notes = new List<string>(scenarioPlan.Notes);
        if (results.Count > 0)
        {
            if (found.Count(g => probes[g.Key].Skipped > 0) is var skipping and > 0)
            {
                notes.Add($"--dop auto: the first probe of {skipping} strateg{(skipping == 1 ? "y" : "ies")} kept the cores busy " +
                    $"{1 - DegreeProbe.IdleToSkip:P0} of the time or less, so the doublings that would each have about halved the time " +
                    $"(up to the degree that saturates the cores) were skipped, not probed");
            }

            notes.Add($"--dop auto: the degree of {results.Count} strateg{(results.Count == 1 ? "y" : "ies")} searched in " +
                $"{results.Sum(r => r.Trials)} probe trials before the run (one a degree, {DegreeProbe.Trials} where one did not settle it " +
                $"and for the degrees near the best, unless the strategy was {DegreeProbe.Clear} times slower than another's best; at most " +
                $"{Budget} degrees each); the run measured the degree found");
        }

        var unfound = groups.Where(g => !chosen.ContainsKey(g.Key)).Select(g => g.Key.Family).Distinct().ToList();
        if (unfound.Count > 0)
        {
            notes.Add($"--dop auto found no degree for {string.Join(", ", unfound)}: no probe trial succeeded, so the degrees given run as " +
                $"they were");
            notes.AddRange(probeNotes.Select(n => "while searching: " + n));
        }

        return scenarioPlan with { Variants = kept, Notes = notes, DegreeSearches = results };
    }

    private static DegreeSearchResult Result(Group group, DegreeProbe probe, Variant variant)
    {
        var (from, to) = probe.AsFast!.Value;
        return new DegreeSearchResult
        {
            Family = group.Family,
            Form = group.Form,
            Variant = variant.Name,
            Chosen = probe.Best!.Value,
            AsFastFrom = from,
            AsFastTo = to,
            Noise = Math.Round(probe.Noise, 3),
            Tried =
            [
                .. probe.Tried.Select(t =>
                {
                    var ok = t.WallMs.Where(w => w < double.MaxValue).ToList();
                    return new DegreeProbeResult(t.Degree, ok.Count, ok.Count == 0 ? null : Math.Round(Statistics.MedianEstimate.MedianOf(ok), 3));
                }),
            ],
        };
    }

    // The variants one search covers: a strategy in one form, at one set of the other parameters' values.
    // Compared by value: the other parameters are kept as one string of name=value pairs, in order.
    private sealed record Group(string Family, Workloads.WorkForm? Form, string Others)
    {
        public static Group Of(Variant variant) =>
            new(variant.Family, variant.Form, string.Join(' ', OthersOf(variant).Select(o => $"{o.Key}={o.Value}")));

        public static Dictionary<string, string> OthersOf(Variant variant) =>
            variant.Parameters.Where(p => p.Key != BatchVariant.DegreeName).OrderBy(p => p.Key, StringComparer.Ordinal)
                .ToDictionary(p => p.Key, p => p.Value, StringComparer.Ordinal);
    }

    // The variant of a group at a degree: the group's first variant with its degree changed.
    private static Variant At(VariantSpace space, IGrouping<Group, Variant> group, int degree) =>
        space.Create(group.Key.Family, group.Key.Form, degree.ToString(CultureInfo.InvariantCulture), Group.OthersOf(group.First()));
}
