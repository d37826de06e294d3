using System.Globalization;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// How the lab writes a number, one rule per kind, for every table, sentence and verdict alike: a figure read in
/// the console, results.md, report.html and reproduction.md is written the same everywhere.
/// </summary>
internal static class NumberText
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>Milliseconds, without the unit: none below the point from 100, one from 10, two below: "714", "52.6", "5.30".</summary>
    public static string Ms(double value) => Math.Abs(value) switch
    {
        >= 100 => value.ToString("0", Invariant),
        >= 10 => value.ToString("0.0", Invariant),
        _ => value.ToString("0.00", Invariant),
    };

    /// <summary>A time with its unit: seconds from 10 s ("10.3 s"), milliseconds below ("714 ms", "52.6 ms").</summary>
    public static string Time(double ms) => Math.Abs(ms) >= 10_000 ? Seconds(ms) + " s" : Ms(ms) + " ms";

    /// <summary>An interval's end in the unit <see cref="Time"/> writes <paramref name="median"/> in, without the unit.</summary>
    public static string TimeLike(double ms, double median) => Math.Abs(median) >= 10_000 ? Seconds(ms) : Ms(ms);

    /// <summary>A count: a tenth where it has one, none from 100: "40.5", "61", "1024".</summary>
    public static string Count(double value) => value.ToString(Math.Abs(value) >= 100 ? "0" : "0.#", Invariant);

    /// <summary>Items at once on average: one decimal below 10, none from 10: "3.9", "54".</summary>
    public static string AtOnce(double value) => value.ToString(value >= 10 ? "0" : "0.0", Invariant);

    /// <summary>A multiple: two decimals below 1, one below 10, none from 10: "0.04", "2.5", "62".</summary>
    public static string Multiple(double value) => value.ToString(value >= 10 ? "0" : value >= 1 ? "0.0" : "0.00", Invariant);

    /// <summary>A rate per second with thousands apart: "9,529".</summary>
    public static string Rate(double perSecond) => perSecond.ToString("#,0", Invariant);

    private static string Seconds(double ms) => (ms / 1000).ToString("0.0", Invariant);
}
