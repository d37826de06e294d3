using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Results;

/// <summary>
/// How a strategy's degree of parallelism was searched (<c>--dop auto</c>) before the run: the degrees probed, each
/// with a few trials, and the one chosen, which the run then measured with its full repeat count.
/// </summary>
internal sealed record DegreeSearchResult
{
    /// <summary>The strategy, such as <c>foreach-async</c>.</summary>
    public required string Family { get; init; }

    /// <summary>The form its items were called in.</summary>
    public WorkForm? Form { get; init; }

    /// <summary>The variant the run measured at the chosen degree, such as <c>foreach-async@48</c>.</summary>
    public required string Variant { get; init; }

    /// <summary>The degree with the least median of its probe; the lesser of two alike.</summary>
    public int Chosen { get; init; }

    /// <summary>The least degree as fast as the chosen one, within the probes' noise.</summary>
    public int AsFastFrom { get; init; }

    /// <summary>The greatest degree as fast as the chosen one, within the probes' noise.</summary>
    public int AsFastTo { get; init; }

    /// <summary>The share by which two probes of one degree may differ by chance: at least 0.05.</summary>
    public double Noise { get; init; }

    /// <summary>Every degree probed, in increasing degree.</summary>
    public IReadOnlyList<DegreeProbeResult> Tried { get; init; } = [];

    /// <summary>The trials the search ran, all probes together.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public int Trials => (int)Math.Min(int.MaxValue, Tried.Sum(t => (long)Math.Max(0, t.Trials)));
}

/// <summary>One degree's probe.</summary>
/// <param name="Degree">The degree.</param>
/// <param name="Trials">Its successful trials.</param>
/// <param name="MedianMs">Their median wall time; null when none succeeded.</param>
internal sealed record DegreeProbeResult(int Degree, int Trials, double? MedianMs);
