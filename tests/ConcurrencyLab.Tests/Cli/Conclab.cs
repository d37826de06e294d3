using ConcurrencyLab.CommandLine.Commands;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>conclab's command line run in this process, as <c>Main</c> runs it, with what it prints captured. Tests that use it belong to <see cref="ConsoleErrorUsers"/>.</summary>
internal static class Conclab
{
    public static async Task<(int ExitCode, string Error, string Output)> InvokeAsync(string[] args)
    {
        var output = new StringWriter();
        var console = TestConsole.Create(output);
        var error = new StringWriter();
        var previous = Console.Error;
        Console.SetError(error);
        try
        {
            var exitCode = await CommandLineRoot.InvokeAsync(args, console, ScenarioCatalog.BuiltIn);
            return (exitCode, error.ToString().Replace("\r", string.Empty, StringComparison.Ordinal), output.ToString());
        }
        finally
        {
            Console.SetError(previous);
        }
    }
}
