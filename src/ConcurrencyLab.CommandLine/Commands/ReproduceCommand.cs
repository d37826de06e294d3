using System.CommandLine;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Scenarios;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// <c>conclab reproduce [post] [--quick]</c>: re-runs every claim of the published posts (or of one) in the runs
/// that test it, isolated and as published, and prints a verdict for each, with the figure here and why;
/// writes <c>reproduction.md</c>, <c>reproduction.json</c> and <c>report.html</c> beside each run's own results.
/// </summary>
internal static class ReproduceCommand
{
    public static Command Create(IAnsiConsole console, IReadOnlyList<Scenario> scenarios, LabProgramOptions settings)
    {
        var posts = Reproducer.Posts(scenarios);
        var post = new Argument<string?>("post") { Description = $"one post's scenario: {string.Join(", ", posts.Select(p => p.Name))} [default: every post]", Arity = ArgumentArity.ZeroOrOne };
        var quick = new Option<bool>("--quick") { Description = "each post at a small scale, every post in a few minutes; the verdicts say when a scale is too small to judge" };
        var output = new Option<string>("--out") { Description = "folder for reproduction.md, reproduction.json, report.html and each run's own results [default: conclab-results/<UTC timestamp>]" };
        var plain = new Option<bool>("--plain") { Description = "plain progress lines even on a terminal" };
        var from = new Option<string>("--from") { Description = "judge again, by this build's rules, what an earlier reproduction in this folder measured; nothing is run" };
        var crank = new Option<bool>("--crank") { Description = "Report as a crank job: each trial's and pass's process id on standard error (##ChildProcessId:PID), and every claim's verdict between #StartJobStatistics and #EndJobStatistics as the last output; on by itself under crank's agent (CRANK_JOB_ID set)" };
        var command = new Command("reproduce", "Re-run every claim of the published posts, each with a verdict: holds, does not hold, holds only under a condition.")
        {
            post, quick, output, plain, from, crank,
        };
        command.SetAction(async (parse, cancellationToken) =>
        {
            var errors = new List<string>();
            if (parse.GetValue(from) is null && ConcurrencyLab.FileSystem.TemporaryFolder.Problem() is { } temporary)
            {
                errors.Add(temporary);
            }

            var chosen = posts;
            if (parse.GetValue(post) is { } name)
            {
                var found = posts.FirstOrDefault(p => string.Equals(p.Name, name.Trim(), StringComparison.OrdinalIgnoreCase));
                if (found is null)
                {
                    var near = Scenarios.Closest.To(name, posts.Select(p => p.Name));
                    errors.Add($"'{name}' is not a post this program reproduces{(near is null ? string.Empty : $" (did you mean '{near}'?)")}; known: {string.Join(", ", posts.Select(p => p.Name))}.");
                }
                else
                {
                    chosen = [found];
                }
            }

            var outFolder = parse.GetValue(output);
            if (outFolder is not null && OutputTargets.CheckFolder("--out", outFolder, mayHoldResults: false) is { } problem)
            {
                errors.Add(problem);
            }
            else if (outFolder is not null && File.Exists(Path.Combine(outFolder, ReproductionReport.JsonFileName)))
            {
                // Its runs' folders would be written over, or read back as new: a reproduction gets a folder of its own.
                errors.Add($"--out {outFolder} holds an earlier reproduction ({ReproductionReport.JsonFileName}); give a new folder.");
            }

            var earlier = parse.GetValue(from);
            var earlierQuick = false;
            if (earlier is not null && parse.GetValue(quick))
            {
                errors.Add("--quick and --from together: a reproduction judged again keeps the scale it was measured at.");
            }

            if (earlier is not null && EarlierScale(earlier, out earlierQuick) is { } notEarlier)
            {
                errors.Add(notEarlier);
            }

            // Each earlier results file is read once: to check it can be judged, then to judge it.
            var earlierRuns = new Dictionary<string, ConcurrencyLab.Results.RunResult>(StringComparer.Ordinal);
            if (earlier is not null && errors.Count == 0 && Reproducer.JudgeAgainProblem(chosen, earlierQuick, Path.GetFullPath(earlier), earlierRuns) is { } cannotJudge)
            {
                errors.Add(cannotJudge);
            }

            if (errors.Count > 0)
            {
                await ErrorLine.WriteAsync(errors).ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            var folder = outFolder ?? Exporters.DefaultFolder();
            using var taken = OutputLock.Take("--out", folder, out var held);
            if (taken is null)
            {
                await ErrorLine.WriteAsync(held!).ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            var asJob = parse.GetValue(crank) || CrankJob.IsRunning();
            if (earlier is not null)
            {
                // Judged again at the scale the earlier reproduction measured, into a folder of its own.
                var again = Reproducer.JudgeAgain(chosen, earlierQuick, Path.GetFullPath(earlier), earlierRuns);
                ReproductionRenderer.Write(console, again);
                var problems = ReproductionReport.WriteAll(again, folder, out var made);
                foreach (var unwritten in problems)
                {
                    await ErrorLine.WriteAsync($"could not write {unwritten}").ConfigureAwait(false);
                }

                console.MarkupLineInterpolated($"Results: {Exporters.Describe(made)}");
                if (asJob)
                {
                    await CrankJob.WriteAsync(again).ConfigureAwait(false);
                }

                return problems.Count > 0 || again.Runs.Any(r => !r.Measured) ? ExitCode.Failed : ExitCode.Ok;
            }

            void Say(string line) => console.MarkupLineInterpolated($"[grey]{line}[/]");
            var passes = new PublishedOrderPasses(SelfLauncher.Current(), Say, asJob ? CrankJob.Announce : null);
            // On a terminal, each run's rows grow live as in `conclab run`; elsewhere (and for crank's agent), plain lines.
            var live = !asJob && LiveSession.Possible(console, parse.GetValue(plain));
            var reproducer = new Reproducer(_ => live ? new LiveSession(console) : CrankJob.Observing(new PlainProgress(console, printTables: false), asJob), passes, settings.ChartFormats, Say, new ConsoleErrorLogger());
            var result = await reproducer.RunAsync(chosen, parse.GetValue(quick), folder, cancellationToken).ConfigureAwait(false);

            ReproductionRenderer.Write(console, result);
            var failures = ReproductionReport.WriteAll(result, folder, out var written);
            foreach (var failure in failures)
            {
                await ErrorLine.WriteAsync($"could not write {failure}").ConfigureAwait(false);
            }

            console.MarkupLineInterpolated($"Results: {Exporters.Describe(written)}, and each run's own in {folder}");
            if (asJob)
            {
                // Last of all: crank's agent reads the block where it ends the output.
                await CrankJob.WriteAsync(result).ConfigureAwait(false);
            }

            // A trial that failed is a result here (poll's pool that never caught up loses messages by design);
            // a run that could not be made at all is not.
            return result.Cancelled ? ExitCode.Cancelled
                : failures.Count > 0 || result.Runs.Any(r => !r.Measured) ? ExitCode.Failed
                : ExitCode.Ok;
        });
        return command;
    }

    // Whether an earlier reproduction is in the folder, and at which scale it ran: null when it is one, else why not.
    private static string? EarlierScale(string folder, out bool quick)
    {
        quick = false;
        var path = Path.Combine(folder, ReproductionReport.JsonFileName);
        try
        {
            // Looked at before it is opened: a pipe of that name would hold the read for ever.
            var facts = ConcurrencyLab.FileSystem.FileFacts.Of(path);
            if (facts.Kind != ConcurrencyLab.FileSystem.FileKind.Regular || facts.Size > ReproductionReport.MaxJsonBytes)
            {
                return $"--from {folder} holds no reproduction ({ReproductionReport.JsonFileName}, a regular file of at most {ReproductionReport.MaxJsonBytes >> 20} MiB).";
            }

            using var document = System.Text.Json.JsonDocument.Parse(File.ReadAllText(path));
            if (document.RootElement.ValueKind != System.Text.Json.JsonValueKind.Object
                || !document.RootElement.TryGetProperty("quick", out var scale)
                || scale.ValueKind is not (System.Text.Json.JsonValueKind.True or System.Text.Json.JsonValueKind.False))
            {
                return $"--from {folder}: {ReproductionReport.JsonFileName} does not say at which scale it ran (no \"quick\").";
            }

            quick = scale.GetBoolean();
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or System.Text.Json.JsonException or ArgumentException)
        {
            return $"--from {folder}: {ReproductionReport.JsonFileName} cannot be read: {ex.Message}".ReplaceLineEndings(" ");
        }
    }
}
