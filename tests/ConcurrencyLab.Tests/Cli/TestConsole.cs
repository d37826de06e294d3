using Spectre.Console;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>A console that renders into a string: no colours, no ANSI, a fixed width.</summary>
internal static class TestConsole
{
    public static IAnsiConsole Create(StringWriter output, int width = 200)
    {
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = width;
        return console;
    }
}
