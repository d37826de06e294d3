using ConcurrencyLab.Reproduction;
using Spectre.Console;

namespace ConcurrencyLab.Cli.Rendering;

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
                var colour = row.Judgement.Verdict switch
                {
                    Verdict.Holds => "green",
                    Verdict.DoesNotHold => "red",
                    Verdict.HoldsOnlyIf => "yellow",
                    _ => "grey",
                };
                console.MarkupLineInterpolated($"  [{colour}]{row.Judgement.VerdictText}[/]: {row.Claim} [grey]({row.RunKind})[/]");
                console.MarkupLineInterpolated($"      published: {row.Published}");
                console.MarkupLineInterpolated($"      here: {row.Judgement.Figure}");
                console.MarkupLineInterpolated($"      why: {row.Judgement.Reason}");
            }
        }

        console.WriteLine();
        console.MarkupLineInterpolated($"{ReproductionReport.Tally(result)}");
        console.MarkupLineInterpolated($"[grey]{ReproductionReport.Machine(result)}[/]");
    }
}
