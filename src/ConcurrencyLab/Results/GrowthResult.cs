namespace ConcurrencyLab.Results;

/// <summary>
/// How each variant's cost grew with the work (<c>--grow</c>), as data: the sizes of one whole-number parameter,
/// the ideal at each, and for each line of variants (all that differ only in that parameter) the median at each
/// size, the growth exponent of its time (the slope of time against size on log-log axes, fitted to every ok
/// trial, with its 95% interval), and the size from which it stopped keeping up with the ideal.
/// </summary>
internal sealed record GrowthResult
{
    /// <summary>The least by which a line's local exponent must exceed the ideal's, between two sizes, for it to have
    /// stopped keeping up there.</summary>
    public const double StopsKeepingUp = 0.5;

    /// <summary>The parameter grown, as its option is named without dashes: <c>items</c>.</summary>
    public required string Parameter { get; init; }

    /// <summary>The sizes, increasing.</summary>
    /// <exception cref="ArgumentException">Set to no sizes, or to sizes that are not 1 or more and increasing (as a
    /// results file someone sent might).</exception>
    public required IReadOnlyList<int> Sizes
    {
        get => _sizes;
        init => _sizes = value is { Count: > 0 } && value.All(s => s >= 1) && value.Zip(value.Skip(1)).All(p => p.First < p.Second)
            ? value
            : throw new ArgumentException("a growth's sizes must be one or more whole numbers of 1 or more, increasing.", nameof(Sizes));
    }

    private readonly IReadOnlyList<int> _sizes = [];

    /// <summary>The ideal at each size, in milliseconds, in the order of <see cref="Sizes"/>; 0 where there is none.</summary>
    public IReadOnlyList<double> IdealsMs { get; init; } = [];

    /// <summary>The ideal's own growth exponent over the sizes; null where any size has no ideal.</summary>
    public double? IdealExponent { get; init; }

    /// <summary>The line of the run's baseline, which each size's ratios are to; null in a file written before it was recorded.</summary>
    public string? BaselineLine { get; init; }

    /// <summary>Each line of variants, the slowest-growing first.</summary>
    public IReadOnlyList<LineGrowth> Lines { get; init; } = [];
}

/// <summary>One line of a <see cref="GrowthResult"/>: the variants that differ only in the size.</summary>
internal sealed record LineGrowth
{
    /// <summary>The variants' name without the size: <c>parallel-for@4</c> for <c>parallel-for@4:items=1000</c>.</summary>
    public required string Line { get; init; }

    /// <summary>Its median wall time at each size, in milliseconds, in the order of <see cref="GrowthResult.Sizes"/>;
    /// null where no trial was ok.</summary>
    public IReadOnlyList<double?> MediansMs { get; init; } = [];

    /// <summary>The growth exponent: time grows as size to this power (0 flat, 1 linear); null with fewer than two sizes measured.</summary>
    public double? Exponent { get; init; }

    /// <summary>The exponent's 95% interval, low end; null when the fit has too few trials (three or more are needed).</summary>
    public double? ExponentLow { get; init; }

    /// <summary>The exponent's 95% interval, high end.</summary>
    public double? ExponentHigh { get; init; }

    /// <summary>
    /// The first size at which, from the size before it, its time grew faster than the ideal's by at least
    /// <see cref="GrowthResult.StopsKeepingUp"/> in exponent: where it stopped keeping up; null when it kept up throughout.
    /// </summary>
    public int? StopsKeepingUpAt { get; init; }
}
