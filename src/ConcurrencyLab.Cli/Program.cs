using ConcurrencyLab.Cli.Commands;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using Spectre.Console;

// A child trial process: run the trial and leave before any command-line parsing or console set-up.
if (TrialHost.IsChildInvocation(args))
{
    return await TrialHost.RunChildAsync(args, ScenarioCatalog.BuiltIn);
}

// A service process of a scenario (the fanout experiment's HTTP services): serve until stdin closes.
if (ServiceHost.IsServiceInvocation(args))
{
    return await ServiceHost.RunAsync(args);
}

if (Console.IsOutputRedirected)
{
    // A log or a pipe has no width; the default of 80 columns would wrap every table.
    AnsiConsole.Console.Profile.Width = 200;
}

return await CommandLine.InvokeAsync(args, AnsiConsole.Console, ScenarioCatalog.BuiltIn);
