using System.CommandLine;
using ConcurrencyLab.Scenarios;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary><c>conclab list</c>: the scenarios, their variants and their parameters with defaults.</summary>
internal static class ListCommand
{
    public static Command Create(IAnsiConsole console, IReadOnlyList<Scenario> scenarios)
    {
        var command = new Command("list", "Show the scenarios, their variants and their parameters with defaults.");
        command.SetAction(_ =>
        {
            foreach (var scenario in scenarios)
            {
                console.Write(Rendering.ScenarioListing.Render(scenario));
                console.WriteLine();
            }

            return ExitCode.Ok;
        });
        return command;
    }
}
