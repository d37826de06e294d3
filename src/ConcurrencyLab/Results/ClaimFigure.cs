namespace ConcurrencyLab.Results;

/// <summary>
/// A figure a verdict rests on, as numbers: the quantity measured here with its 95% interval, the published
/// value in the same unit, and the band or threshold the claim's rule holds it to.
/// </summary>
internal sealed record ClaimFigure
{
    /// <summary>What is measured, in a few words: "parallel-for@4 over channel, median wall time".</summary>
    public required string Quantity { get; init; }

    /// <summary>The unit of <see cref="Value"/>: <c>x</c> for a ratio, <c>ms</c>, <c>threads</c>, <c>files/s</c>.</summary>
    public required string Unit { get; init; }

    /// <summary>Where the figure was taken when the verdict combines several ("2 cores", "N = 100", "APM"); null for the run as a whole.</summary>
    public string? At { get; init; }

    /// <summary>The figure here: a median, or a ratio of medians.</summary>
    public double Value { get; init; }

    /// <summary>The lower end of its 95% interval (for a ratio, the lowest the two medians' intervals allow).</summary>
    public double Low { get; init; }

    /// <summary>The upper end of its 95% interval.</summary>
    public double High { get; init; }

    /// <summary>How many ok trials the figure rests on (the fewer of the two, for a ratio).</summary>
    public int Trials { get; init; }

    /// <summary>The published value in the same unit; null when the post gave none.</summary>
    public double? Published { get; init; }

    /// <summary>The lowest value the rule accepts as the claim (a band's lower end, or a threshold); null when unbounded below.</summary>
    public double? Lowest { get; init; }

    /// <summary>The highest value the rule accepts as the claim; null when unbounded above.</summary>
    public double? Highest { get; init; }
}
