using System.Globalization;
using System.Net;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// <c>report.html</c>: one self-contained page (no script, no font, no network) that opens with a summary
/// (the best variant per scenario, its efficiency, the environment), then per scenario its charts (median
/// wall time with confidence intervals and the ideal; median wall time against a swept degree, worker count
/// or N; OS and pool threads over time) and its full table.
/// It follows the reader's light or dark setting.
/// </summary>
internal sealed class HtmlExporter : IExporter
{
    /// <summary>The exporter: one self-contained page, charts inline, no script.</summary>
    public static HtmlExporter Default { get; } = new();

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary><c>report.html</c>.</summary>
    public string FileName => "report.html";

    /// <summary>Writes <paramref name="run"/> as one HTML page to <paramref name="writer"/>.</summary>
    public void Export(RunResult run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteLine("<!DOCTYPE html>");
        writer.WriteLine("<html lang=\"en\"><head><meta charset=\"utf-8\">");
        writer.WriteLine("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        writer.WriteLine($"<title>ConcurrencyLab: {Encode(string.Join(", ", run.Scenarios.Select(s => s.Name)))}</title>");
        writer.WriteLine($"<style>{Style}</style></head><body>");
        writer.WriteLine("<h1>ConcurrencyLab results</h1>");
        writer.WriteLine($"<p class=\"environment\">{Encode(RunDescription.Machine(run))}<br>");
        writer.WriteLine(Encode(RunDescription.Method(run)) + "</p>");

        // A summary of batches' best variants; a load run's report is its own section.
        if (run.Scenarios.Any(s => s.Load is null))
        {
            writer.WriteLine(
                "<section id=\"summary\"><h2>Summary</h2><table class=\"summary\"><thead><tr><th>Scenario</th><th>Best " +
                    "variant</th><th>Median (ms)</th><th>Efficiency</th><th>Ideal (ms)</th><th>Use</th><th>Variants ok</th><th>Published " +
                    "claims</th></tr></thead><tbody>");
            foreach (var scenario in run.Scenarios.Where(s => s.Load is null))
            {
                var best = ResultColumn.Best(scenario);
                var ok = scenario.Variants.Count(v => v.Status == TrialStatus.Ok);
                var summary = RunSummary.Of(scenario, run.Environment.ProcessorCount);
                writer.WriteLine($"<tr><td><a href=\"#{Anchor(scenario)}\">{Encode(scenario.Name)}</a></td><td>{Encode(best?.Name ?? "none " +
                    "succeeded")}</td><td class=\"n\">{Ms(best?.Summary?.MedianWallMs)}</td><td " +
                    $"class=\"n\">{Efficiency(best?.Summary?.ShownEfficiency)}</td><td " +
                    $"class=\"n\">{Ms(scenario.IdealMs > 0 ? scenario.IdealMs : null)}</td><td>{Encode(summary.Use)}</td><td " +
                    $"class=\"n\">{ok}/{scenario.Variants.Count}</td><td>{Encode(summary.Claims)}</td></tr>");
            }

            writer.WriteLine("</tbody></table></section>");
        }

        foreach (var scenario in run.Scenarios)
        {
            WriteScenario(scenario, run.Environment.ProcessorCount, writer);
        }

        writer.WriteLine("</body></html>");
    }

    private static void WriteScenario(ScenarioResult scenario, int processorCount, TextWriter writer)
    {
        writer.WriteLine($"<section class=\"scenario\" id=\"{Anchor(scenario)}\"><h2>{Encode(scenario.Name)}</h2>");
        foreach (var block in ScenarioReport.Of(scenario, processorCount).Where(b => b.Audience != Audience.Brief))
        {
            switch (block)
            {
                case Passage paragraph:
                    writer.WriteLine("<p>" + string.Join("<br>" + writer.NewLine, paragraph.Lines.Select(Line)) + "</p>");
                    break;
                case BulletList list:
                    if (list.Lead is { } lead)
                    {
                        writer.WriteLine($"<p>{Write(lead)}</p>");
                    }

                    writer.WriteLine($"<ul class=\"{Encode(list.Kind)}\">");
                    foreach (var item in list.Items)
                    {
                        writer.WriteLine($"<li{ToneClass(item.Tone)}>{Write(item)}</li>");
                    }

                    writer.WriteLine("</ul>");
                    break;
                case ChartSet charts:
                    foreach (var chart in Chart.For(charts.Scenario))
                    {
                        writer.WriteLine($"<figure>{SvgCharts.Draw(chart)}</figure>");
                    }

                    break;
                case TextTable grid:
                    writer.WriteLine($"<div class=\"table\"><table class=\"{Encode(grid.Kind)}\"><thead><tr>" + string.Concat(
                        grid.Headers.Select(h => $"<th>{Encode(h)}</th>")) + "</tr></thead><tbody>");
                    foreach (var row in grid.Rows)
                    {
                        writer.WriteLine("<tr>"
                            + string.Concat(
                                row.Select(
                                    (cell, i) => $"<td{(i < grid.Numeric.Count && grid.Numeric[i] ? " class=\"n\"" : string.Empty)}>{Encode(cell)}</td>")) + "</tr>");
                    }

                    writer.WriteLine("</tbody></table></div>");
                    break;
                case VariantTable table:
                    var columns = ResultColumn.For(scenario);
                    writer.WriteLine("<div class=\"table\"><table class=\"results\"><thead><tr>"
                        + string.Concat(columns.Select(c => $"<th>{Encode(c.HeaderWithUnit)}</th>")) + "</tr></thead><tbody>");
                    foreach (var variant in ResultColumn.Order(table.Scenario))
                    {
                        writer.WriteLine("<tr>"
                            + string.Concat(
                                columns.Select(
                                    (c, i) => $"<td{(i == 0 || c.Id == "status" ? string.Empty : " class=\"n\"")}>{Encode(c.Format(scenario, variant))}</td>")) + "</tr>");
                    }

                    writer.WriteLine("</tbody></table></div>");
                    break;
            }
        }

        writer.WriteLine("</section>");
    }

    // A line of a paragraph: the fastest's name stands out.
    private static string Line(Statement statement) => statement.Tone == Tone.Fastest
        ? string.Concat(statement.Inlines.Select(i => i is VariantName name ? $"<strong>{Write(name)}</strong>" : Write(i)))
        : Write(statement);

    /// <summary>A statement in HTML: names and code as code, figures marked as numbers, every piece encoded.</summary>
    internal static string Write(Statement statement) => string.Concat(statement.Inlines.Select(Write));

    private static string Write(Inline inline) => inline switch
    {
        VariantName or Code => $"<code>{Encode(inline.Text)}</code>",
        Number => $"<span class=\"num\">{Encode(inline.Text)}</span>",
        _ => Encode(inline.Text),
    };

    private static string ToneClass(Tone tone) => tone switch
    {
        Tone.Use => " class=\"use\"",
        Tone.Avoid => " class=\"avoid\"",
        Tone.Holds => " class=\"holds\"",
        Tone.DoesNotHold => " class=\"not\"",
        Tone.Unjudged => " class=\"unjudged\"",
        Tone.NotTested => " class=\"untested\"",
        Tone.Failure => " class=\"failure\"",
        _ => string.Empty,
    };

    private static string Anchor(ScenarioResult scenario) => "scenario-" + Encode(scenario.Name);

    private static string Ms(double? value) => value is { } ms ? Measurement.NumberText.Ms(ms) : "-";

    private static string Efficiency(double? value) => value is { } v ? v.ToString("0.00", Invariant) : "-";

    private static string Encode(string text) => WebUtility.HtmlEncode(text);

    // The page's colours as variables, swapped for a dark reader; the charts' rules come from the palette in both tones.
    internal static readonly string Style =
        $":root{{--fg:{ChartPalette.Foreground.Light};--muted:{ChartPalette.Muted.Light};--bg:{ChartPalette.LightBackground};--line:#d0d7de;--link:{ChartPalette.Bar.Light}}}"
        + "body{font:15px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:2rem auto;max-width:1100px;padding:0 1rem}"
        + "table{border-collapse:collapse;font-size:13px}th,td{border-bottom:1px solid var(--line);padding:3px " +
            "8px;text-align:left;white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}"
        + "a{color:var(--link)}.table{overflow-x:auto}.environment,.notes,li.untested,li.unjudged{color:var(--muted)}.num{font-variant-numeric:tabular-nums}figure{margin:1rem 0}"
        + "svg.chart{max-width:100%;height:auto;font:12px system-ui,sans-serif}"
        + ChartPalette.Css(t => t.Light, "svg ")
        + $"@media (prefers-color-scheme:dark){{:root{{--fg:{ChartPalette.Foreground.Dark};--muted:{ChartPalette.Muted.Dark};--bg:{ChartPalette.DarkBackground};--line:#30363d;--link:{ChartPalette.Bar.Dark}}}{ChartPalette.Css(t => t.Dark, "svg ")}}}";
}
