using System.CommandLine;
using System.Globalization;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Comparing;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// <c>conclab compare OLD.json NEW.json</c>: per scenario and variant, the ratio of median wall times and
/// whether the difference is significant, as a console table and, with <c>--markdown</c>, Markdown. The exit
/// code says whether anything got significantly slower, so a script or CI job can act on it.
/// </summary>
internal static class CompareCommand
{
    public static Command Create(IAnsiConsole console)
    {
        var old = new Argument<string>("old") { Description = "the earlier results.json" };
        var current = new Argument<string>("new") { Description = "the later results.json" };
        var alpha = new Option<string>("--alpha") { Description = "significance level of the test [default: 0.05]" };
        var markdown = new Option<string>("--markdown") { Description = "also write the comparison as Markdown to this file" };
        var command = new Command(
            "compare", $"Compare two runs' results: ratio of medians and significance per variant; exit code {ExitCode.Failed} when " +
                $"anything got significantly slower.")
        {
            old, current, alpha, markdown,
        };
        command.SetAction(async (parse, cancellationToken) =>
        {
            var level = 0.05;
            if (parse.GetValue(alpha) is { } text
                && (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out level) || !double.IsFinite(level)
                    || level is <= 0 or >= 0.5))
            {
                await ErrorLine.WriteAsync($"--alpha must be a number above 0 and below 0.5, such as 0.05, not '{text}'.").ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            if (parse.GetValue(markdown) is { } target && OutputTargets.CheckFile("--markdown", target) is { } problem)
            {
                await ErrorLine.WriteAsync(problem).ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            // Never the table written over what it compares: the same file by any name, a link to it included.
            if (parse.GetValue(markdown) is { } output
                && new[] { parse.GetValue(old)!, parse.GetValue(current)! }.FirstOrDefault(
                    input => OutputTargets.SameFile(input, output)) is { } input)
            {
                await ErrorLine.WriteAsync($"--markdown {output} is the results file {input} this compares; give another file.")
                    .ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            RunResult before, after;
            try
            {
                // Read apart from the signal's flow: Ctrl+C or SIGTERM while large files are read ends the command at once.
                (before, after) = await Task.Run(() => (ResultsFile.Read(parse.GetValue(old)!), ResultsFile.Read(parse.GetValue(current)!)),
                    CancellationToken.None)
                    .WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (ResultsFileException ex)
            {
                await ErrorLine.WriteAsync(ex.Message).ConfigureAwait(false);
                return ExitCode.BadInput;
            }
            catch (OperationCanceledException)
            {
                return ExitCode.Cancelled;
            }

            var comparison = RunComparison.Of(before, after, level);
            console.Write(ComparisonTableRenderer.Render(comparison));
            if (parse.GetValue(markdown) is { } path)
            {
                try
                {
                    Exporters.WriteText(path, writer => ComparisonText.WriteMarkdown(comparison, writer));
                    console.MarkupLineInterpolated($"Markdown: {path}");
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
                {
                    await ErrorLine.WriteAsync($"--markdown: cannot write '{path}': {ex.Message}").ConfigureAwait(false);
                    return ExitCode.BadInput;
                }
            }

            return comparison.AnySlower ? ExitCode.Failed : ExitCode.Ok;
        });
        return command;
    }
}
