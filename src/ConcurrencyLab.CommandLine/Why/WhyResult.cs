using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
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
        metrics[StandardMetrics.WallTime] = Math.Round(program.WindowMs, 3);
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

        // A program watched is no batch: no ideal, no ranking, no answer of which to use; its account is the answer.
        var scenario = Summarizer.Answer(new ScenarioResult
        {
            Name = ScenarioName,
            Parameters = new Dictionary<string, string>(StringComparer.Ordinal),
            IdealMs = 0,
            IdealReason = "none: a program watched, not a batch of items",
            Baseline = name,
            Variants = [variant],
            Watched = program,
            Notes = watch.Account.Note is { } note ? [note] : [],
        }, Environment.ProcessorCount) with { Recommendations = [] };
        return new RunResult
        {
            ToolVersion = RunResult.CurrentToolVersion,
            StartedAt = startedAt.ToString("O", CultureInfo.InvariantCulture),
            Environment = EnvironmentInfo.Current(),
            Settings = new RunSettings { Repeat = 1, Seed = 0, Quick = false, Isolated = true, TrialTimeoutSec = 0, SampleIntervalMs = 0 },
            Scenarios = [scenario],
        };
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
