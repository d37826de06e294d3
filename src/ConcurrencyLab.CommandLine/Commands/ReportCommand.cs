using System.CommandLine;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// <c>conclab report results.json</c>: prints a run's tables again and writes every report from its
/// results file, so reports can be remade (or made by a newer conclab) without running anything.
/// </summary>
internal static class ReportCommand
{
    public static Command Create(IAnsiConsole console, IReadOnlyList<Scenario> scenarios, LabProgramOptions settings)
    {
        var results = new Argument<string>("results") { Description = "a results.json written by conclab run" };
        var output = new Option<string>("--out") { Description = "folder for the reports [default: the results file's folder]" };
        var columnsOption = new Option<string>(
            "--columns") { Description = "The console tables' columns: all, or ids separated by commas; by default those that decide, as " +
                "many as the terminal fits" };
        var command = new Command("report", "Print a run's tables and write every report again from its results.json.") { results, output,
            columnsOption };
        command.SetAction(async (parse, cancellationToken) =>
        {
            var path = parse.GetValue(results)!;

            RunResult run;
            try
            {
                // Read apart from the signal's flow: Ctrl+C or SIGTERM while a large file is read ends the command at
                // once, with nothing written yet.
                run = await Task.Run(
                    () =>
                    {
                        // A version 1 file recorded variants by name only, and older files lack what the structure gives:
                        // the scenarios read it back.
                        var read = ResultsFile.Read(path, out var writtenAs);
                        read = RecordedVariants.WithGrowthLines(writtenAs < 2 ? RecordedVariants.WithStructure(read, scenarios) : read, scenarios);

                        // The published claims are judged again by this build's rules, each only where the run met its
                        // conditions: a verdict an older build gave on a run that did not test its claim is not repeated.
                        return read with
                        {
                            Scenarios = [.. read.Scenarios.Select(
                                s => scenarios.FirstOrDefault(c => c.Name == s.Name) is { } known && PostClaims.Of(known) is not null
                                    ? s with { Claims = PostJudge.Judge(known, s, machine: read.Environment, settings: read.Settings) } : s)],
                        };
                    },
                    CancellationToken.None).WaitAsync(cancellationToken).ConfigureAwait(false);
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

            // The results file itself is the source: it is never written over, only copied to another folder, and
            // "the same file" is its identity, so a folder reached through a link is still the same folder.
            var given = parse.GetValue(output);
            var folder = given ?? Path.GetDirectoryName(Path.GetFullPath(path))!;
            var sameFile = folder.Length > 0 && OutputTargets.SameFile(Path.Combine(folder, JsonExporter.Default.FileName), path);
            if (OutputTargets.CheckFolder(given is null ? "the results file's folder" : "--out", folder, mayHoldResults: sameFile) is { } problem)
            {
                await ErrorLine.WriteAsync(problem).ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            var columns = TableColumns.Default;
            if (parse.GetValue(columnsOption) is { } columnsText
                && !TableColumns.TryParse(columnsText, run.Scenarios.SelectMany(s => s.Metrics), out columns, out var columnsProblem))
            {
                await ErrorLine.WriteAsync(columnsProblem).ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            foreach (var scenario in run.Scenarios)
            {
                if (cancellationToken.IsCancellationRequested)
                {
                    return ExitCode.Cancelled;
                }

                console.Write(ResultTableRenderer.Render(scenario, run.Environment.ProcessorCount, columns, console.Profile.Width));
            }

            // Stopped between files by Ctrl+C or SIGTERM: each file written is whole, and the rest are not begun.
            var exporters = Exporters.Default.Where(e => !(sameFile && e is JsonExporter)).ToList();
            var failures = Exporters.ExportAll(run, folder, exporters, settings.ChartFormats, out var written, cancellationToken);
            foreach (var failure in failures)
            {
                await ErrorLine.WriteAsync($"could not write {failure}").ConfigureAwait(false);
            }

            console.MarkupLineInterpolated($"Reports: {Exporters.Describe(written)}");
            return cancellationToken.IsCancellationRequested ? ExitCode.Cancelled : failures.Count == 0 ? ExitCode.Ok : ExitCode.Failed;
        });
        return command;
    }
}
