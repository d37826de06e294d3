#:property PublishAot=false
#:property Nullable=enable

// The largest results files conclab report and conclab compare accept (ResultsFile.MaxVariants, MaxTrials, MaxBytes),
// made from a real run, and how long each command takes on them and how much memory it holds at its peak (GNU time).
// The limits promise the largest accepted file within 10 s and 1 GiB; this is where that is measured. Run from the
// repository's root after `dotnet build -c Release ConcurrencyLab.slnx`, one run after another on a machine left alone:
//
//   dotnet run benchmarks/LargeResults.cs -- [--rounds 3] [--fill-mib 64] [--out DIR]
//
// It writes summary.md under DIR (default benchmark-results/large-results/<UTC time>) and deletes the files it made.
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json.Nodes;

var options = args.Select((a, i) => (a, i)).Where(p => p.a.StartsWith("--", StringComparison.Ordinal) && p.i + 1 < args.Length).ToDictionary(p => p.a[2..], p => args[p.i + 1]);
var rounds = int.Parse(options.GetValueOrDefault("rounds", "3"), CultureInfo.InvariantCulture);
var output = Path.GetFullPath(options.GetValueOrDefault("out", Path.Combine("benchmark-results", "large-results", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture))));
var conclab = Path.GetFullPath(Path.Combine("src", "ConcurrencyLab.Cli", "bin", "Release", "net10.0", "conclab.dll"));
if (!File.Exists(conclab) || !File.Exists("/usr/bin/time"))
{
    Console.Error.WriteLine("needs a Release build of conclab (dotnet build -c Release ConcurrencyLab.slnx) and GNU time (/usr/bin/time)");
    return 2;
}

Directory.CreateDirectory(output);
var work = Path.Combine(output, "files");
Directory.CreateDirectory(work);
try
{
    // A real run to copy from: two variants, three trials each, with their samples.
    Run("dotnet", conclab, "run", "delay", "--quick", "--variants", "whenall,channel", "--repeat", "3", "--plain", "--out", Path.Combine(work, "base"));
    var template = JsonNode.Parse(File.ReadAllText(Path.Combine(work, "base", "results.json")))!;

    // The most variants and trials accepted, as the run wrote them; then the same, padded with samples to the byte limit.
    const int variants = 2_000, trialsEach = 5;
    var maxBytes = long.Parse(options.GetValueOrDefault("fill-mib", "64"), CultureInfo.InvariantCulture) << 20;
    var counted = Make(work, template, variants, trialsEach, samplesEach: null);
    var full = Make(work, template, variants, trialsEach, samplesEach: SamplesToFill(template, variants * trialsEach, maxBytes - (2L << 20) - new FileInfo(counted).Length));
    var files = new[] { ("2,000 variants x 5 trials", counted), ($"the same, padded with samples toward {maxBytes >> 20} MiB", full) };
    var summary = new StringBuilder("| file | size | command | wall s (each round) | peak memory MiB (each round) |\n| --- | --- | --- | --- | --- |\n");
    foreach (var (what, path) in files)
    {
        foreach (var command in new[] { "report", "compare" })
        {
            var walls = new List<string>();
            var peaks = new List<string>();
            for (var round = 0; round < rounds; round++)
            {
                var reportFolder = Path.Combine(work, $"report-{round}");
                string[] arguments = command == "report" ? ["report", path, "--out", reportFolder] : ["compare", path, path];
                var (wall, peakKb, exit) = Timed(conclab, arguments);
                walls.Add(wall.ToString("0.00", CultureInfo.InvariantCulture) + (exit is 0 or 1 ? string.Empty : $" (exit {exit})"));
                peaks.Add((peakKb / 1024.0).ToString("0", CultureInfo.InvariantCulture));
                if (Directory.Exists(reportFolder))
                {
                    Directory.Delete(reportFolder, recursive: true);
                }
            }

            summary.Append(CultureInfo.InvariantCulture, $"| {what} | {new FileInfo(path).Length / (1024.0 * 1024):0} MiB | {command} | {string.Join(", ", walls)} | {string.Join(", ", peaks)} |\n");
        }
    }

    File.WriteAllText(Path.Combine(output, "summary.md"), summary.ToString());
    Console.Write(summary);
    return 0;
}
finally
{
    Directory.Delete(work, recursive: true);
}

static string Make(string folder, JsonNode template, int variants, int trialsEach, int? samplesEach)
{
    var root = template.DeepClone();
    var scenario = root["scenarios"]![0]!;
    var first = scenario["variants"]![0]!;
    var trials = first["trials"]!.AsArray();
    var list = new JsonArray();
    for (var v = 0; v < variants; v++)
    {
        var variant = first.DeepClone();
        variant["name"] = $"whenall-{v}";
        var own = new JsonArray();
        for (var t = 0; t < trialsEach; t++)
        {
            var trial = trials[t % trials.Count]!.DeepClone();
            if (samplesEach is { } count)
            {
                var samples = trial["samples"]!.AsArray();
                var sample = samples[^1]!;
                while (samples.Count < count)
                {
                    samples.Add(sample.DeepClone());
                }
            }

            own.Add(trial);
        }

        variant["trials"] = own;
        list.Add(variant);
    }

    scenario["variants"] = list;
    // In the work folder, which goes when the benchmark ends: these files are hundreds of MB.
    var path = Path.Combine(folder, $"large-{variants}-{samplesEach ?? 0}.json");
    File.WriteAllText(path, root.ToJsonString());
    return path;
}

// Samples in each trial for the file to grow by about the given bytes over its unpadded size.
static int SamplesToFill(JsonNode template, int trials, long bytes)
{
    var samples = template["scenarios"]![0]!["variants"]![0]!["trials"]![0]!["samples"]!.AsArray();
    var sample = samples[^1]!.ToJsonString().Length + 1;
    return samples.Count + (int)(bytes / trials / sample);
}

static void Run(string program, params string[] arguments)
{
    using var process = Process.Start(new ProcessStartInfo(program, arguments) { RedirectStandardOutput = true, RedirectStandardError = true })!;
    _ = process.StandardOutput.ReadToEndAsync();
    _ = process.StandardError.ReadToEndAsync();
    process.WaitForExit();
    if (process.ExitCode != 0)
    {
        throw new InvalidOperationException($"{program} {string.Join(' ', arguments)} exited {process.ExitCode}");
    }
}

// Wall time and peak resident memory of one command, as GNU time reports them.
static (double Wall, long PeakKb, int Exit) Timed(string conclab, string[] arguments)
{
    var info = new ProcessStartInfo("/usr/bin/time", ["-f", "%e %M", "dotnet", conclab, .. arguments]) { RedirectStandardOutput = true, RedirectStandardError = true };
    using var process = Process.Start(info)!;
    _ = process.StandardOutput.ReadToEndAsync();
    var errors = process.StandardError.ReadToEnd();
    process.WaitForExit();
    var last = errors.TrimEnd().Split('\n')[^1].Split(' ');
    return (double.Parse(last[0], CultureInfo.InvariantCulture), long.Parse(last[1], CultureInfo.InvariantCulture), process.ExitCode);
}
