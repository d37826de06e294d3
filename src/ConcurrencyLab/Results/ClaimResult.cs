namespace ConcurrencyLab.Results;

/// <summary>
/// A published claim of the post a scenario reproduces, judged on this run's results by the rule the lab states
/// for it (<c>conclab reproduce</c> judges every claim in the runs made for it; a run judges those its variants test).
/// </summary>
public sealed record ClaimResult
{
    /// <summary>The claim's short, stable name (<c>delay-channel-12x</c>).</summary>
    public required string Id { get; init; }

    /// <summary>The claim in one line.</summary>
    public required string Claim { get; init; }

    /// <summary>The published figure and the machine it came from.</summary>
    public required string Published { get; init; }

    /// <summary>Whether it held here: <c>holds</c>, <c>does not hold</c>, <c>holds only</c> and its condition, or <c>could not be judged</c>.</summary>
    public required string Verdict { get; init; }

    /// <summary>Whether the verdict is "holds" outright.</summary>
    public bool Holds { get; init; }

    /// <summary>Whether a verdict was reached: false when the results lacked what the rule needs (a variant that failed).</summary>
    public bool Judged { get; init; } = true;

    /// <summary>The figure here the verdict rests on, with its 95% interval where it has one.</summary>
    public string Figure { get; init; } = string.Empty;

    /// <summary>Why, in one line, from the measurements.</summary>
    public string Reason { get; init; } = string.Empty;

    /// <summary>The claim as one sentence for a report: "Published: ... (figure): holds here, figure; reason."</summary>
    public string Sentence => Figure is "" or "-"
        ? $"{Claim} (published: {Published}): {Verdict} here: {Reason}."
        : $"{Claim} (published: {Published}): {Verdict} here, {Figure}; {Reason}.";
}
