using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Results;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// The runtime's account of the variants where the pool added threads because work waited, as a compact table for
/// the console: one row per process (the trial's, and the service it drove), a blank where a figure is zero.
/// results.md and report.html keep every variant's account in full.
/// </summary>
internal static class AccountTable
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The table, or null when no variant of <paramref name="scenario"/> is notable.</summary>
    public static IRenderable? For(ScenarioResult scenario, IReadOnlyList<VariantResult> ordered)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(ordered);
        var rows = new List<string[]>();
        foreach (var variant in ordered)
        {
            // Each account read once: stored, or added up from the trials of a file written before it was stored.
            if (Accounts.Of(variant) is not { } account || !Reporting.RuntimeAccountText.Notable(account))
            {
                continue;
            }

            rows.Add(Row(variant.Name, account.Process, account.WallMs));
            if (account.Service is { } service)
            {
                rows.Add(Row($"  in {account.ServiceName}", service, account.WallMs));
            }
        }

        if (rows.Count == 0)
        {
            return null;
        }

        var table = new Table().Border(TableBorder.Simple).Title("[grey]Why the threads: the runtime's account of the median trial[/]");

        // A column blank in every row is left out, so the table stays narrow and says only what happened.
        string[] headers = ["Variant", "Pool target", "+starved", "+blocking", "Climbing", "Blocked ms", "Join ms", "GC ms"];
        var shown = Enumerable.Range(0, headers.Length).Where(i => i <= 1 || rows.Any(r => r[i].Length > 0)).ToList();
        foreach (var i in shown)
        {
            table.AddColumn(i == 0 ? new TableColumn(headers[i]).NoWrap() : new TableColumn(headers[i]).RightAligned());
        }

        foreach (var row in rows)
        {
            table.AddRow(shown.Select(i => (IRenderable)new Text(row[i])).ToArray());
        }

        // The legend under the table, as a line of its own (a caption would widen the table to its length), for
        // the columns shown.
        var legend = new List<string>();
        if (shown.Contains(2))
        {
            legend.Add("+starved: raises of the pool's target because queued work waited with no thread free");
        }

        if (shown.Contains(3))
        {
            legend.Add("+blocking: raises because pool threads blocked on tasks");
        }

        if (shown.Contains(5))
        {
            legend.Add("blocked: the work's lock contentions and waits, summed over threads");
        }

        if (shown.Contains(6))
        {
            legend.Add("join: the caller's wait for its batch");
        }

        return legend.Count == 0 ? table : new Rows(table, new Text(string.Join("; ", legend) + ".", new Style(Color.Grey)));
    }

    // Pool target as start -> peak -> end (the peak only where it rose above both), raises of the target by reason
    // (and a rate where they came often), time blocked on locks and waits, GC pauses: a blank for each zero.
    private static string[] Row(string name, ProcessAccount a, double wallMs)
    {
        var target = (a.PoolTargetStart, a.PoolTargetPeak, a.PoolTargetEnd) switch
        {
            ({ } from, { } top, { } to) when a.PeakStandsOut => $"{from} -> {top} -> {to}",
            ({ } from, _, { } to) when from != to => $"{from} -> {to}",
            (_, _, { } to) => to.ToString(Invariant),
            _ => string.Empty,
        };
        var blocked = a.WorkBlockedMs ?? 0;
        return
        [
            name,
            target,
            Count(a.StarvationRaises)
                + (a.StarvationRaises > 0 && wallMs > 0 ? $" ({(a.StarvationRaises / (wallMs / 1000)).ToString("0.#", Invariant)}/s)" : string.Empty),
            Count(a.BlockingRaises),
            Count(a.HillClimbingMoves),
            blocked > 0 ? Ms(blocked) : string.Empty,
            a.Join is { TotalMs: > 0 } join ? Ms(join.TotalMs) : string.Empty,
            a.GcCollections > 0 && a.GcPauses is { } gc ? $"{Ms(gc.TotalMs)} ({a.GcCollections})" : string.Empty,
        ];
    }

    private static string Count(int n) => n == 0 ? string.Empty : n.ToString(Invariant);

    private static string Ms(double value) => Measurement.NumberText.Ms(value);
}
