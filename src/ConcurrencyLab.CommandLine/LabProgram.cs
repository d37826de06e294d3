using ConcurrencyLab.CommandLine.Commands;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using Spectre.Console;

namespace ConcurrencyLab;

/// <summary>
/// Makes your program behave like the <c>conclab</c> tool over scenarios of your own: the same commands
/// (<c>run</c>, <c>list</c>, <c>report</c>, <c>compare</c>), the same options and scenario parameters, live view,
/// tables, reports and exit codes. Call it first thing in <c>Main</c> and return what it returns: the lab starts
/// your program again for each trial, in a fresh process, and this call is also where such a child runs its
/// trial, so code before it runs again in every trial. Set-up that belongs once to a run goes in the
/// scenario (<c>WorkloadScenario.SetUpRunAsync</c>), which runs it in this process only.
/// </summary>
/// <example>
/// <code>
/// return await LabProgram.RunAsync(args, new WorkloadScenario("resize", context => new ResizeWorkload(context.Seed)));
/// </code>
/// With one scenario, options may come first: <c>dotnet run -- --variants whenall,parallel-for@8 --repeat 3</c>
/// runs it as <c>conclab run resize --variants ... --repeat 3</c> would; with no arguments at all the program
/// runs every scenario at its quick scale, as <c>conclab run</c> does.
/// </example>
public static class LabProgram
{
    /// <summary>Runs <paramref name="args"/> over <paramref name="scenarios"/> with the default options; returns the exit code.</summary>
    public static Task<int> RunAsync(string[] args, params IReadOnlyList<Scenario> scenarios) => RunAsync(args, scenarios, new LabProgramOptions());

    /// <summary>Runs <paramref name="args"/> over <paramref name="scenarios"/>; returns the exit code (see <see cref="ExitCode"/>).</summary>
    public static async Task<int> RunAsync(string[] args, IReadOnlyList<Scenario> scenarios, LabProgramOptions options)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(scenarios);
        ArgumentNullException.ThrowIfNull(options);

        // Standard output or error closed, or a terminal gone: writes to them are dropped, never the run's end.
        CommandLine.Rendering.ForgivingWriter.Install();

        // Nothing printed from elsewhere (a results file, a service's output) may make a line crank's agent acts on.
        Hosting.ProtocolLines.Install();

        // A child process (a trial, or a scenario's service): run it and leave before any parsing or console set-up.
        if (await ChildEntry.TryRunAsync(args, scenarios).ConfigureAwait(false) is { } childExitCode)
        {
            return childExitCode;
        }

        if (scenarios.Count == 0 || scenarios.Select(s => s.Name).Distinct(StringComparer.Ordinal).Count() != scenarios.Count)
        {
            await CommandLine.Rendering.ErrorLine.WriteAsync(
                "the program gives no scenarios, or two with the same name; LabProgram.RunAsync needs each scenario once.").ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        // A scenario built wrong (two parameters of one name) is its author's mistake: said in one line, not a stack.
        foreach (var scenario in scenarios)
        {
            try
            {
                _ = scenario.Parameters;
            }
            catch (InvalidOperationException ex)
            {
                await CommandLine.Rendering.ErrorLine.WriteAsync(ex.Message).ConfigureAwait(false);
                return ExitCode.BadInput;
            }
        }

        if (Console.IsOutputRedirected)
        {
            // A log or a pipe has no width: 100 columns, wide enough for the tables that decide, narrow enough to read.
            AnsiConsole.Console.Profile.Width = 100;
        }

        return await CommandLineRoot.InvokeAsync(ImplicitRun(args, scenarios, options), AnsiConsole.Console, scenarios, options)
            .ConfigureAwait(false);
    }

    /// <summary>
    /// The command line as <c>conclab</c> reads it: nothing at all is <c>run</c> (when the options allow), and
    /// options first are <c>run</c>'s, of the one scenario when there is only one.
    /// </summary>
    internal static string[] ImplicitRun(string[] args, IReadOnlyList<Scenario> scenarios, LabProgramOptions options)
    {
        if (!options.RunWhenNoCommand)
        {
            return args;
        }

        if (args.Length == 0)
        {
            return ["run"];
        }

        var first = args[0];
        var help = first is "-h" or "--help" or "-?" or "/?" or "/h" or "--version";
        return first.StartsWith('-') && !help
            ? scenarios.Count == 1 ? ["run", scenarios[0].Name, .. args] : ["run", .. args]
            : args;
    }
}
