using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>
/// One claim a published post makes, as data: what it says, the figure it published, where that figure comes from
/// and on what machine, the conditions it holds under, the runs that test it, and the rule that decides it from the
/// statistics of those runs. The rule is a plain function of the evidence, so it can be held to made-up results
/// that must pass, must fail, and cannot tell.
/// </summary>
/// <param name="Id">A short, stable name (<c>scan-sequential</c>).</param>
/// <param name="Text">The claim in one line, in the lab's words.</param>
/// <param name="Published">The published figure and the machine it came from.</param>
/// <param name="Runs">The keys of the <see cref="ClaimRun"/>s it is judged on, each on its own row.</param>
/// <param name="Judge">The decision rule; it may throw <see cref="MissingEvidenceException"/>, which makes the verdict
/// "could not be judged" (or "not tested").</param>
internal sealed record Claim(string Id, string Text, string Published, IReadOnlyList<string> Runs, Func<ClaimEvidence, Judgement> Judge)
{
    /// <summary>The decision rule in words, with its band or threshold: what docs/reproduction.md states for the claim.</summary>
    public string Rule { get; init; } = string.Empty;

    /// <summary>Where the published figure comes from.</summary>
    public FigureSource Source { get; init; } = FigureSource.Text;

    /// <summary>
    /// What was checked of the claim against the post, in a sentence: where its figure is (the text, a table, an
    /// image, the original program), whether the lab's variant calls the same API, and the set-up difference the
    /// verdict depends on; what docs/reproduction.md says beside the rule.
    /// </summary>
    public string Checked { get; init; } = string.Empty;

    /// <summary>
    /// What a run must have been for its results to test the claim: parameters at the published values, the
    /// published processor counts, the kind of machine. The rule may read only the parameters these pin.
    /// </summary>
    public IReadOnlyList<Requirement> Conditions { get; init; } = [];

    /// <summary>
    /// Whether the rule is about one machine, so a run over several processor counts judges it at each and says
    /// under which it held; false for a rule that compares the counts itself.
    /// </summary>
    public bool PerCores { get; init; } = true;

    /// <summary>
    /// The verdict on <paramref name="evidence"/>. Not tested when the run did not meet the claim's conditions;
    /// could not be judged when this machine cannot meet them, or when what the rule needs is missing or too spread;
    /// otherwise the rule's verdict, at each processor count the run swept when the rule is <see cref="PerCores"/>.
    /// </summary>
    public Judgement Evaluate(ClaimEvidence evidence)
    {
        ArgumentNullException.ThrowIfNull(evidence);
        if (!evidence.Ran)
        {
            // A run never made (cancelled before it, not found) did not test the claim; one made that measured
            // nothing (its set-up failed) could not judge it.
            return evidence.NotMade ? Judgement.NotTested(evidence.Absent) : Judgement.CouldNotJudge(evidence.Absent);
        }

        // Every claim holds under the runtime as it ships, on a quiet machine, besides its own conditions.
        var facts = evidence.Facts;
        var conditions = Conditions.Prepend(Requirement.QuietMachine).Prepend(Requirement.RuntimeAsShipped)
            .Select(c => (Requirement: c, Check: c.Check(facts)))
            .ToList();
        var checks = conditions.Select(c => c.Check).ToList();
        var unmet = conditions.Where(c => !c.Check.Met && c.Requirement is not CoresRequirement).ToList();
        if (unmet.Any(c => !c.Requirement.OfTheMachine))
        {
            return Judgement.NotTested($"the run did not meet its conditions: " +
                $"{Needs(unmet.Where(u => !u.Requirement.OfTheMachine))}") with { Conditions = checks };
        }

        if (unmet.FirstOrDefault(u => u.Requirement is ComputedRequirement { NoRunTests: true }) is { Check: { } untestable })
        {
            return Judgement.CouldNotJudge(untestable.Actual ?? "no run can test it") with { Conditions = checks };
        }

        if (unmet.Count > 0)
        {
            return Judgement.CouldNotJudge($"it needs {Needs(unmet)}, which the machine that measured it could not " +
                $"give") with { Conditions = checks };
        }

        var view = evidence.For(this);
        var cores = Conditions.OfType<CoresRequirement>().FirstOrDefault();
        var slices = evidence.Cores.Count > 0 && (PerCores || cores is not null)
            ? [.. evidence.Cores.Select(view.At)]
            : new List<ClaimEvidence> { view.Whole() };
        if (cores is not null)
        {
            var kept = slices.Where(s => cores.Accepts(s.SliceCores)).ToList();
            if (kept.Count == 0)
            {
                var seen = string.Join(
                    ", ", slices.Select(s => s.SliceCores?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "an unrecorded count"));
                return Judgement.NotTested($"the run did not meet its conditions: the runtime seeing {cores.Required} processors (this run: " +
                    $"{seen}; --cores sets it)") with { Conditions = checks };
            }

            slices = kept;
        }

        Judgement judgement;
        if (!PerCores)
        {
            judgement = Seen(slices) ?? JudgeSafely(view.Sweeping([.. slices.Select(s => s.SliceCores).OfType<int>()]));
        }
        else
        {
            var each = slices.Select(s => (Cores: s.SliceCores, Judgement: Seen([s]) ?? JudgeSafely(s))).ToList();
            judgement = each.Count == 1 ? each[0].Judgement : Combine([.. each.Select(e => (e.Cores ?? 0, e.Judgement))]);
        }

        return judgement with { Conditions = checks };
    }

    // A slice asked for one processor count whose trials' runtimes saw another: what it measured is not what it is
    // named for, so it cannot judge. Null when every trial saw the count its slice is named for.
    private static Judgement? Seen(IReadOnlyList<ClaimEvidence> slices)
    {
        foreach (var slice in slices.Where(s => s.SliceCores is not null))
        {
            var other = slice.SeenInSlice().Where(n => n != slice.SliceCores).ToList();
            if (other.Count > 0)
            {
                return Judgement.CouldNotJudge($"its trials were asked for {slice.SliceCores} processors and their runtimes saw " +
                    $"{string.Join(", ", other)}");
            }
        }

        return null;
    }

    /// <summary>The claim's verdict as results record it.</summary>
    public ClaimResult ToResult(Judgement judgement)
    {
        ArgumentNullException.ThrowIfNull(judgement);
        return new ClaimResult
        {
            Id = Id,
            Claim = Text,
            Published = Published,
            Source = Source,
            Verdict = judgement.Verdict,
            Condition = judgement.Condition,
            Figure = judgement.Figure,
            Figures = judgement.Figures,
            Reason = judgement.Reason,
            Conditions = judgement.Conditions,
        };
    }

    /// <summary>What the claim needs of a run, in one line: "work-ms 100, duration at least 12".</summary>
    public string Needs() => Conditions.Count == 0 ? "nothing beyond its variants" : string.Join(", ", Conditions.Select(c => c.Describe()));

    private static string Needs(IEnumerable<(Requirement Requirement, ClaimCondition Check)> unmet) =>
        string.Join(
            ", ", unmet.Select(u => u.Check.Actual is { } actual ? $"{u.Requirement.Describe()} (this run: {actual})" : u.Requirement.Describe()));

    private Judgement JudgeSafely(ClaimEvidence evidence)
    {
        try
        {
            return Judge(evidence);
        }
        catch (MissingEvidenceException missing)
        {
            return missing.NotRun ? Judgement.NotTested(missing.Message) : Judgement.CouldNotJudge(missing.Message);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A rule that fails on results it did not foresee costs its claim a verdict, never the reproduction.
            return Judgement.CouldNotJudge($"its rule failed: {ex.GetType().Name}: {ex.Message}".ReplaceLineEndings(" "));
        }
    }

    /// <summary>
    /// One verdict from a verdict at each processor count. Counts that did not test the claim are left out. Any
    /// count that could not judge makes the whole "could not be judged" (what held elsewhere is said in the reason),
    /// so a verdict never changes with which counts happened to be decided; then it holds at all, at some (named),
    /// or at none.
    /// </summary>
    internal static Judgement Combine(IReadOnlyList<(int Cores, Judgement Judgement)> all)
    {
        ArgumentOutOfRangeException.ThrowIfZero(all.Count);
        var each = all.Where(e => e.Judgement.Verdict != Verdict.NotTested).ToList();
        if (each.Count == 0)
        {
            return all[0].Judgement;
        }

        if (each.Count == 1)
        {
            return each[0].Judgement;
        }

        var figure = string.Join("; ", each.Select(e => $"{e.Cores} cores: {e.Judgement.Figure}"));
        var figures = each.SelectMany(
            e => e.Judgement.Figures.Select(f => f with { At = f.At is null ? $"{e.Cores} cores" : $"{e.Cores} cores, {f.At}" })).ToList();

        // One reason said once when every count gave the same.
        var reason = each.Select(e => e.Judgement.Reason).Distinct().Count() == 1
            ? each[0].Judgement.Reason
            : string.Join("; ", each.Select(e => $"{e.Cores} cores: {e.Judgement.VerdictText}, {e.Judgement.Reason}"));
        if (each.Any(e => !e.Judgement.Judged))
        {
            return new Judgement(Verdict.CouldNotJudge, figure, reason) { Figures = figures };
        }

        if (each.All(e => e.Judgement.Verdict == Verdict.Holds))
        {
            return new Judgement(Verdict.Holds, figure, reason) { Figures = figures };
        }

        // Each count that held, outright or under its own condition, named.
        var where = each
            .Where(e => e.Judgement.Verdict is Verdict.Holds or Verdict.HoldsOnly)
            .Select(e => e.Judgement.Verdict == Verdict.Holds ? $"with {e.Cores} cores" : $"with {e.Cores} cores {e.Judgement.Condition}")
            .ToList();
        return where.Count == 0
            ? new Judgement(Verdict.DoesNotHold, figure, reason) { Figures = figures }
            : new Judgement(Verdict.HoldsOnly, figure, reason, string.Join(" or ", where)) { Figures = figures };
    }
}
