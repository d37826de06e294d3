using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>A <see cref="GrowthResult"/> in words, the same in every report: a lead, then a line per line of variants.</summary>
internal static class GrowthText
{
    /// <summary>"How the time grew with items, from 100 to 10,000 (the ideal as items^0.00):".</summary>
    public static Statement Lead(GrowthResult growth)
    {
        ArgumentNullException.ThrowIfNull(growth);
        var ideal = growth.IdealExponent is { } e ? Statement.Of($" (the ideal as {Power(growth.Parameter, e)})")
            : Statement.Plain(" (no ideal at every size)");
        return Statement.Of($"How the time grew with {Piece.Code(growth.Parameter)}, from {Piece.Count(growth.Sizes[0])} to " +
            $"{Piece.Count(growth.Sizes[^1])}{ideal}, each line fitted to its ok trials on log-log axes:");
    }

    /// <summary>A line for each line of variants: its exponent and interval, its first and last median, and where it stopped keeping up.</summary>
    public static IReadOnlyList<Statement> Lines(GrowthResult growth)
    {
        ArgumentNullException.ThrowIfNull(growth);
        return [.. growth.Lines.Select(line => Line(growth, line))];
    }

    private static Statement Line(GrowthResult growth, LineGrowth line)
    {
        if (line.Exponent is not { } exponent)
        {
            return Statement.Of($"{Piece.Variant(line.Line)}: fewer than two sizes had an ok trial, so no growth.");
        }

        var interval = line.ExponentLow is { } low && line.ExponentHigh is { } high
            ? Statement.Of($" ({Piece.Fixed(low, "0.00")} to {Piece.Fixed(high, "0.00")})")
            : Statement.Plain(" (no interval: fewer than three ok trials)");
        var measured = growth.Sizes.Select((size, i) => (size, Ms: i < line.MediansMs.Count ? line.MediansMs[i] : null)).Where(p => p.Ms is not null)
            .ToList();
        var span = measured.Count >= 2
            ? Statement.Of($"; {Piece.Ms(measured[0].Ms!.Value)} ms at {Piece.Count(measured[0].size)}, " +
                $"{Piece.Ms(measured[^1].Ms!.Value)} ms at {Piece.Count(measured[^1].size)}")
            : Statement.Plain(string.Empty);
        var keeps = line.StopsKeepingUpAt is { } at
            ? Statement.Of($"; from {Piece.Count(at)} on, its time grew faster than the ideal's")
            : Statement.Plain("; its time grew no faster than the ideal's");
        return Statement.Of($"{Piece.Variant(line.Line)}: as {Power(growth.Parameter, exponent)}{interval}{span}{keeps}.");
    }

    private static Statement Power(string parameter, double exponent) => Statement.Of($"{parameter}^{Piece.Fixed(exponent, "0.00")}");
}
