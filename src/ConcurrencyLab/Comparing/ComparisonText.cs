using System.Globalization;

namespace ConcurrencyLab.Comparing;

/// <summary>How a comparison reads, in words and numbers, for the console table and Markdown alike.</summary>
internal static class ComparisonText
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The verdict as a reader says it.</summary>
    public static string Verdict(ComparisonRow row, double alpha)
    {
        ArgumentNullException.ThrowIfNull(row);
        return row.Verdict switch
        {
            ComparisonVerdict.Slower => "slower",
            ComparisonVerdict.Faster => "faster",
            ComparisonVerdict.Same => "no significant difference",
            ComparisonVerdict.TooFewTrials => $"too few trials to tell at {Percent(alpha)}",
            ComparisonVerdict.OnlyInOld => "only in the old run",
            ComparisonVerdict.NoOkTrials => "no ok trials in either run",
            _ => "only in the new run",
        };
    }

    /// <summary>A median in milliseconds, or a dash.</summary>
    public static string Ms(double? value) => value is { } v ? v.ToString(v >= 100 ? "N0" : "0.0#", Invariant) : "-";

    /// <summary>New over old, as 1.23x, or a dash.</summary>
    public static string Ratio(double? value) => value is { } v ? v.ToString("0.00", Invariant) + "x" : "-";

    /// <summary>A p-value, or a dash when the test was not made.</summary>
    public static string P(double? value) => value is { } v ? (v < 0.001 ? "<0.001" : v.ToString("0.000", Invariant)) : "-";

    /// <summary>The line under the table saying how to read it.</summary>
    public static string Method(RunComparison comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        return $"Ratio is the new median wall time over the old. A difference is significant when a two-sided Mann-Whitney U test on the ok " +
            $"trials' wall times gives p < {comparison.Alpha.ToString("0.###", Invariant)}; with fewer than 4 and 4 trials (or 3 and 5) no " +
            $"outcome can be.";
    }

    /// <summary>Writes the comparison as a GitHub-flavoured Markdown table with its notes.</summary>
    public static void WriteMarkdown(RunComparison comparison, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteLine("| Scenario | Variant | Old median (ms) | New median (ms) | Ratio | p | Trials (old, new) | Verdict |");
        writer.WriteLine("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |");
        foreach (var row in comparison.Rows)
        {
            var verdict = Verdict(row, comparison.Alpha);
            writer.WriteLine($"| {Cell(row.Scenario)} | `{Cell(row.Variant)}` | {Ms(row.OldMedianMs)} | {Ms(row.NewMedianMs)} | " +
                $"{Ratio(row.Ratio)} | {P(row.PValue)} | {row.OldTrials}, {row.NewTrials} | " +
                $"{(row.Verdict is ComparisonVerdict.Slower or ComparisonVerdict.Faster ? $"**{verdict}**" : verdict)} |");
        }

        writer.WriteLine();
        writer.WriteLine(Method(comparison));
        foreach (var note in comparison.Notes)
        {
            writer.WriteLine();
            writer.WriteLine("Note: " + note);
        }
    }

    private static string Cell(string text) => text.Replace("|", "\\|", StringComparison.Ordinal);

    private static string Percent(double alpha) => (alpha * 100).ToString("0.###", Invariant) + "%";
}
