using System.Text;
using ConcurrencyLab.Experiments;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Docs;

/// <summary>
/// docs/reproduction.md states every claim's conditions, rule and band: its table is made from the claims themselves
/// and checked here, so the page cannot say one thing while the lab judges by another.
/// </summary>
public sealed class ReproductionPageTests
{
    [Fact]
    public void TheClaimsTable_IsTheClaims()
    {
        var page = File.ReadAllText(Path.Combine(WorkloadsPageTests.Root(), "docs", "reproduction.md")).ReplaceLineEndings("\n");
        var table = Table();

        Assert.True(page.Contains(table, StringComparison.Ordinal), $"docs/reproduction.md should hold this table, made from the claims themselves:\n\n{table}");
    }

    internal static string Table()
    {
        var text = new StringBuilder();
        text.Append("| post | claim | published (from) | tested when | holds when | checked against the post |\n");
        text.Append("| --- | --- | --- | --- | --- | --- |\n");
        foreach (var scenario in ConcurrencyLab.Reproduction.Reproducer.Posts(ScenarioCatalog.BuiltIn))
        {
            foreach (var claim in PostClaims.Of(scenario)!.Claims)
            {
                var from = claim.Source switch
                {
                    FigureSource.Image => "an image",
                    FigureSource.Code => "the code",
                    FigureSource.LabReading => "the lab's reading",
                    _ => "the text",
                };
                text.Append($"| {scenario.Name} | `{claim.Id}`: {Cell(claim.Text)} | {Cell(claim.Published)} ({from}) | {Cell(claim.Needs())} | {Cell(claim.Rule)} | {Cell(claim.Checked)} |\n");
            }
        }

        return text.ToString();
    }

    private static string Cell(string text) => text.Replace("|", "\\|", StringComparison.Ordinal);
}
