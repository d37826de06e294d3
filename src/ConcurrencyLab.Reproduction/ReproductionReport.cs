using System.Globalization;
using System.Net;
using System.Text.Json;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Reproduction;

/// <summary>
/// What a reproduction writes beside its runs' folders: <c>reproduction.md</c> (the table), <c>reproduction.json</c>
/// (the same, for tools) and <c>report.html</c> (the table, with a link to each run's own report).
/// </summary>
internal static class ReproductionReport
{
    /// <summary>The file that holds a reproduction's verdicts for tools, and says a folder already holds one.</summary>
    public const string JsonFileName = "reproduction.json";

    /// <summary>The largest <see cref="JsonFileName"/> read back (<c>--from</c>): far more than any reproduction writes.</summary>
    public const long MaxJsonBytes = 64L << 20;

    /// <summary>Writes the three files into <paramref name="folder"/>; returns what could not be written, one line each.</summary>
    public static IReadOnlyList<string> WriteAll(ReproductionResult result, string folder, out IReadOnlyList<string> written)
    {
        ArgumentNullException.ThrowIfNull(result);
        var files = new List<string>();
        var failures = new List<string>();
        foreach (var (name, write) in new (string, Action<ReproductionResult, TextWriter, string>)[] { ("reproduction.md", Markdown),
            (JsonFileName, Json), ("report.html", Html) })
        {
            var path = Path.Combine(folder, name);
            try
            {
                // As the run's reports are written: never half a file, never a link or a device replaced.
                Exporters.WriteText(path, writer => write(result, writer, folder));
                files.Add(path);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
            {
                failures.Add($"{path}: {ex.Message}");
            }
        }

        written = files;
        return failures;
    }

    /// <summary>The machine and how the reproduction ran, in one line.</summary>
    public static string Machine(ReproductionResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return result.JudgedFrom is { } from
            ? $"{RunDescription.Machine(result.Environment)}; {(result.Quick ? "quick scale" : "full scale")}; judged again on " +
                $"{result.StartedAt} from the results measured in {from}."
            : $"{RunDescription.Machine(result.Environment)}; "
                + $"{(result.Quick ? "quick scale" : "full scale")}, {Minutes(result.Seconds)}, started " +
                    $"{result.StartedAt}{(result.Cancelled ? "; cancelled, so some claims were not judged" : string.Empty)}.";
    }

    /// <summary>
    /// The rows, counted: "41 claims, 30 verdicts: 9 hold, 12 do not, 2 hold only under a condition, 7 could not be
    /// judged; 14 rows not tested at this scale". A row not tested is no verdict.
    /// </summary>
    public static string Tally(ReproductionResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        int Count(Verdict v) => result.Claims.Count(c => c.Result.Verdict == v);
        var claims = result.Claims.Select(c => (c.Scenario, c.Result.Id)).Distinct().Count();
        var verdicts = result.Claims.Count(c => c.Result.Verdict != Verdict.NotTested);
        var notTested = Count(Verdict.NotTested);
        return $"{claims} claims, {verdicts} judged on a run: {Count(Verdict.Holds)} hold, {Count(Verdict.DoesNotHold)} do not, " +
            $"{Count(Verdict.HoldsOnly)} hold only under a condition, {Count(Verdict.CouldNotJudge)} could not be judged"
            + (notTested == 0 ? "." : $"; {notTested} not tested by the runs made at this scale.");
    }

    public static void Markdown(ReproductionResult result, TextWriter writer, string folder)
    {
        writer.WriteLine("# The published claims, re-run");
        writer.WriteLine();
        writer.WriteLine(Machine(result));
        writer.WriteLine();
        writer.WriteLine(Tally(result));
        writer.WriteLine();
        writer.WriteLine("| post | claim | published | run | here (median, 95% CI) | verdict | why |");
        writer.WriteLine("| --- | --- | --- | --- | --- | --- | --- |");
        foreach (var row in result.Claims)
        {
            writer.WriteLine($"| {MarkdownExporter.Escape(row.Scenario)} | {MarkdownExporter.Escape(row.Result.Claim)} | " +
                $"{MarkdownExporter.Escape(Published(row.Result))} | {MarkdownExporter.Escape(row.RunKind)} | " +
                $"{MarkdownExporter.Escape(row.Result.Figure)} | **{MarkdownExporter.Escape(row.Result.VerdictText)}** | " +
                $"{MarkdownExporter.Escape(row.Result.Reason)} |");
        }

        writer.WriteLine();
        writer.WriteLine("## Runs");
        writer.WriteLine();
        writer.WriteLine("| run | how | configuration | took | results |");
        writer.WriteLine("| --- | --- | --- | ---: | --- |");
        foreach (var run in result.Runs)
        {
            writer.WriteLine($"| {MarkdownExporter.Escape(run.Key)} | {MarkdownExporter.Escape(run.Kind)} | " +
                $"{MarkdownExporter.Escape(run.Configuration)} | {Minutes(run.Seconds)} | " +
                $"{MarkdownExporter.Escape(Relative(folder, run.Folder))}/ |");
        }
    }

    public static void Json(ReproductionResult result, TextWriter writer, string folder) =>
        writer.Write(
            JsonSerializer.Serialize(result with { Runs = [.. result.Runs.Select(r => r with { Folder = Relative(folder, r.Folder) })] },
                LabJson.Options));

    public static void Html(ReproductionResult result, TextWriter writer, string folder)
    {
        writer.WriteLine("<!DOCTYPE html>");
        writer.WriteLine("<html lang=\"en\"><head><meta charset=\"utf-8\">");
        writer.WriteLine("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        writer.WriteLine("<title>ConcurrencyLab: the published claims, re-run</title>");
        writer.WriteLine($"<style>{HtmlExporter.Style}</style></head><body>");
        writer.WriteLine("<h1>The published claims, re-run</h1>");
        writer.WriteLine($"<p class=\"environment\">{Encode(Machine(result))}<br>{Encode(Tally(result))}</p>");
        writer.WriteLine(
            "<section id=\"reproduction\"><h2>Claims</h2><table><thead><tr><th>Post</th><th>Claim</th><th>Published</th><th>Run</th><th>Here (median, 95% CI)</th><th>Verdict</th><th>Why</th></tr></thead><tbody>");
        foreach (var row in result.Claims)
        {
            writer.WriteLine($"<tr class=\"{Css(row.Result.Verdict)}\"><td>{Encode(row.Scenario)}</td><td>{Encode(row.Result.Claim)}</td><td>{Encode(Published(row.Result))}</td><td><a href=\"{Encode(Relative(folder, Path.Combine(folder, row.Run)))}/report.html\">{Encode(row.RunKind)}</a></td><td>{Encode(row.Result.Figure)}</td><td><strong>{Encode(row.Result.VerdictText)}</strong></td><td>{Encode(row.Result.Reason)}</td></tr>");
        }

        writer.WriteLine("</tbody></table></section>");
        writer.WriteLine(
            "<section id=\"runs\"><h2>Runs</h2><table><thead><tr><th>Run</th><th>How</th><th>Configuration</th><th>Took</th></tr></thead><tbody>");
        foreach (var run in result.Runs)
        {
            writer.WriteLine($"<tr><td><a href=\"{Encode(Relative(folder, run.Folder))}/report.html\">{Encode(run.Key)}</a></td><td>{Encode(run.Kind)}</td><td>{Encode(run.Configuration)}</td><td class=\"n\">{Encode(Minutes(run.Seconds))}</td></tr>");
        }

        writer.WriteLine("</tbody></table></section></body></html>");
    }

    private static string Css(Verdict verdict) => verdict switch
    {
        Verdict.Holds => "holds",
        Verdict.DoesNotHold => "fails",
        Verdict.HoldsOnly => "partly",
        Verdict.NotTested => "untested",
        _ => "unjudged",
    };

    // The published figure, and where it comes from when that is not the post's text.
    private static string Published(ClaimResult claim)
        => claim.Source == FigureSource.Text ? claim.Published : $"{claim.Published} ({ClaimResult.From(claim.Source)})";

    private static string Relative(string folder, string path) => Path.GetRelativePath(folder, path).Replace('\\', '/');

    private static string Minutes(double seconds) => seconds >= 90
        ? $"{(int)(seconds / 60)} min {((int)seconds % 60).ToString("00", CultureInfo.InvariantCulture)} s"
        : seconds.ToString("0", CultureInfo.InvariantCulture) + " s";

    private static string Encode(string text) => WebUtility.HtmlEncode(text);
}
