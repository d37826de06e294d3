using System.CommandLine;
using System.CommandLine.Help;
using System.Runtime.InteropServices;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Scenarios;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// Builds conclab's commands and runs one. Parse errors become a single line and exit code 2; the
/// library's own error output (typo suggestions followed by the whole help) is never shown.
/// </summary>
internal static class CommandLineRoot
{
    /// <summary>
    /// A completion request, <c>[suggest:N] LINE</c>, checked: N must be a whole number, and one past the line's end is
    /// its end. Returns the problem in one line, or null with <paramref name="checkedArgs"/> the arguments to parse
    /// (null when they are not a completion request).
    /// </summary>
    internal static string? SuggestDirective(string[] args, out string[]? checkedArgs)
    {
        checkedArgs = null;
        const string Directive = "[suggest";
        if (args.Length == 0 || !args[0].StartsWith(Directive, StringComparison.Ordinal) || !args[0].EndsWith(']'))
        {
            return null;
        }

        var position = args[0][Directive.Length..^1];
        if (position.Length == 0)
        {
            return null;
        }

        var line = args.Length > 1 ? string.Join(' ', args[1..]) : string.Empty;
        if (position[0] != ':'
            || !int.TryParse(position.AsSpan(1), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture,
                out var at))
        {
            return $"{ForeignText(args[0])}: a completion's position is [suggest:N], N a whole number from 0 to the line's length ({line.Length}).";
        }

        checkedArgs = [.. args];
        checkedArgs[0] = $"[suggest:{Math.Min(at, line.Length).ToString(System.Globalization.CultureInfo.InvariantCulture)}]";
        return null;

        static string ForeignText(string text) => Hosting.ForeignText.Line(text, 40);
    }

    public static Task<int> InvokeAsync(string[] args, IAnsiConsole console, IReadOnlyList<Scenario> scenarios) =>
        InvokeAsync(args, console, scenarios, new LabProgramOptions());

    public static async Task<int> InvokeAsync(string[] args, IAnsiConsole console, IReadOnlyList<Scenario> scenarios, LabProgramOptions options)
    {
        // A shell's completion asks with [suggest:POSITION]: a position that is no place in the line is one line.
        if (SuggestDirective(args, out var suggestion) is { } notAPosition)
        {
            await ErrorLine.WriteAsync(notAPosition).ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        args = suggestion ?? args;
        var root = Build(console, scenarios, options);
        var parse = root.Parse(args);
        if (parse.Errors.Count > 0)
        {
            await ErrorLine.WriteAsync(parse.Errors[0].Message + Unrecognised(parse)).ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        using var cancel = new CancellationTokenSource();
        ConsoleCancelEventHandler onCancel = (_, e) =>
        {
            // The first Ctrl+C ends the current trial's process, stops, and writes what was measured before it;
            // a second one ends conclab at once.
            e.Cancel = !cancel.IsCancellationRequested;
            cancel.Cancel();
        };
        Console.CancelKeyPress += onCancel;

        // SIGTERM (a service manager, a CI job's timeout, kill) is taken as Ctrl+C is: a second one ends conclab at once.
        using var onTerminate = OperatingSystem.IsWindows() ? null : PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
        {
            context.Cancel = !cancel.IsCancellationRequested;
            cancel.Cancel();
        });

        // SIGHUP (the terminal closed, an ssh connection dropped) too: stop, keep every finished trial, leave nothing,
        // and end with 129 rather than the runtime's default of dying at once with nothing written.
        var hungUp = false;
        using var onHangUp = OperatingSystem.IsWindows() ? null : PosixSignalRegistration.Create(PosixSignal.SIGHUP, context =>
        {
            hungUp = true;
            context.Cancel = !cancel.IsCancellationRequested;
            cancel.Cancel();
        });
        try
        {
            // No termination timeout of System.CommandLine's own: after 2 s it ended the process with 130, with
            // nothing written and a half-written hash set left behind. conclab stops by itself, and a second
            // signal is the way to stop it at once.
            var exitCode = await parse.InvokeAsync(
                new InvocationConfiguration { EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null }, cancel.Token)
                    .ConfigureAwait(false);
            return hungUp && exitCode == ExitCode.Cancelled ? ExitCode.HungUp : exitCode;
        }
        finally
        {
            Console.CancelKeyPress -= onCancel;
        }
    }

    // A misspelt command, scenario or option: the closest one the command in hand takes, offered.
    private static string Unrecognised(ParseResult parse)
    {
        if (parse.UnmatchedTokens.Count == 0)
        {
            return string.Empty;
        }

        var command = parse.CommandResult.Command;
        var known = command.Subcommands.Select(c => c.Name)
            .Concat(command.Options.SelectMany(o => o.Aliases.Prepend(o.Name)))
            .Where(n => !n.StartsWith("-?", StringComparison.Ordinal))
            .ToList();
        return Scenarios.Closest.Suggestion(parse.UnmatchedTokens[0], known);
    }

    internal static RootCommand Build(IAnsiConsole console, IReadOnlyList<Scenario> scenarios, LabProgramOptions? options = null)
    {
        options ??= new LabProgramOptions();
        var root = new RootCommand("ConcurrencyLab: which .NET concurrency pattern suits your workload, measured.");
        root.Subcommands.Add(RunCommand.Create(console, scenarios, options));
        root.Subcommands.Add(ListCommand.Create(console, scenarios));
        root.Subcommands.Add(CompareCommand.Create(console));
        root.Subcommands.Add(ReportCommand.Create(console, scenarios, options));
        root.Subcommands.Add(LoadCommand.Create(console, options));
        root.Subcommands.Add(WhyCommand.Create(console, options));
        if (ServeCommand.Create(scenarios) is { } serve)
        {
            root.Subcommands.Add(serve);
        }

        // Only a program whose scenarios reproduce posts has claims to re-run.
        if (Reproduction.Reproducer.Posts(scenarios).Count > 0)
        {
            root.Subcommands.Add(ReproduceCommand.Create(console, scenarios, options));
        }
        root.SetAction(parse =>
        {
            new HelpAction().Invoke(parse);
            return ExitCode.Ok;
        });

        // `conclab run SCENARIO --help` teaches the scenario's variants too, as `list` does.
        var help = root.Options.OfType<HelpOption>().Single();
        if (help.Action is HelpAction standard)
        {
            help.Action = new ScenarioHelp(standard, console, scenarios);
        }

        return root;
    }

    /// <summary>The help System.CommandLine writes, and after it, for a scenario's run command, its variants.</summary>
    private sealed class ScenarioHelp(HelpAction standard, IAnsiConsole console, IReadOnlyList<Scenario> scenarios)
        : System.CommandLine.Invocation.SynchronousCommandLineAction
    {
        public override int Invoke(ParseResult parseResult)
        {
            var exitCode = standard.Invoke(parseResult);
            var command = parseResult.CommandResult.Command;
            if (command.Parents.OfType<Command>().FirstOrDefault()?.Name == "run" && NamedScenarios.Find(scenarios, command.Name) is { } scenario)
            {
                Console.Out.Flush();
                console.Write(ScenarioListing.Variants(scenario));
            }

            return exitCode;
        }
    }
}

