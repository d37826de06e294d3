using ConcurrencyLab.Statistics;

namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>
/// A figure a rule decides on: a median, or a ratio of two medians, with its 95% interval and the number of ok
/// trials it rests on (the fewer of the two, for a ratio).
/// </summary>
/// <param name="Value">The median, or the ratio of the medians.</param>
/// <param name="Low">The lower end of the interval.</param>
/// <param name="High">The upper end of the interval.</param>
/// <param name="Trials">The ok trials behind it.</param>
internal readonly record struct Estimate(double Value, double Low, double High, int Trials)
{
    /// <summary>The median of <paramref name="values"/> with its interval (clamped to the values' range, as the lab's medians are).</summary>
    public static Estimate Of(IReadOnlyCollection<double> values)
    {
        var median = MedianEstimate.Of(values);
        return new Estimate(median.Median, median.Low, median.High, values.Count);
    }

    /// <summary>
    /// The ratio of two medians with an interval that holds both medians' intervals at once: from the lowest over
    /// the highest to the highest over the lowest. Wider than an exact interval, so a rule that needs the ratio
    /// clear of a value errs towards "could not be judged".
    /// </summary>
    public static Estimate Ratio(Estimate over, Estimate under) =>
        under.Value <= 0 || under.Low <= 0
            ? throw new MissingEvidenceException("a ratio over a median of 0 says nothing")
            : new Estimate(over.Value / under.Value, over.Low / under.High, over.High / under.Low, Math.Min(over.Trials, under.Trials));

    /// <summary>The reciprocal, its interval turned round: a ratio of walls read as a ratio of rates.</summary>
    public Estimate Inverse => Value <= 0 || Low <= 0
        ? throw new MissingEvidenceException("a reciprocal of 0 says nothing")
        : new Estimate(1 / Value, 1 / High, 1 / Low, Trials);

    /// <summary>The same figure times <paramref name="factor"/>.</summary>
    public Estimate Times(double factor)
        => factor >= 0 ? new(Value * factor, Low * factor, High * factor, Trials) : new(Value * factor, High * factor, Low * factor, Trials);

    /// <summary>Whether the whole interval is above <paramref name="value"/>.</summary>
    public bool Above(double value) => Low > value;

    /// <summary>Whether the whole interval is below <paramref name="value"/>.</summary>
    public bool Below(double value) => High < value;
}
