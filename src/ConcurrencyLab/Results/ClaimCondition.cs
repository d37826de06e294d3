namespace ConcurrencyLab.Results;

/// <summary>
/// One condition a published claim holds under (a parameter's value, the processor count, the kind of machine),
/// as a run was checked against it. A claim is judged only on a run that meets all of its conditions.
/// </summary>
internal sealed record ClaimCondition
{
    /// <summary>What the condition is about: a parameter's name (<c>work-ms</c>), <c>cores</c>, <c>machine</c>.</summary>
    public required string Name { get; init; }

    /// <summary>What the claim needs, in a few words: "100", "at least 12", "2 or 8", "disk-bound".</summary>
    public required string Required { get; init; }

    /// <summary>What the run had; null when it recorded nothing for it.</summary>
    public string? Actual { get; init; }

    /// <summary>Whether the run met it.</summary>
    public bool Met { get; init; }
}
