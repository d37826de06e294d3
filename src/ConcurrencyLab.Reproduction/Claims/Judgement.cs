using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>A claim's verdict on one run: the figure here in words and as numbers, and why.</summary>
/// <param name="Verdict">What the rule decided, or why it did not.</param>
/// <param name="Figure">The figure here the verdict rests on, with its 95% interval where it has one.</param>
/// <param name="Reason">Why, from the measurements (and the runtime's account of the pool where it helps).</param>
/// <param name="Condition">For <see cref="Verdict.HoldsOnly"/>, the condition it holds under.</param>
internal sealed record Judgement(Verdict Verdict, string Figure, string Reason, string? Condition = null)
{
    /// <summary>The figures as numbers, one per part the verdict combines.</summary>
    public IReadOnlyList<ClaimFigure> Figures { get; init; } = [];

    /// <summary>The claim's conditions as the run met them (filled in by <see cref="Claim.Evaluate"/>).</summary>
    public IReadOnlyList<ClaimCondition> Conditions { get; init; } = [];

    /// <summary>Whether a verdict was reached.</summary>
    public bool Judged => Verdict is Verdict.Holds or Verdict.DoesNotHold or Verdict.HoldsOnly;

    /// <summary>The verdict as a reader sees it: "holds", "does not hold", "holds only with 8 cores", "could not be judged", "not tested".</summary>
    public string VerdictText => ClaimResult.Text(Verdict, Condition);

    public static Judgement Holds(string figure, string reason) => new(Verdict.Holds, figure, reason);

    public static Judgement DoesNotHold(string figure, string reason) => new(Verdict.DoesNotHold, figure, reason);

    public static Judgement OnlyIf(string condition, string figure, string reason) => new(Verdict.HoldsOnly, figure, reason, condition);

    public static Judgement CouldNotJudge(string reason) => new(Verdict.CouldNotJudge, "-", reason);

    public static Judgement CouldNotJudge(string figure, string reason) => new(Verdict.CouldNotJudge, figure, reason);

    public static Judgement NotTested(string reason) => new(Verdict.NotTested, "-", reason);

    /// <summary>The same verdict with <paramref name="figures"/> as its numbers.</summary>
    public Judgement With(params ClaimFigure[] figures) => this with { Figures = figures };
}

/// <summary>
/// What a rule needed and the results do not have: the verdict becomes "could not be judged", or "not tested" when
/// what is missing was simply not in the run (a variant it did not run, a run not made).
/// </summary>
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

    public MissingEvidenceException()
    {
    }

    public MissingEvidenceException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Whether what is missing was simply not in the run, rather than measured and failed.</summary>
    public bool NotRun { get; }
}
