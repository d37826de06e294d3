using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Results;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// A reproduction on the console: per post, each claim on each run as a short block (verdict and claim, then
/// the published figure, the figure here and why, each on its own line), so it reads at any terminal width.
/// </summary>
internal static class ReproductionRenderer
{
    public static void Write(IAnsiConsole console, ReproductionResult result)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(result);
        foreach (var post in result.Claims.GroupBy(c => c.Post))
        {
            console.WriteLine();
            console.MarkupLineInterpolated($"[bold]{post.Key}[/]");
            foreach (var row in post)
            {
                var colour = row.Result.Verdict switch
                {
                    Verdict.Holds => "green",
                    Verdict.DoesNotHold => "red",
                    Verdict.HoldsOnly => "yellow",
                    _ => "grey",
                };
                console.MarkupLineInterpolated($"  [{colour}]{row.Result.VerdictText}[/]: {row.Result.Claim} [grey]({row.RunKind})[/]");
                if (row.Result.Verdict == Verdict.NotTested)
                {
                    // Not a verdict: no figure to show, only what the claim needs.
                    console.MarkupLineInterpolated($"      [grey]{row.Result.Reason}[/]");
                    continue;
                }

                console.MarkupLineInterpolated($"      {ClaimResult.From(row.Result.Source)}: {row.Result.Published}");
                if (row.Result.Figure is not ("" or "-"))
                {
                    console.MarkupLineInterpolated($"      here: {row.Result.Figure}");
                }

                console.MarkupLineInterpolated($"      why: {row.Result.Reason}");
            }
        }

        console.WriteLine();
        console.MarkupLineInterpolated($"{ReproductionReport.Tally(result)}");
        console.MarkupLineInterpolated($"[grey]{ReproductionReport.Machine(result)}[/]");
    }
}
