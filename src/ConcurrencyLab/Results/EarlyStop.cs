namespace ConcurrencyLab.Results;

/// <summary>Why a variant stopped before the run's most measured trials (<see cref="RunSettings.Repeat"/>).</summary>
internal enum EarlyStopReason
{
    /// <summary>Its interval lay wholly above a stated multiple of the fastest variant's interval: more trials could
    /// not make it the answer.</summary>
    OutOfContention,

    /// <summary>Its interval was already within a stated share of its median: more trials would only narrow it further.</summary>
    Tight,
}

/// <summary>
/// A variant that ran fewer measured trials than the run allowed, and why (adaptive trial counts, on unless
/// <c>--repeat-exactly</c>): written in <c>results.json</c> as the variant's <c>stop</c>; absent for a variant that ran them all, and
/// in files written before trial counts adapted.
/// </summary>
internal sealed record EarlyStop
{
    /// <summary>Why it stopped.</summary>
    public required EarlyStopReason Reason { get; init; }

    /// <summary>The measured trials it had when it stopped.</summary>
    public required int Trials { get; init; }

    /// <summary>The most it would have had: the run's <see cref="RunSettings.Repeat"/>.</summary>
    public required int Planned { get; init; }

    /// <summary>Its median and interval when it stopped, in milliseconds.</summary>
    public required double MedianMs { get; init; }

    /// <summary>The low end of its interval when it stopped, in milliseconds.</summary>
    public required double CiLowMs { get; init; }

    /// <summary>The high end of its interval when it stopped, in milliseconds.</summary>
    public required double CiHighMs { get; init; }

    /// <summary>For <see cref="EarlyStopReason.OutOfContention"/>, the fastest variant it was weighed against; null otherwise.</summary>
    public string? Fastest { get; init; }

    /// <summary>For <see cref="EarlyStopReason.OutOfContention"/>, the high end of the fastest's interval then, in
    /// milliseconds; null otherwise.</summary>
    public double? FastestCiHighMs { get; init; }

    /// <summary>
    /// For <see cref="EarlyStopReason.OutOfContention"/>, the multiple of <see cref="FastestCiHighMs"/> its interval lay
    /// above: 2, or 4 where it stopped after two trials; null otherwise, and in files written before it was kept (2 then).
    /// </summary>
    public double? Ratio { get; init; }
}
