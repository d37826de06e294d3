using System.CommandLine;
using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.CommandLine.Why;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// <c>conclab why</c>: any .NET program, as it is, watched from outside: started by the lab (<c>-- COMMAND ARGS</c>),
/// suspended at its runtime's start until the watch is on, or already running (<c>--pid</c>). Says which of its lines
/// blocked the pool's threads, for how long, and what the pool did about it, with the same reports, results file and
/// <c>--assert</c> as <c>run</c>. Every refusal comes before anything starts, exit code 2.
/// </summary>
internal static class WhyCommand
{
    /// <summary>How long an attached program is watched unless <c>--duration</c> says otherwise.</summary>
    public static readonly TimeSpan DefaultAttachDuration = TimeSpan.FromSeconds(10);

    public static Command Create(IAnsiConsole console, LabProgramOptions settings)
    {
        var switches = new Switches();
        var why = new Command(
            "why", "Why a .NET program of yours is slow: which of its lines blocked the thread pool, for how long, and what the pool " +
                "did about it. conclab why -- dotnet MyApp.dll, or conclab why --pid 4242 --duration 30");
        foreach (var option in switches.All)
        {
            why.Options.Add(option);
        }

        why.Arguments.Add(switches.Command);
        why.SetAction((parse, cancellationToken) => ExecuteAsync(console, settings, switches, parse, cancellationToken));
        return why;
    }

    private static async Task<int> ExecuteAsync(
        IAnsiConsole console,
        LabProgramOptions settings,
        Switches switches,
        ParseResult parse,
        CancellationToken cancellationToken)
    {
        var errors = new List<string>();
        var command = parse.GetValue(switches.Command) ?? [];
        var pid = Whole(parse.GetValue(switches.Pid), "--pid", 1, int.MaxValue, errors);
        var seconds = parse.GetValue(switches.Duration) is { } text ? Number(text, "--duration", errors) : (double?)null;
        if (pid is null && command.Length == 0 && errors.Count == 0)
        {
            errors.Add("conclab why needs a program: -- COMMAND [ARGS] to start one, or --pid PID to watch one running.");
        }

        if (pid is not null && command.Length > 0)
        {
            errors.Add("--pid watches a program already running; a command after -- starts one: give one of them.");
        }

        var noInline = parse.GetValue(switches.NoInline);
        if (noInline && pid is not null)
        {
            errors.Add(
                "--no-inline is for a program conclab starts; start one already running with DOTNET_JitNoInline=1 in its environment instead.");
        }

        var thresholds = new List<Threshold>();
        foreach (var assertion in parse.GetValue(switches.Assert) ?? [])
        {
            if (Threshold.TryParse(assertion, out var threshold, out var problem))
            {
                thresholds.Add(threshold!);
            }
            else
            {
                errors.Add($"--assert '{assertion}': {problem}");
            }
        }

        var outFolder = parse.GetValue(switches.Out);
        var jsonPath = parse.GetValue(switches.Json);
        errors.AddRange(ResultsOutput.Problems(outFolder, jsonPath));
        if (command.Length > 0 && Executable.Problem(command[0]) is { } missing)
        {
            errors.Add(missing);
        }

        if (pid is { } id && ProgramChecks.Problem(id) is { } unwatchable)
        {
            errors.Add(unwatchable);
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

        var duration = seconds is { } s ? TimeSpan.FromSeconds(s) : (TimeSpan?)null;
        var startedAt = DateTimeOffset.UtcNow;
        ProgramWatch watch;
        try
        {
            var limit = duration is { } d ? $", for at most {d.TotalSeconds.ToString("0.##", CultureInfo.InvariantCulture)} s" : string.Empty;
            var watching = pid is { } watched
                ? $"Watching process {watched} for " +
                    $"{(duration ?? DefaultAttachDuration).TotalSeconds.ToString("0.##", CultureInfo.InvariantCulture)} s " +
                    "(Ctrl+C ends the watch, not the program)."
                : $"Starting {string.Join(' ', command)}, its runtime held until the watch is on{limit}.";
            console.MarkupLineInterpolated($"[grey]{watching}[/]");
            watch = pid is { } attached
                ? await ProgramWatch.AttachAsync(attached, RuntimeEvents.Stacks, duration ?? DefaultAttachDuration, cancellationToken)
                    .ConfigureAwait(false)
                : await ProgramWatch.LaunchAsync(command[0], command[1..], RuntimeEvents.Stacks, duration, noInline, cancellationToken)
                    .ConfigureAwait(false);
        }
        catch (WatchException ex)
        {
            await ErrorLine.WriteAsync([ex.Message]).ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        var result = WhyResult.Of(watch, startedAt);
        console.Write(ResultTableRenderer.Render(result.Scenarios[0], width: console.Profile.Width));

        var failures = ResultsOutput.Write(console, result, folder, jsonPath, settings.ChartFormats);
        if (parse.GetValue(switches.Crank) || CrankJob.IsRunning())
        {
            await CrankJob.WriteAsync(result).ConfigureAwait(false);
        }

        var breaches = thresholds.SelectMany(t => t.Check(result)).Where(c => !c.Met).ToList();
        foreach (var breach in breaches)
        {
            console.MarkupLineInterpolated($"[red]threshold not met: {breach.Threshold.Text}: {breach.Message}[/]");
        }

        // Ctrl+C ends an open-ended watch as it ends a run: everything is written, and the code says it was stopped.
        return breaches.Count > 0 ? ExitCode.ThresholdFailed
            : cancellationToken.IsCancellationRequested ? ExitCode.Cancelled
            : failures.Count == 0 ? ExitCode.Ok : ExitCode.Failed;
    }

    private static int? Whole(string? text, string flag, int least, int most, List<string> errors)
    {
        if (text is null)
        {
            return null;
        }

        if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value >= least && value <= most)
        {
            return value;
        }

        errors.Add($"{flag} takes a whole number from {least} to {most}, not '{text}'.");
        return null;
    }

    private static double? Number(string text, string flag, List<string> errors)
    {
        if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && value >= 0.1 && value <= 86_400)
        {
            return value;
        }

        errors.Add($"{flag} takes seconds from 0.1 to 86400, not '{text}'.");
        return null;
    }

    private sealed class Switches
    {
        public readonly Option<string> Pid = new("--pid")
        {
            Description = "Watch the .NET program running as this process (yours), for --duration seconds",
        };

        public readonly Option<string> Duration = new("--duration")
        {
            Description = "How long to watch, in seconds: 10 for --pid; a started program is watched until it exits unless this is given " +
                "(then it is stopped, with its children)",
        };

        public readonly Option<string> Out = new("--out") { Description = "Folder for results.json, results.md, report.html and charts" };

        public readonly Option<string> Json = new("--json") { Description = "Also write results.json to this path" };

        public readonly Option<string[]> Assert = new("--assert")
        {
            Description = "A threshold the account must meet, e.g. blockingInjections<=0 or blockedMs<=100; exit code 3 if not",
        };

        public readonly Option<bool> Crank = new("--crank") { Description = "End the output with a crank job's statistics block" };

        public readonly Option<bool> NoInline = new("--no-inline")
        {
            Description = "Start the program with the JIT's inlining off, so a blocking call made from a small method inlined into "
                + "generated code (an ASP.NET minimal API handler) is named at its line; the program runs slower",
        };

        public readonly Argument<string[]> Command = new("command")
        {
            Description = "The program to start and watch, after --: conclab why -- dotnet MyApp.dll --its-own-flags",
            Arity = ArgumentArity.ZeroOrMore,
        };

        public IReadOnlyList<Option> All => [Pid, Duration, Out, Json, Assert, Crank, NoInline];
    }
}
