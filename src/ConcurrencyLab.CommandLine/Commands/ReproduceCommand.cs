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
        var switches = new Switches(posts);
        var command = new Command(
            "reproduce", "Re-run every claim of the published posts, each with a verdict: holds, does not hold, holds only under a condition.")
        {
            switches.Post, switches.Quick, switches.Output, switches.Plain, switches.From, switches.Crank,
        };
        command.SetAction(async (parse, cancellationToken) =>
        {
            var earlierRuns = new Dictionary<string, ConcurrencyLab.Results.RunResult>(StringComparer.Ordinal);
            var errors = Problems(parse, switches, posts, earlierRuns, out var chosen, out var earlierQuick);
            if (errors.Count > 0)
            {
                await ErrorLine.WriteAsync(errors).ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            var folder = parse.GetValue(switches.Output) ?? Exporters.DefaultFolder();
            using var taken = OutputLock.Take("--out", folder, out var held);
            if (taken is null)
            {
                await ErrorLine.WriteAsync(held!).ConfigureAwait(false);
                return ExitCode.BadInput;
            }

            var asJob = parse.GetValue(switches.Crank) || CrankJob.IsRunning();
            return parse.GetValue(switches.From) is { } earlier
                ? await JudgeAgainAsync(console, chosen, earlierQuick, Path.GetFullPath(earlier), earlierRuns, folder, asJob).ConfigureAwait(false)
                : await ReproduceAsync(console, settings, chosen, parse.GetValue(switches.Quick), parse.GetValue(switches.Plain), folder, asJob,
                    cancellationToken).ConfigureAwait(false);
        });
        return command;
    }

    private sealed class Switches(IReadOnlyList<Scenario> posts)
    {
        public Argument<string?> Post { get; } = new(
            "post") { Description = $"one post's scenario: {string.Join(", ", posts.Select(p => p.Name))} [default: every post]",
                Arity = ArgumentArity.ZeroOrOne };

        public Option<bool> Quick { get; } = new(
            "--quick") { Description = "each post at a small scale, every post in a few minutes; the verdicts say when a scale is too small " +
                "to judge" };

        public Option<string> Output { get; } = new(
            "--out") { Description = "folder for reproduction.md, reproduction.json, report.html and each run's own results [default: " +
                "conclab-results/<UTC timestamp>]" };

        public Option<bool> Plain { get; } = new("--plain") { Description = "plain progress lines even on a terminal" };

        public Option<string> From { get; } = new(
            "--from") { Description = "judge again, by this build's rules, what an earlier reproduction in this folder measured; nothing is run" };

        public Option<bool> Crank { get; } = new(
            "--crank") { Description = "Report as a crank job: each trial's and pass's process id on standard error (##ChildProcessId:PID), " +
                "and every claim's verdict between #StartJobStatistics and #EndJobStatistics as the last output; on by itself under crank's " +
                "agent (CRANK_JOB_ID set)" };
    }

    // Every reason the command cannot run, found before anything runs: the post, the folders, and an earlier
    // reproduction to judge again (each of its results files read once: to check it can be judged, then to judge it).
    private static List<string> Problems(
        ParseResult parse,
        Switches switches,
        IReadOnlyList<Scenario> posts,
        Dictionary<string, ConcurrencyLab.Results.RunResult> earlierRuns,
        out IReadOnlyList<Scenario> chosen,
        out bool earlierQuick)
    {
        var errors = new List<string>();
        var earlier = parse.GetValue(switches.From);
        earlierQuick = false;
        if (earlier is null && ConcurrencyLab.FileSystem.TemporaryFolder.Problem() is { } temporary)
        {
            errors.Add(temporary);
        }

        chosen = posts;
        if (parse.GetValue(switches.Post) is { } name)
        {
            var found = posts.FirstOrDefault(p => string.Equals(p.Name, name.Trim(), StringComparison.OrdinalIgnoreCase));
            if (found is null)
            {
                var near = Scenarios.Closest.To(name, posts.Select(p => p.Name));
                errors.Add($"'{name}' is not a post this program reproduces{(near is null ? string.Empty : $" (did you mean '{near}'?)")}; " +
                    $"known: {string.Join(", ", posts.Select(p => p.Name))}.");
            }
            else
            {
                chosen = [found];
            }
        }

        var outFolder = parse.GetValue(switches.Output);
        if (outFolder is not null && OutputTargets.CheckFolder("--out", outFolder, mayHoldResults: false) is { } problem)
        {
            errors.Add(problem);
        }
        else if (outFolder is not null && File.Exists(Path.Combine(outFolder, ReproductionReport.JsonFileName)))
        {
            // Its runs' folders would be written over, or read back as new: a reproduction gets a folder of its own.
            errors.Add($"--out {outFolder} holds an earlier reproduction ({ReproductionReport.JsonFileName}); give a new folder.");
        }

        if (earlier is not null && parse.GetValue(switches.Quick))
        {
            errors.Add("--quick and --from together: a reproduction judged again keeps the scale it was measured at.");
        }

        if (earlier is not null && EarlierScale(earlier, out earlierQuick) is { } notEarlier)
        {
            errors.Add(notEarlier);
        }

        if (earlier is not null && errors.Count == 0
            && Reproducer.JudgeAgainProblem(chosen, earlierQuick, Path.GetFullPath(earlier), earlierRuns) is { } cannotJudge)
        {
            errors.Add(cannotJudge);
        }

        return errors;
    }

    // Judged again at the scale the earlier reproduction measured, into a folder of its own.
    private static async Task<int> JudgeAgainAsync(
        IAnsiConsole console,
        IReadOnlyList<Scenario> chosen,
        bool quick,
        string earlier,
        Dictionary<string, ConcurrencyLab.Results.RunResult> earlierRuns,
        string folder,
        bool asJob)
    {
        var again = Reproducer.JudgeAgain(chosen, quick, earlier, earlierRuns);
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

    private static async Task<int> ReproduceAsync(
        IAnsiConsole console,
        LabProgramOptions settings,
        IReadOnlyList<Scenario> chosen,
        bool quick,
        bool plain,
        string folder,
        bool asJob,
        CancellationToken cancellationToken)
    {
        void Say(string line) => console.MarkupLineInterpolated($"[grey]{line}[/]");
        var passes = new PublishedOrderPasses(SelfLauncher.Current(), Say, asJob ? CrankJob.Announce : null);
        // On a terminal, each run's rows grow live as in `conclab run`; elsewhere (and for crank's agent), plain lines.
        var live = !asJob && LiveSession.Possible(console, plain);
        var reproducer = new Reproducer(_ => live ? new LiveSession(console)
            : CrankJob.Observing(new PlainProgress(console, printTables: false), asJob), passes, settings.ChartFormats, Say,
                new ConsoleErrorLogger());
        var result = await reproducer.RunAsync(chosen, quick, folder, cancellationToken).ConfigureAwait(false);

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
                return $"--from {folder} holds no reproduction ({ReproductionReport.JsonFileName}, a regular file of at most " +
                    $"{ReproductionReport.MaxJsonBytes >> 20} MiB).";
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
