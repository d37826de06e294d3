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
        var name = Name(program.CommandLine);
        var variant = Variant(name, program.CommandLine, watch.Account, program.WindowMs);

        // Each child a variant of its own, after the program, named by its program and told apart by its process where two share it.
        var names = new HashSet<string>([name], StringComparer.Ordinal);
        var variants = new List<VariantResult> { variant };
        foreach (var (child, account) in program.Children.Zip(watch.ChildAccounts))
        {
            var childName = Name(child.CommandLine);
            if (!names.Add(childName))
            {
                childName += "-" + child.ProcessId.ToString(CultureInfo.InvariantCulture);
                names.Add(childName);
            }

            variants.Add(Variant(childName, child.CommandLine, account, child.WindowMs));
        }

        var notes = new List<string>();
        if (watch.Account.Note is { } note)
        {
            notes.Add(note);
        }

        if (watch.ChildrenNotWatched > 0)
        {
            notes.Add($"{watch.ChildrenNotWatched.ToString(CultureInfo.InvariantCulture)} more .NET children were not watched: at most " +
                $"{ChildWatch.MostChildren.ToString(CultureInfo.InvariantCulture)} are, each costing the stack profiler's samples");
        }

        // A program watched is no batch: no ideal, no ranking, no answer of which to use; its account is the answer.
        var scenario = Summarizer.Answer(new ScenarioResult
        {
            Name = ScenarioName,
            Parameters = new Dictionary<string, string>(StringComparer.Ordinal),
            IdealMs = 0,
            IdealReason = "none: a program watched, not a batch of items",
            Baseline = name,
            Variants = variants,
            Watched = program,
            Notes = notes,
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

    // A watched process as a variant: its window the one trial, with the metrics its account gives and the window's length.
    private static VariantResult Variant(string name, IReadOnlyList<string> commandLine, RuntimeAccount account, double windowMs)
    {
        var metrics = StandardMetrics.Read(account);
        metrics[StandardMetrics.WallTime] = Math.Round(windowMs, 3);
        var trial = new TrialResult { Repeat = 0, Status = TrialStatus.Ok, Isolated = true, Metrics = metrics, Runtime = account };
        return new VariantResult
        {
            Name = name,
            Description = string.Join(' ', commandLine),
            Status = TrialStatus.Ok,
            Trials = [trial],
            Summary = Summarizer.Summarise([trial], 0, null, []),
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
