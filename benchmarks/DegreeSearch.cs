#:project ../src/ConcurrencyLab/ConcurrencyLab.csproj
#:property PublishAot=false
#:property Nullable=enable

// The degree search (--dop auto) against an exhaustive sweep of degrees 1-256 (powers of two and the whole
// midpoints between them), on mix's three documented shapes and on delay: for each strategy, the searched degree's
// median against the best of the sweep, and the trials each took. Run from the repository's root after a Release
// build; one run after another, on a machine left alone:
//
//   dotnet run benchmarks/DegreeSearch.cs -- [--shapes cpu,wait,mixed,delay] [--repeat 3] [--out DIR] [--sweeps DIR]
//
// It writes each run's results under DIR (default benchmark-results/degree-search/<UTC time>) and summary.md there.
// --sweeps DIR reads the sweeps of an earlier run of this benchmark instead of running them again (a sweep does not
// depend on the search; its run time is then not known).
using System.Diagnostics;
using System.Globalization;
using System.Text;
using ConcurrencyLab.Results;

var shapes = new (string Name, string Scenario, string[] Args, string[] Families)[]
{
    ("cpu", "mix", ["--items", "40", "--cpu-ms", "10", "--wait-ms", "0"], ["foreach-async", "channel-workers", "parallel-for"]),
    ("wait", "mix", ["--items", "200", "--cpu-ms", "0", "--wait-ms", "100"], ["foreach-async", "channel-workers", "parallel-for"]),
    ("mixed", "mix", ["--items", "200", "--cpu-ms", "4", "--wait-ms", "30"], ["foreach-async", "channel-workers", "parallel-for"]),
    ("delay", "delay", [], ["foreach-async", "channel-workers", "parallel-for"]),
};
int[] sweep = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256];

var options = Options(args);
var chosen = options.TryGetValue("shapes", out var names) ? names.Split(',') : shapes.Select(s => s.Name).ToArray();
var unknown = chosen.Where(n => shapes.All(s => s.Name != n)).ToList();
if (unknown.Count > 0 || !int.TryParse(options.GetValueOrDefault("repeat", "3"), CultureInfo.InvariantCulture, out var repeat) || repeat is < 1 or > 50)
{
    Console.Error.WriteLine($"DegreeSearch: --shapes takes {string.Join(",", shapes.Select(s => s.Name))}, --repeat 1 to 50.");
    return 2;
}

var conclab = Path.GetFullPath(Path.Combine("src", "ConcurrencyLab.Cli", "bin", "Release", "net10.0", "conclab.dll"));
if (!File.Exists(conclab))
{
    Console.Error.WriteLine($"DegreeSearch: {conclab} is not there: run from the repository's root after dotnet build -c Release.");
    return 2;
}

var root = Path.GetFullPath(options.GetValueOrDefault("out", Path.Combine("benchmark-results", "degree-search", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture))));
Directory.CreateDirectory(root);
var summary = new StringBuilder();
summary.AppendLine(CultureInfo.InvariantCulture, $"Degree search against an exhaustive sweep of {sweep.Length} degrees ({string.Join(", ", sweep)}), {repeat} trials each, no warm-up, --events off; {Environment.ProcessorCount} cores, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC.");
summary.AppendLine();
summary.AppendLine("| shape | strategy | searched: degree, median | its trials | sweep: best degree, median | its trials | searched over best | the searched degree in the sweep, over best |");
summary.AppendLine("| --- | --- | --- | ---: | --- | ---: | ---: | ---: |");
var totals = new List<(string Shape, int SearchTrials, int SweepTrials, double SearchSeconds, double SweepSeconds)>();

foreach (var shape in shapes.Where(s => chosen.Contains(s.Name)))
{
    string[] common = ["run", shape.Scenario, .. shape.Args, "--repeat", repeat.ToString(CultureInfo.InvariantCulture), "--warmup", "0", "--events", "off", "--plain"];
    var (searched, searchSeconds) = Run(conclab, [.. common, "--variants", string.Join(",", shape.Families), "--dop", "auto", "--out", Path.Combine(root, shape.Name, "searched")]);
    // A sweep measured before (--sweeps DIR) is read rather than run again: it does not depend on the search.
    var earlier = options.TryGetValue("sweeps", out var sweepsFolder) ? Path.Combine(sweepsFolder, shape.Name, "sweep", "results.json") : null;
    var (swept, sweepSeconds) = earlier is not null && File.Exists(earlier)
        ? (ResultsFile.Read(earlier), double.NaN)
        : Run(conclab, [.. common, "--variants", string.Join(",", shape.Families.SelectMany(f => sweep.Select(d => $"{f}@{d}"))), "--out", Path.Combine(root, shape.Name, "sweep")]);
    if (searched is null || swept is null)
    {
        Console.Error.WriteLine($"DegreeSearch: the {shape.Name} runs did not both finish; see {Path.Combine(root, shape.Name)}.");
        return 1;
    }

    var s = searched.Scenarios[0];
    var e = swept.Scenarios[0];
    int searchTrials = 0, sweepTrials = 0;
    foreach (var family in shape.Families)
    {
        var search = s.DegreeSearches.FirstOrDefault(d => d.Family == family);
        var confirmed = search is null ? null : s.Variants.FirstOrDefault(v => v.Name == search.Variant);
        var familySweep = e.Variants.Where(v => v.Family == family && v.Summary is not null).ToList();
        var best = familySweep.OrderBy(v => v.Summary!.MedianWallMs).FirstOrDefault();
        var atSearched = familySweep.FirstOrDefault(v => search is not null && v.WholeNumber("degree") == search.Chosen);
        var mine = (search?.Trials ?? 0) + (confirmed?.Trials.Count ?? 0);
        var theirs = e.Variants.Where(v => v.Family == family).Sum(v => v.Trials.Count);
        searchTrials += mine;
        sweepTrials += theirs;
        summary.AppendLine(CultureInfo.InvariantCulture,
            $"| {shape.Name} | {family} | {(search is null ? "no search" : $"{search.Chosen}, {Ms(confirmed?.Summary?.MedianWallMs)}")} | {mine} | {(best is null ? "none" : $"{best.WholeNumber("degree")}, {Ms(best.Summary!.MedianWallMs)}")} | {theirs} | {Ratio(confirmed?.Summary?.MedianWallMs, best?.Summary?.MedianWallMs)} | {Ratio(atSearched?.Summary?.MedianWallMs, best?.Summary?.MedianWallMs)} |");
    }

    totals.Add((shape.Name, searchTrials, sweepTrials, searchSeconds, sweepSeconds));
}

summary.AppendLine();
summary.AppendLine("| shape | search trials | sweep trials | share | search run | sweep run |");
summary.AppendLine("| --- | ---: | ---: | ---: | ---: | ---: |");
foreach (var t in totals)
{
    summary.AppendLine(CultureInfo.InvariantCulture, $"| {t.Shape} | {t.SearchTrials} | {t.SweepTrials} | {(double)t.SearchTrials / Math.Max(1, t.SweepTrials):0.00} | {t.SearchSeconds:0} s | {(double.IsNaN(t.SweepSeconds) ? "read" : $"{t.SweepSeconds:0} s")} |");
}

summary.AppendLine();
summary.AppendLine("\"searched over best\": the best median of the sweep over the searched degree's median in its own run (1 is as good as the best; the goal is at least 0.95). The last column compares within the sweep alone, free of the noise between two runs.");
File.WriteAllText(Path.Combine(root, "summary.md"), summary.ToString());
Console.WriteLine(summary);
Console.WriteLine($"Written: {Path.Combine(root, "summary.md")}");
return 0;

static (RunResult? Result, double Seconds) Run(string conclab, string[] arguments)
{
    var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true };
    start.ArgumentList.Add(conclab);
    foreach (var argument in arguments)
    {
        start.ArgumentList.Add(argument);
    }

    var clock = Stopwatch.StartNew();
    Console.WriteLine($"> conclab {string.Join(" ", arguments.Length > 40 ? [.. arguments.Take(40), "..."] : arguments)}");
    using var process = Process.Start(start)!;
    var error = process.StandardError.ReadToEndAsync();
    var output = process.StandardOutput.ReadToEnd();
    process.WaitForExit();
    var folder = arguments[Array.IndexOf(arguments, "--out") + 1];
    File.WriteAllText(Path.Combine(folder, "console.txt"), output + error.Result);
    var results = Path.Combine(folder, "results.json");
    return (process.ExitCode == 0 && File.Exists(results) ? ResultsFile.Read(results) : null, clock.Elapsed.TotalSeconds);
}

static string Ms(double? ms) => ms is { } v ? v.ToString(v >= 1000 ? "#,0" : "0.#", CultureInfo.InvariantCulture) + " ms" : "-";

static string Ratio(double? mine, double? best) => mine is > 0 && best is { } b ? (b / mine.Value).ToString("0.00", CultureInfo.InvariantCulture) : "-";

static Dictionary<string, string> Options(string[] args)
{
    var options = new Dictionary<string, string>(StringComparer.Ordinal);
    for (var i = 0; i + 1 < args.Length; i += 2)
    {
        options[args[i].TrimStart('-')] = args[i + 1];
    }

    return options;
}
