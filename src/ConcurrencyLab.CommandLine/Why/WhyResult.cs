using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.CommandLine.Why;

/// <summary>
/// A watched program's account as the results every command writes: a scenario named <c>why</c> with the program as
/// its one variant and the window as its one trial, carrying the runtime's account and the metrics read from it; so the
/// reports, the charts, <c>--assert</c> and <c>conclab report</c> read it as they read any run's.
/// </summary>
internal static class WhyResult
{
    /// <summary>The scenario's name in results.json.</summary>
    public const string ScenarioName = "why";

    /// <summary>The results of <paramref name="watch"/>.</summary>
    public static RunResult Of(ProgramWatch watch, DateTimeOffset startedAt)
    {
        ArgumentNullException.ThrowIfNull(watch);
        var program = watch.Program;
        var metrics = StandardMetrics.Read(watch.Account);
        metrics[StandardMetrics.WallTime] = Math.Round(watch.WindowMs, 3);
        var trial = new TrialResult { Repeat = 0, Status = TrialStatus.Ok, Isolated = true, Metrics = metrics, Runtime = watch.Account };
        var name = Name(program.CommandLine);
        var variant = new VariantResult
        {
            Name = name,
            Description = string.Join(' ', program.CommandLine),
            Status = TrialStatus.Ok,
            Trials = [trial],
            Summary = Summarizer.Summarise([trial], 0, null, []),
        };
        var parameters = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["pid"] = program.ProcessId.ToString(CultureInfo.InvariantCulture),
            ["launched"] = program.Launched ? "yes" : "no",
            ["window-s"] = (watch.WindowMs / 1000).ToString("0.###", CultureInfo.InvariantCulture),
        };
        if (program.ExitCode is { } code)
        {
            parameters["exit-code"] = code.ToString(CultureInfo.InvariantCulture);
        }

        var scenario = Summarizer.Answer(new ScenarioResult
        {
            Name = ScenarioName,
            Parameters = parameters,
            IdealMs = 0,
            IdealReason = "none: a program watched, not a batch of items",
            Baseline = name,
            Variants = [variant],
            Notes =
            [
                $"watched {(program.Launched ? "from its start" : "attached")}: {watch.Ended}.",
                .. watch.Account.Note is { } note ? [note] : Array.Empty<string>(),
            ],
        }, Environment.ProcessorCount);
        return new RunResult
        {
            ToolVersion = RunResult.CurrentToolVersion,
            StartedAt = startedAt.ToString("O", CultureInfo.InvariantCulture),
            Environment = EnvironmentInfo.Current(),
            Settings = new RunSettings { Repeat = 1, Seed = 0, Quick = false, Isolated = true, TrialTimeoutSec = 0, SampleIntervalMs = 0 },
            Scenarios = [scenario],
        };
    }

    /// <summary>The answer in the console's markup: the account in sentences, then where the window ended.</summary>
    public static IReadOnlyList<string> Answer(ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var lines = new List<string>();
        foreach (var variant in scenario.Variants)
        {
            lines.Add(RuntimeAccountText.Describe(variant) is { } said
                ? Spectre.Console.Markup.Escape($"{variant.Name}: {said.Text}")
                : Spectre.Console.Markup.Escape($"{variant.Name}: the runtime's account holds nothing notable"));
        }

        lines.AddRange(scenario.Notes.Select(n => $"[grey]{Spectre.Console.Markup.Escape(n)}[/]"));
        return lines;
    }

    // The program's name as a reader knows it: the .dll a dotnet host runs, else the command's file name.
    private static string Name(IReadOnlyList<string> commandLine)
    {
        var dll = commandLine.Skip(1).FirstOrDefault(a => a.EndsWith(".dll", StringComparison.OrdinalIgnoreCase));
        var file = Path.GetFileNameWithoutExtension(dll ?? (commandLine.Count > 0 ? commandLine[0] : "program"));
        var plain = new string([.. file.Where(c => char.IsLetterOrDigit(c) || c is '.' or '-' or '_')]);
        return plain.Length > 0 ? plain : "program";
    }
}
