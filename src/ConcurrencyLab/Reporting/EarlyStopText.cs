using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>A variant that stopped before the run's most trials, in words, for the live display and every report alike.</summary>
internal static class EarlyStopText
{
    /// <summary>
    /// <c>waitall@15 stopped after 3 of 5 trials, out of contention: 812-905 ms, above 2x the high end of channel's
    /// interval (120 ms)</c>, or <c>... tight: 54.1-55.0 ms, within 2% of its median (54.6 ms)</c>.
    /// </summary>
    public static Statement Describe(string variant, EarlyStop stop, Tone tone = Tone.Note)
    {
        ArgumentNullException.ThrowIfNull(stop);
        var head = Statement.Of($"{Piece.Variant(variant)} stopped after {Piece.Count(stop.Trials)} of {Piece.Count(stop.Planned)} trials");
        var interval = Statement.Of($"{Piece.Ms(stop.CiLowMs)}-{Piece.Ms(stop.CiHighMs)} ms");
        var why = stop.Reason switch
        {
            EarlyStopReason.OutOfContention when stop.Fastest is { } fastest && stop.FastestCiHighMs is { } high =>
                Statement.Of($", out of contention: {interval}, above " +
                    $"{Piece.Fixed(stop.Ratio ?? Running.EarlyStopping.OutOfContentionRatio, "0.#")}x the high end of " +
                    $"{Piece.Variant(fastest)}'s interval ({Piece.Ms(high)} ms)"),
            EarlyStopReason.OutOfContention => Statement.Of($", out of contention: {interval}"),
            _
                => Statement.Of($", its interval tight: {interval}, within {Piece.Fixed(Running.EarlyStopping.TightShare * 100, "0.#")}% of " +
                    $"its median ({Piece.Ms(stop.MedianMs)} ms) either side"),
        };
        return Statement.Join(string.Empty, [head, why]) with { Tone = tone };
    }
}
