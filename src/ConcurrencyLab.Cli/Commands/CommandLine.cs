using System.CommandLine;
using System.CommandLine.Help;
using ConcurrencyLab.Scenarios;
using Spectre.Console;

namespace ConcurrencyLab.Cli.Commands;

/// <summary>
/// Builds conclab's commands and runs one. Parse errors become a single line and exit code 2; the
/// library's own error output (typo suggestions followed by the whole help) is never shown.
/// </summary>
internal static class CommandLine
{
    public static async Task<int> InvokeAsync(string[] args, IAnsiConsole console, IReadOnlyList<Scenario> scenarios)
    {
        var root = Build(console, scenarios);
        var parse = root.Parse(args);
        if (parse.Errors.Count > 0)
        {
            await Console.Error.WriteLineAsync($"conclab: {parse.Errors[0].Message}").ConfigureAwait(false);
            return ExitCodes.BadInput;
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
        try
        {
            return await parse.InvokeAsync(new InvocationConfiguration { EnableDefaultExceptionHandler = false }, cancel.Token).ConfigureAwait(false);
        }
        finally
        {
            Console.CancelKeyPress -= onCancel;
        }
    }

    internal static RootCommand Build(IAnsiConsole console, IReadOnlyList<Scenario> scenarios)
    {
        var root = new RootCommand("ConcurrencyLab: which .NET concurrency pattern suits your workload, measured.");
        root.Subcommands.Add(RunCommand.Create(console, scenarios));
        root.Subcommands.Add(ListCommand.Create(console, scenarios));
        root.Subcommands.Add(CompareCommand.Create(console));
        root.Subcommands.Add(ReportCommand.Create(console, scenarios));
        root.SetAction(parse =>
        {
            new HelpAction().Invoke(parse);
            return ExitCodes.Ok;
        });
        return root;
    }
}
