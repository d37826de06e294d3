namespace ConcurrencyLab.Results;

/// <summary>
/// A published claim of the post a scenario reproduces, judged on a run's results by the rule the lab states for
/// it, and only where the run met the claim's conditions (<see cref="Conditions"/>): a claim the run did not put to
/// the test is <see cref="Verdict.NotTested"/>, never a verdict.
/// </summary>
internal sealed record ClaimResult
{
    /// <summary>The claim's short, stable name (<c>delay-channel-12x</c>).</summary>
    public required string Id { get; init; }

    /// <summary>The claim in one line.</summary>
    public required string Claim { get; init; }

    /// <summary>The published figure and the machine it came from.</summary>
    public required string Published { get; init; }

    /// <summary>Where the published figure comes from: the post's text, an image, its code, or the lab's reading.</summary>
    public FigureSource Source { get; init; }

    /// <summary>What the lab says of it on this run.</summary>
    public required Verdict Verdict { get; init; }

    /// <summary>For <see cref="Verdict.HoldsOnly"/>, the condition it holds under ("with 2 cores", "at N = 100").</summary>
    public string? Condition { get; init; }

    /// <summary>Whether the verdict is "holds" outright.</summary>
    public bool Holds => Verdict == Verdict.Holds;

    /// <summary>Whether the run decided the claim: holds, does not hold, or holds only under a condition.</summary>
    public bool Judged => Verdict is Verdict.Holds or Verdict.DoesNotHold or Verdict.HoldsOnly;

    /// <summary>The figure here the verdict rests on, in one line, with its 95% interval where it has one.</summary>
    public string Figure { get; init; } = string.Empty;

    /// <summary>The same figure as numbers, one per part the verdict combines (processor counts, forms, N); empty where there is none.</summary>
    public IReadOnlyList<ClaimFigure> Figures { get; init; } = [];

    /// <summary>Why, in one line, from the measurements.</summary>
    public string Reason { get; init; } = string.Empty;

    /// <summary>The claim's conditions, each as this run met it or not.</summary>
    public IReadOnlyList<ClaimCondition> Conditions { get; init; } = [];

    /// <summary>The verdict as a reader sees it: "holds", "does not hold", "holds only with 8 cores", "could not be judged", "not tested".</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string VerdictText => Text(Verdict, Condition);

    /// <summary>The claim as one sentence for a report: "Claim (published in the text: ...): holds here, figure;
    /// reason." Made from the data, never stored.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string Sentence => Figure is "" or "-"
        ? $"{Claim} ({From(Source)}: {Published}): {VerdictText} here: {Reason}."
        : $"{Claim} ({From(Source)}: {Published}): {VerdictText} here, {Figure}; {Reason}.";

    /// <summary>Where a published figure comes from, in words: "published in the text", "read by the lab from the post".</summary>
    internal static string From(FigureSource source) => source switch
    {
        FigureSource.Image => "published in an image",
        FigureSource.Code => "published in the code",
        FigureSource.LabReading => "read by the lab from the post",
        _ => "published in the text",
    };

    /// <summary>A verdict in words, with its condition where it has one.</summary>
    internal static string Text(Verdict verdict, string? condition = null) => verdict switch
    {
        Verdict.Holds => "holds",
        Verdict.DoesNotHold => "does not hold",
        Verdict.HoldsOnly => $"holds only {condition}",
        Verdict.NotTested => "not tested",
        _ => "could not be judged",
    };
}
