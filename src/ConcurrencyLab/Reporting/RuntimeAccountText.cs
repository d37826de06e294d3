using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// The runtime's account of a variant (<see cref="AccountSummary"/>, its median trial's) in a sentence, so a reader
/// does not have to add up the events; written the same in every report.
/// </summary>
internal static class RuntimeAccountText
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>
    /// Whether the pool added threads because work waited, in the variant's median trial or in the service it
    /// drove: the accounts a console shows, since they explain the thread columns.
    /// </summary>
    public static bool Notable(VariantResult variant) => Accounts.Of(variant) is { } account && Notable(account);

    /// <summary>Whether <paramref name="account"/> shows the pool raising its target because work waited, in the trial or its service.</summary>
    public static bool Notable(AccountSummary account) =>
        new[] { account.Process, account.Service }.Any(a => a is { } p && (p.StarvationRaises > 0 || p.BlockingRaises > 0));

    /// <summary>The sentence for <paramref name="variant"/>, or null when none of its ok trials has an account.</summary>
    public static string? Describe(VariantResult variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        if (Accounts.Of(variant) is not { } account)
        {
            return null;
        }

        var sentence = $"{variant.Name} ({Ms(account.WallMs)} ms): {Parts(account.Process, account.WallMs)}";
        if (account.Service is { } service)
        {
            sentence += $"; in the {account.ServiceName} service, {Parts(service, account.WallMs)}";
        }

        return sentence + ".";
    }

    /// <summary>What one process's account says: the pool's decisions, time blocked, and the GC.</summary>
    internal static string Parts(ProcessAccount account, double wallMs)
    {
        ArgumentNullException.ThrowIfNull(account);
        var seconds = wallMs / 1000;
        var starvation = account.StarvationRaises;
        var (start, peak, end) = (account.PoolTargetStart, account.PoolTargetPeak, account.PoolTargetEnd);
        var parts = new List<string>();
        var pool = (start, peak, end) switch
        {
            ({ } from, { } top, { } to) when account.PeakStandsOut => $"the pool's thread target rose from {from} to {top} ({to} at the end)",
            ({ } from, _, { } to) when from != to => $"the pool's thread target went from {from} to {to}",
            _ => $"the pool's thread target stayed at {end?.ToString(Invariant) ?? "its start"}",
        };
        // Raises of the target, by reason, and hill climbing's moves: only those there were, so a calm pool's
        // sentence is its target alone.
        var rate = starvation > 0 && seconds > 0 ? $", about {(starvation / seconds).ToString(starvation / seconds >= 10 ? "0" : "0.#", Invariant)} a second" : string.Empty;
        var moves = new List<string>();
        if (starvation > 0)
        {
            moves.Add($"raised {Times(starvation)} for starvation{rate}");
        }

        if (account.BlockingRaises > 0)
        {
            moves.Add($"{(moves.Count == 0 ? "raised " : string.Empty)}{Times(account.BlockingRaises)} for blocking on tasks");
        }

        if (account.HillClimbingMoves > 0)
        {
            moves.Add(Count(account.HillClimbingMoves, "hill-climbing move"));
        }

        parts.Add(moves.Count == 0 ? pool : $"{pool}: {string.Join(", ", moves)}");
        if (account.LockContentions is { } locks && account.Waits is { } waits && locks.Count + waits.Count > 0)
        {
            var kinds = string.Join(", ", new[]
            {
                locks.Count > 0 ? $"{Count(locks.Count, "lock contention")} for {Ms(locks.TotalMs)} ms" : null,
                waits.Count > 0 ? $"{Count(waits.Count, "wait")} for {Ms(waits.TotalMs)} ms" : null,
            }.OfType<string>());
            parts.Add($"threads blocked {Ms(locks.TotalMs + waits.TotalMs)} ms in all ({kinds}, the longest {Ms(Math.Max(locks.LongestMs, waits.LongestMs))} ms)");
        }

        if (account.GcPauses is { } gc)
        {
            parts.Add(account.GcCollections == 0 ? "no garbage collection" : $"{Count(account.GcCollections, "garbage collection")}, {Ms(gc.TotalMs)} ms paused");
        }

        return string.Join("; ", parts);
    }

    /// <summary>Every variant's sentence, in the tables' order; empty when no variant has an account.</summary>
    public static IReadOnlyList<string> Describe(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        return [.. ResultColumn.Order(scenario).Select(Describe).OfType<string>()];
    }

    private static string Count(int n, string what) => $"{n} {what}{(n == 1 ? string.Empty : "s")}";

    private static string Times(int n) => n == 1 ? "once" : $"{n} times";

    private static string Ms(double value) => Measurement.Figures.Ms(value);
}
