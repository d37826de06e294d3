using Spectre.Console;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>A console that renders into a string at a fixed width: without colours or ANSI, unless asked for them.</summary>
internal static class TestConsole
{
    public static IAnsiConsole Create(StringWriter output, int width = 200, bool ansi = false)
    {
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = ansi ? AnsiSupport.Yes : AnsiSupport.No,
            ColorSystem = ansi ? ColorSystemSupport.Standard : ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = width;
        return console;
    }
}
