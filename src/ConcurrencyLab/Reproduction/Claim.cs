namespace ConcurrencyLab.Reproduction;

/// <summary>
/// One claim a published post makes, as data: what it says, the figure it published and on what machine, the
/// runs that test it, and the rule that decides it from the statistics of those runs. The rule is a plain
/// function of the evidence, so it can be held to made-up results that must pass and must fail.
/// </summary>
/// <param name="Id">A short, stable name (<c>scan-sequential</c>).</param>
/// <param name="Text">The claim in one line, in the lab's words.</param>
/// <param name="Published">The published figure and the machine it came from.</param>
/// <param name="Runs">The keys of the <see cref="ClaimRun"/>s it is judged on, each on its own row.</param>
/// <param name="Judge">The decision rule; it may throw <see cref="MissingEvidenceException"/>, which makes the verdict "could not be judged".</param>
internal sealed record Claim(string Id, string Text, string Published, IReadOnlyList<string> Runs, Func<ClaimEvidence, Judgement> Judge)
{
    /// <summary>
    /// Whether the rule is about one machine, so a run over several processor counts judges it at each and says
    /// under which it held; false for a rule that compares the counts itself.
    /// </summary>
    public bool PerCores { get; init; } = true;

    /// <summary>
    /// The verdict on <paramref name="evidence"/>: at each processor count the run swept when the rule is
    /// <see cref="PerCores"/>, combined into one; "could not be judged" when what the rule needs is missing
    /// (a variant that failed every trial, a scenario whose set-up failed), never a verdict on too little.
    /// </summary>
    public Judgement Evaluate(ClaimEvidence evidence)
    {
        ArgumentNullException.ThrowIfNull(evidence);
        if (!PerCores || evidence.Cores.Count == 0)
        {
            return JudgeSafely(evidence);
        }

        var each = evidence.Cores.Select(c => (Cores: c, Judgement: JudgeSafely(evidence.At(c)))).ToList();
        return Combine(each);
    }

    private Judgement JudgeSafely(ClaimEvidence evidence)
    {
        try
        {
            return Judge(evidence);
        }
        catch (MissingEvidenceException missing)
        {
            return Judgement.CouldNotJudge(missing.Message) with { NotRun = missing.NotRun };
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A rule that fails on results it did not foresee costs its claim a verdict, never the reproduction.
            return Judgement.CouldNotJudge($"its rule failed: {ex.GetType().Name}: {ex.Message}".ReplaceLineEndings(" "));
        }
    }

    // One verdict from a verdict at each processor count: held at all, at some (named), or at none.
    internal static Judgement Combine(IReadOnlyList<(int Cores, Judgement Judgement)> each)
    {
        if (each.Count == 1)
        {
            return each[0].Judgement;
        }

        var judged = each.Where(e => e.Judgement.Verdict != Verdict.CouldNotJudge).ToList();
        var figure = string.Join("; ", each.Select(e => $"{e.Cores} cores: {e.Judgement.Figure}"));
        // One reason said once when every count gave the same.
        var reason = each.Select(e => e.Judgement.Reason).Distinct().Count() == 1
            ? each[0].Judgement.Reason
            : string.Join("; ", each.Select(e => $"{e.Cores} cores: {e.Judgement.Reason}"));
        if (judged.Count == 0)
        {
            return new Judgement(Verdict.CouldNotJudge, figure, reason) { NotRun = each.All(e => e.Judgement.NotRun) };
        }

        if (judged.Count == each.Count && judged.All(e => e.Judgement.Verdict == Verdict.Holds))
        {
            return new Judgement(Verdict.Holds, figure, reason);
        }

        // Each count that held, outright or under its own condition, named; those that could not judge, said.
        var where = judged
            .Where(e => e.Judgement.Verdict is Verdict.Holds or Verdict.HoldsOnlyIf)
            .Select(e => e.Judgement.Verdict == Verdict.Holds ? $"with {e.Cores} cores" : $"with {e.Cores} cores {e.Judgement.Condition}")
            .ToList();
        var unjudged = each.Where(e => e.Judgement.Verdict == Verdict.CouldNotJudge).Select(e => e.Cores).ToList();
        var notJudged = unjudged.Count == 0 ? string.Empty : $" (not judged with {string.Join(" or ", unjudged)} cores)";
        return where.Count == 0
            ? new Judgement(Verdict.DoesNotHold, figure, reason + notJudged)
            : new Judgement(Verdict.HoldsOnlyIf, figure, reason, string.Join(" or ", where) + notJudged);
    }
}

/// <summary>What a reproduction says of a claim.</summary>
internal enum Verdict
{
    /// <summary>The measurements bear it out.</summary>
    Holds,

    /// <summary>The measurements contradict it, or fail to show what it says.</summary>
    DoesNotHold,

    /// <summary>It holds under a condition the judgement names, and not otherwise.</summary>
    HoldsOnlyIf,

    /// <summary>What the rule needs was not measured: a variant failed, a scenario did not run.</summary>
    CouldNotJudge,
}

/// <summary>A verdict with the figure measured here and the reason, in one line each.</summary>
/// <param name="Verdict">What the rule decided.</param>
/// <param name="Figure">The figure here the verdict rests on, with its 95% interval where it has one.</param>
/// <param name="Reason">Why, from the measurements (and the runtime's account of the pool where it helps).</param>
/// <param name="Condition">For <see cref="Verdict.HoldsOnlyIf"/>, the condition it holds under.</param>
internal sealed record Judgement(Verdict Verdict, string Figure, string Reason, string? Condition = null)
{
    /// <summary>
    /// Whether the verdict could not be reached only because the run did not include what the rule compares (a
    /// run of other variants): nothing failed, the claim was just not put to the test.
    /// </summary>
    public bool NotRun { get; init; }

    public static Judgement Holds(string figure, string reason) => new(Verdict.Holds, figure, reason);

    public static Judgement DoesNotHold(string figure, string reason) => new(Verdict.DoesNotHold, figure, reason);

    public static Judgement OnlyIf(string condition, string figure, string reason) => new(Verdict.HoldsOnlyIf, figure, reason, condition);

    public static Judgement CouldNotJudge(string reason) => new(Verdict.CouldNotJudge, "-", reason);

    /// <summary>Holds when <paramref name="holds"/>, else does not.</summary>
    public static Judgement If(bool holds, string figure, string reason) => new(holds ? Verdict.Holds : Verdict.DoesNotHold, figure, reason);

    /// <summary>The verdict as a reader sees it: "holds", "does not hold", "holds only with 8 cores", "could not be judged".</summary>
    public string VerdictText => Verdict switch
    {
        Verdict.Holds => "holds",
        Verdict.DoesNotHold => "does not hold",
        Verdict.HoldsOnlyIf => $"holds only {Condition}",
        _ => "could not be judged",
    };
}

/// <summary>What a rule needed and the results do not have; the claim's verdict becomes "could not be judged".</summary>
internal sealed class MissingEvidenceException : Exception
{
    public MissingEvidenceException(string message)
        : base(message)
    {
    }

    public MissingEvidenceException(string message, bool notRun)
        : base(message)
    {
        NotRun = notRun;
    }

    /// <summary>Whether what is missing was simply not in the run, rather than measured and failed.</summary>
    public bool NotRun { get; }

    public MissingEvidenceException()
    {
    }

    public MissingEvidenceException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
