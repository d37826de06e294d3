using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>
/// The decisions every claim's rule is made of, each three-way and each the same in every rule: a verdict only when
/// the whole 95% interval lies on one side of what the claim says, "could not be judged" when the interval reaches
/// across it. So a verdict can move only when the whole interval moves past the line, never because of a few
/// trials' noise; and a claim can fail as well as hold.
/// </summary>
internal static class Decide
{
    /// <summary>The fewest ok trials an interval is taken from; fewer, and the figure could be anywhere.</summary>
    public const int MinimumTrials = 3;

    /// <summary>
    /// A claim that a figure is about a published value: holds when the whole interval lies within
    /// <paramref name="band"/>; does not hold when it lies wholly outside, saying which way it misses (in the published
    /// direction but smaller or larger, or not in it at all); could not be judged when it reaches across an edge.
    /// </summary>
    public static Judgement About(Quantity quantity, Estimate figure, double published, Band band, string text, string why)
    {
        ArgumentNullException.ThrowIfNull(quantity);
        var numbers = quantity.Figure(figure, published, band.Low, band.High);
        if (TooFew(figure, text) is { } few)
        {
            return few.With(numbers);
        }

        if (figure.Low >= band.Low && figure.High <= band.High)
        {
            return Judgement.Holds(text, why).With(numbers);
        }

        if (figure.High < band.Low || figure.Low > band.High)
        {
            return Judgement.DoesNotHold(text, Miss(quantity, figure, published, band)).With(numbers);
        }

        var edge = figure.Low < band.Low ? band.Low : band.High;
        return Judgement.CouldNotJudge(
            text, $"the interval ({quantity.Write(figure.Low)}-{quantity.Write(figure.High)}) reaches across the band's edge at " +
                $"{quantity.Write(edge)}: too wide to tell").With(numbers);
    }

    /// <summary>
    /// A claim that a figure is above <paramref name="threshold"/>: holds when the whole interval is above it, does not
    /// hold when the whole interval is at or below it, could not be judged when it reaches across.
    /// </summary>
    public static Judgement Above(Quantity quantity, Estimate figure, double threshold, double? published, string text, string holds, string not)
    {
        ArgumentNullException.ThrowIfNull(quantity);
        var numbers = quantity.Figure(figure, published, threshold, null);
        return TooFew(figure, text) is { } few ? few.With(numbers)
            : figure.Low > threshold ? Judgement.Holds(text, holds).With(numbers)
            : figure.High <= threshold ? Judgement.DoesNotHold(text, not).With(numbers)
            : Judgement.CouldNotJudge(
                text, $"the interval ({quantity.Write(figure.Low)}-{quantity.Write(figure.High)}) reaches across " +
                    $"{quantity.Write(threshold)}: too wide to tell").With(numbers);
    }

    /// <summary>A claim that a figure is below <paramref name="threshold"/>: the mirror of <see cref="Above"/>.</summary>
    public static Judgement Below(Quantity quantity, Estimate figure, double threshold, double? published, string text, string holds, string not)
    {
        ArgumentNullException.ThrowIfNull(quantity);
        var numbers = quantity.Figure(figure, published, null, threshold);
        return TooFew(figure, text) is { } few ? few.With(numbers)
            : figure.High < threshold ? Judgement.Holds(text, holds).With(numbers)
            : figure.Low >= threshold ? Judgement.DoesNotHold(text, not).With(numbers)
            : Judgement.CouldNotJudge(
                text, $"the interval ({quantity.Write(figure.Low)}-{quantity.Write(figure.High)}) reaches across " +
                    $"{quantity.Write(threshold)}: too wide to tell").With(numbers);
    }

    /// <summary>
    /// A claim made of parts that must all hold (the 12x against both degree-4 cases): any part that does not hold
    /// makes it not hold; every part holding makes it hold; otherwise it could not be judged.
    /// </summary>
    public static Judgement All(IReadOnlyList<(string Part, Judgement Judgement)> parts, string? why = null)
    {
        ArgumentNullException.ThrowIfNull(parts);
        ArgumentOutOfRangeException.ThrowIfZero(parts.Count);
        var figure = Join(parts);
        var figures = Figures(parts);
        var failed = parts.Where(p => p.Judgement.Verdict == Verdict.DoesNotHold).ToList();
        if (failed.Count > 0)
        {
            return Judgement.DoesNotHold(figure, string.Join("; ", failed.Select(p => $"{p.Part}: {p.Judgement.Reason}"))) with { Figures = figures };
        }

        var open = parts.Where(p => p.Judgement.Verdict != Verdict.Holds).ToList();
        return open.Count == 0
            ? Judgement.Holds(figure, why ?? string.Join("; ", parts.Select(p => p.Judgement.Reason).Distinct())) with { Figures = figures }
            : Judgement.CouldNotJudge(figure, string.Join("; ", open.Select(p => $"{p.Part}: {p.Judgement.Reason}"))) with { Figures = figures };
    }

    /// <summary>
    /// A claim about several cases that may hold for some only (a form, a variant): every part must be decided, or
    /// it could not be judged; then it holds, does not, or holds only for the parts named by <paramref name="condition"/>.
    /// </summary>
    public static Judgement Each(
        IReadOnlyList<(string Part, Judgement Judgement)> parts,
        Func<IReadOnlyList<string>, string> condition,
        string? why = null)
    {
        ArgumentNullException.ThrowIfNull(parts);
        ArgumentNullException.ThrowIfNull(condition);
        ArgumentOutOfRangeException.ThrowIfZero(parts.Count);
        var figure = Join(parts);
        var figures = Figures(parts);
        var open = parts.Where(p => !p.Judgement.Judged).ToList();
        if (open.Count > 0)
        {
            return Judgement.CouldNotJudge(figure, string.Join("; ", open.Select(p => $"{p.Part}: {p.Judgement.Reason}"))) with { Figures = figures };
        }

        var held = parts.Where(p => p.Judgement.Verdict == Verdict.Holds).Select(p => p.Part).ToList();
        var reason = why ?? string.Join("; ", parts.Select(p => $"{p.Part}: {p.Judgement.Reason}"));
        return held.Count == parts.Count
            ? Judgement.Holds(figure, why ?? string.Join("; ", parts.Select(p => p.Judgement.Reason).Distinct())) with { Figures = figures }
            : held.Count == 0 ? Judgement.DoesNotHold(figure, reason) with { Figures = figures }
            : Judgement.OnlyIf(condition(held), figure, reason) with { Figures = figures };
    }

    /// <summary>
    /// A claim the post makes of many cases as a whole ("the more cores, the less time") where its own figures show it
    /// in <paramref name="most"/> of them: holds once that many parts hold, does not hold once too few can (those that
    /// did not hold, and those that could not be judged, could not make up the count), and could not be judged between.
    /// One case alone never makes it hold.
    /// </summary>
    public static Judgement Most(IReadOnlyList<(string Part, Judgement Judgement)> parts, int most, string? why = null)
    {
        ArgumentNullException.ThrowIfNull(parts);
        ArgumentOutOfRangeException.ThrowIfLessThan(most, 2);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(most, parts.Count);
        var figure = Join(parts);
        var figures = Figures(parts);
        // A part that holds only under a condition is not one that holds, nor one still open.
        var held = parts.Where(p => p.Judgement.Verdict == Verdict.Holds).Select(p => p.Part).ToList();
        var open = parts.Count(p => !p.Judgement.Judged);
        var count = $"{held.Count} of {parts.Count} held ({(held.Count == 0 ? "none" : string.Join(", ", held))}), where the claim needs {most}";
        return held.Count >= most ? Judgement.Holds(figure, why is null ? count : $"{why}: {count}") with { Figures = figures }
            : held.Count + open < most
                ? Judgement.DoesNotHold(figure, $"{count}; " + string.Join("; ", parts.Where(p => p.Judgement.Verdict != Verdict.Holds)
                    .Select(p => $"{p.Part}: {p.Judgement.Reason}"))) with { Figures = figures }
                : Judgement.CouldNotJudge(figure, $"{count}, and {open} could not be judged: " + string.Join(
                    "; ", parts.Where(p => !p.Judgement.Judged).Select(p => $"{p.Part}: {p.Judgement.Reason}"))) with { Figures = figures };
    }

    // Fewer trials than an interval needs: no verdict, whatever the figure.
    private static Judgement? TooFew(Estimate figure, string text) => figure.Trials < MinimumTrials
        ? Judgement.CouldNotJudge(
            text, $"{figure.Trials} ok trial{(figure.Trials == 1 ? string.Empty : "s")}: an interval needs at least {MinimumTrials}")
        : null;

    // Which way a figure wholly outside its band misses it.
    private static string Miss(Quantity quantity, Estimate figure, double published, Band band)
    {
        if (quantity.Unit == "x" && (band.Low > 1 || band.High < 1))
        {
            // The published effect is a move away from 1 (12x faster, half the threads): the same move here, smaller
            // or larger, or none at all.
            var sameWay = published > 1 ? figure.Low > 1 : figure.High < 1;
            if (!sameWay)
            {
                return $"the published effect is not there: {quantity.Write(figure.Value)} against the published {quantity.Write(published)}";
            }

            var multiple = Fold(figure.Value) / Fold(published);
            return $"holds in direction, but at {Multiple(multiple)}x the published effect ({quantity.Write(figure.Value)} against " +
                $"{quantity.Write(published)}; the band is {quantity.Write(band.Low)}-{quantity.Write(band.High)})";
        }

        // A figure about a value (a time, a count, a ratio of about 1): how far from it, and which way.
        var off = published == 0 ? 0 : Math.Abs(figure.Value - published) / published;
        var way = figure.Value < published ? "below" : "above";
        return $"{quantity.Write(figure.Value)} is {Percent(off)} {way} the published {quantity.Write(published)}, outside the band of " +
            $"{quantity.Write(band.Low)}-{quantity.Write(band.High)}";
    }

    // How far a ratio is from 1, as a multiple either way: 0.5 and 2 are both 2.
    private static double Fold(double ratio) => ratio >= 1 ? ratio : 1 / ratio;

    private static string Join(IReadOnlyList<(string Part, Judgement Judgement)> parts) =>
        string.Join("; ", parts.Select(p => $"{p.Part}: {p.Judgement.Figure}"));

    private static List<ClaimFigure> Figures(IReadOnlyList<(string Part, Judgement Judgement)> parts) =>
        [.. parts.SelectMany(p => p.Judgement.Figures.Select(f => f with { At = f.At is null ? p.Part : $"{p.Part}, {f.At}" }))];

    private static string Percent(double share) => share.ToString("0%", CultureInfo.InvariantCulture);

    private static string Multiple(double value) => value.ToString(value >= 10 ? "0" : "0.0", CultureInfo.InvariantCulture);
}

/// <summary>The band an "about" claim holds within, in the figure's own unit.</summary>
/// <param name="Low">Its lower end.</param>
/// <param name="High">Its upper end.</param>
internal readonly record struct Band(double Low, double High)
{
    /// <summary>From <paramref name="below"/> to <paramref name="above"/> times the published value.</summary>
    public static Band Around(double published, double below, double above) => new(published * below, published * above);

    /// <summary>No change, within a factor of <paramref name="factor"/> either way (1.1: from 1/1.1 to 1.1).</summary>
    public static Band NoChange(double factor) => new(1 / factor, factor);

    /// <summary>
    /// Half of a published effect away from no effect at all, the edge an ordering the post gave a size for is held
    /// to: 2.63x slower gives 1.81x, 0.857x as many threads gives 0.929x.
    /// </summary>
    public static double HalfTheEffect(double published) => 1 + ((published - 1) / 2);
}

/// <summary>What a figure measures and how it is written: a ratio ("12x"), a count ("54 threads"), a time.</summary>
/// <param name="What">In a few words: "parallel-for@4 over channel, median wall time".</param>
/// <param name="Unit">The unit: <c>x</c>, <c>ms</c>, <c>s</c>, <c>%</c>, <c>threads</c>, <c>files/s</c>.</param>
internal sealed record Quantity(string What, string Unit)
{
    /// <summary>A ratio of two medians.</summary>
    public static Quantity Ratio(string what) => new(what, "x");

    /// <summary>A value as this quantity writes it.</summary>
    public string Write(double value) => Unit switch
    {
        "x" => ClaimEvidence.Multiple(value) + "x",
        "ms" => ClaimEvidence.Time(value),
        "s" => value.ToString("0.0", CultureInfo.InvariantCulture) + " s",
        "%" => value.ToString("0.#", CultureInfo.InvariantCulture) + "%",
        _ => $"{ClaimEvidence.Count(value)} {Unit}",
    };

    /// <summary>The figure as results record it.</summary>
    public ClaimFigure Figure(Estimate figure, double? published, double? lowest, double? highest) => new()
    {
        Quantity = What,
        Unit = Unit,
        Value = Round(figure.Value),
        Low = Round(figure.Low),
        High = Round(figure.High),
        Trials = figure.Trials,
        Published = published,
        Lowest = lowest is { } l ? Round(l) : null,
        Highest = highest is { } h ? Round(h) : null,
    };

    // Four significant digits: what a figure is read to, and JSON that does not wrap; a figure below 1e-12 keeps 15 decimals,
    // the most Math.Round takes.
    private static double Round(double value) => value == 0 || double.IsNaN(value) || double.IsInfinity(value)
        ? (double.IsFinite(value) ? value : 0)
        : Math.Round(value, Math.Clamp(3 - (int)Math.Floor(Math.Log10(Math.Abs(value))), 0, 15));
}
