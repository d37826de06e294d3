using ConcurrencyLab.Cli.Commands;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using Spectre.Console;

// A child process (a trial, or a scenario's service such as fanout's): run it and leave before any
// command-line parsing or console set-up.
if (await ChildEntry.TryRunAsync(args, ScenarioCatalog.BuiltIn) is { } childExitCode)
{
    return childExitCode;
}

if (Console.IsOutputRedirected)
{
    // A log or a pipe has no width; the default of 80 columns would wrap every table.
    AnsiConsole.Console.Profile.Width = 200;
}

return await CommandLine.InvokeAsync(args, AnsiConsole.Console, ScenarioCatalog.BuiltIn);
