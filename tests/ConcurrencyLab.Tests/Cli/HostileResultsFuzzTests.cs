using System.Diagnostics;
using System.Text.Json.Nodes;
using ConcurrencyLab.Reporting;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>
/// Results files someone sent you, generated from real ones by breaking one thing at a time: a null where a value
/// belongs, a value of the wrong type, a name that climbs out of a folder or drives a terminal, a number out of range,
/// an array grown huge, a value nested deep. <c>report</c> and <c>compare</c> must each give a report or a one-line
/// refusal (exit 0, 1 or 2), never a stack trace, within a bound, and never write outside their output folder.
/// </summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class HostileResultsFuzzTests : IDisposable
{
    private const int Seed = 20261128;
    private const int CasesPerBase = 150;
    private const string Hostile = "../../../pwned\u001b]0;title\u0007\u001b[2J<script>alert(1)</script>|`x`";
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    private readonly string _folder = Directory.CreateTempSubdirectory("conclab-hostile-results-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public async Task EveryHostileResultsFile_IsReportedOrRefusedInOneLine_AndNothingLandsOutsideItsFolder()
    {
        var sample = new StringWriter();
        JsonExporter.Default.Export(Reporting.ExporterTests.SampleRun(), sample);
        string[] bases =
        [
            sample.ToString(),
            await File.ReadAllTextAsync(Path.Combine(Docs.WorkloadsPageTests.Root(), "tests", "ConcurrencyLab.Tests", "Results", "Files", "v1-fanout.json")),
        ];
        var random = new Random(Seed);
        var failures = new List<string>();
        var cases = 0;
        foreach (var text in bases)
        {
            var paths = Paths(JsonNode.Parse(text)!, "$").ToList();
            for (var i = 0; i < CasesPerBase && failures.Count < 10; i++)
            {
                var root = JsonNode.Parse(text)!;
                var (path, node) = paths[random.Next(paths.Count)];
                var mutation = Mutate(root, path, random);
                cases++;
                var input = Path.Combine(_folder, $"case-{cases}.json");
                await File.WriteAllTextAsync(input, mutation.Json);
                var output = Path.Combine(_folder, $"out-{cases}");
                foreach (var args in new[] { new[] { "report", input, "--out", output }, ["compare", input, input] })
                {
                    var before = Directory.EnumerateFileSystemEntries(_folder, "*", SearchOption.AllDirectories).Where(p => !p.StartsWith(output, StringComparison.Ordinal)).ToHashSet();
                    var started = Stopwatch.GetTimestamp();
                    (int ExitCode, string Error, string Output) result;
                    try
                    {
                        result = await Conclab.InvokeAsync(args);
                    }
                    catch (Exception ex)
                    {
                        failures.Add($"{args[0]} of {mutation.What} at {path}: threw {ex.ToString()[..Math.Min(1500, ex.ToString().Length)]}");
                        continue;
                    }

                    var elapsed = Stopwatch.GetElapsedTime(started);
                    var lines = result.Error.TrimEnd('\n').Split('\n');
                    var outside = Directory.EnumerateFileSystemEntries(_folder, "*", SearchOption.AllDirectories).Where(p => !p.StartsWith(output, StringComparison.Ordinal) && !before.Contains(p)).ToList();
                    var problem =
                        result.ExitCode is not (0 or 1 or 2) ? $"exit {result.ExitCode}" :
                        result.ExitCode == 2 && lines.Length != 1 ? $"{lines.Length} lines on stderr" :
                        (result.Error + result.Output).Contains("   at ", StringComparison.Ordinal) ? "a stack trace" :
                        result.Output.Contains('\u001b', StringComparison.Ordinal) ? "a terminal escape from the file reached the output" :
                        outside.Count > 0 ? $"wrote outside its folder: {string.Join(", ", outside)}" :
                        Markup(output) is { } markup ? markup :
                        elapsed > Bound ? $"took {elapsed.TotalSeconds:0.0} s" :
                        null;
                    if (problem is not null)
                    {
                        failures.Add($"{args[0]} of {mutation.What} at {path}: {problem}; stderr: {result.Error[..Math.Min(300, result.Error.Length)]}");
                    }
                }

                if (Directory.Exists(output))
                {
                    Directory.Delete(output, recursive: true);
                }

                File.Delete(input);
            }
        }

        Assert.True(failures.Count == 0, $"{failures.Count} of {cases} cases failed:\n" + string.Join("\n", failures));
    }

    // A report that carries markup from the file as markup: a script in its HTML, or in its Markdown, which a
    // Markdown viewer renders as HTML.
    private static string? Markup(string folder)
    {
        var html = Path.Combine(folder, "report.html");
        if (File.Exists(html) && File.ReadAllText(html).Contains("<script>alert", StringComparison.OrdinalIgnoreCase))
        {
            return "report.html carries the file's <script> as markup";
        }

        // In Markdown a tag is text when escaped (\<) or inside a code span.
        var markdown = Path.Combine(folder, "results.md");
        if (File.Exists(markdown)
            && System.Text.RegularExpressions.Regex.IsMatch(System.Text.RegularExpressions.Regex.Replace(File.ReadAllText(markdown), @"(`+)(?s:.+?)\1", string.Empty), @"(?<!\\)<script>alert"))
        {
            return "results.md carries the file's <script> as markup";
        }

        return null;
    }

    // Every value's path ($.scenarios[0].name) and node, objects and arrays included.
    private static IEnumerable<(string Path, JsonNode? Node)> Paths(JsonNode node, string path)
    {
        yield return (path, node);
        switch (node)
        {
            case JsonObject obj:
                foreach (var (key, value) in obj)
                {
                    foreach (var child in value is null ? [($"{path}.{key}", null)] : Paths(value, $"{path}.{key}"))
                    {
                        yield return child;
                    }
                }

                break;
            case JsonArray array:
                for (var i = 0; i < array.Count; i++)
                {
                    foreach (var child in array[i] is { } item ? Paths(item, $"{path}[{i}]") : [($"{path}[{i}]", null)])
                    {
                        yield return child;
                    }
                }

                break;
        }
    }

    private static (string What, string Json) Mutate(JsonNode root, string path, Random random)
    {
        var target = Find(root, path);
        var kind = random.Next(6);
        JsonNode? replacement;
        string what;
        switch (kind)
        {
            case 0:
                (replacement, what) = (null, "a null");
                break;
            case 1:
                (replacement, what) = target switch
                {
                    JsonValue v when v.TryGetValue<string>(out _) => ((JsonNode?)JsonValue.Create(12), "a number for a string"),
                    JsonValue => ((JsonNode?)JsonValue.Create("twelve"), "a string for a value"),
                    JsonObject => ((JsonNode?)new JsonArray(), "an array for an object"),
                    _ => ((JsonNode?)new JsonObject(), "an object for an array"),
                };
                break;
            case 2:
                (replacement, what) = (JsonValue.Create(Hostile), "a hostile string");
                break;
            case 3:
                (replacement, what) = (JsonValue.Create(1e300), "a huge number");
                break;
            case 4 when target is JsonArray { Count: > 0 } array:
                var grown = new JsonArray();
                for (var i = 0; i < 3000; i++)
                {
                    grown.Add(array[0]?.DeepClone());
                }

                (replacement, what) = (grown, "an array grown to 3000 entries");
                break;
            default:
                // Put in as text: a nesting this deep is more than the writer itself will write.
                (replacement, what) = (JsonValue.Create(DeepMark), "a value nested 2000 deep");
                break;
        }

        var deep = new string('[', 2000) + "1" + new string(']', 2000);
        if (path == "$")
        {
            return (what + " for the whole file", replacement?.ToJsonString().Replace($"\"{DeepMark}\"", deep, StringComparison.Ordinal) ?? "null");
        }

        var (parent, key, index) = Parent(root, path);
        if (parent is JsonObject o)
        {
            o[key!] = replacement;
        }
        else if (parent is JsonArray a)
        {
            a[index] = replacement;
        }

        return (what, root.ToJsonString().Replace($"\"{DeepMark}\"", deep, StringComparison.Ordinal));
    }

    private const string DeepMark = "__nested_deep__";

    private static JsonNode? Find(JsonNode root, string path)
    {
        if (path == "$")
        {
            return root;
        }

        var (parent, key, index) = Parent(root, path);
        return parent is JsonObject o ? o[key!] : ((JsonArray)parent!)[index];
    }

    // The node that holds the value at path, and the value's key or index there.
    private static (JsonNode? Parent, string? Key, int Index) Parent(JsonNode root, string path)
    {
        JsonNode? node = root;
        var parts = System.Text.RegularExpressions.Regex.Matches(path[1..], @"\.([^.\[]+)|\[(\d+)\]").ToList();
        for (var i = 0; i < parts.Count - 1; i++)
        {
            node = parts[i].Groups[1].Success ? node![parts[i].Groups[1].Value] : node![int.Parse(parts[i].Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture)];
        }

        var last = parts[^1];
        return last.Groups[1].Success ? (node, last.Groups[1].Value, -1) : (node, null, int.Parse(last.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture));
    }
}
