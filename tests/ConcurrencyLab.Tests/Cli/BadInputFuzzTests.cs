using System.CommandLine;
using System.Diagnostics;
using ConcurrencyLab.CommandLine.Commands;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>
/// Command lines a hostile or careless user types, generated: each holds at least one element that cannot be
/// right (a value no option takes, an option no command has, a file that is not a results file), among valid
/// ones in any order. Whatever the line, conclab must answer in one line, with exit code 2, at once, and
/// leave nothing behind. The options come from conclab's own command tree, so a new option is fuzzed too.
/// </summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class BadInputFuzzTests : IDisposable
{
    private const int Cases = 4000;

    // Fixed, so a failing line is the same on every machine and can be rerun by hand.
    private const int Seed = 20261123;

    // Far above the few milliseconds a refusal takes, far below the seconds any trial would.
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    private readonly string _folder = Directory.CreateTempSubdirectory("conclab-fuzz-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public async Task EveryGeneratedBadCommandLine_IsRefusedInOneLine_WithExitCode2_AtOnce_LeavingNothing()
    {
        var inputs = new BadInputs(_folder);
        var generator = new Generator(new Random(Seed), inputs);
        var workingFolder = Environment.CurrentDirectory;
        var before = Snapshot(_folder).Concat(Snapshot(workingFolder)).ToHashSet();
        var failures = new List<string>();
        var slowest = TimeSpan.Zero;
        var total = Stopwatch.StartNew();

        for (var i = 0; i < Cases && failures.Count < 10; i++)
        {
            var args = generator.Next();
            var started = Stopwatch.GetTimestamp();
            var (exitCode, error, output) = await Conclab.InvokeAsync(args);
            var elapsed = Stopwatch.GetElapsedTime(started);
            slowest = elapsed > slowest ? elapsed : slowest;
            var lines = error.TrimEnd('\n').Split('\n');
            var problem =
                exitCode != 2 ? $"exit {exitCode}" :
                lines.Length != 1 ? $"{lines.Length} lines on stderr" :
                !lines[0].StartsWith("conclab: ", StringComparison.Ordinal) ? "stderr does not start with 'conclab: '" :
                (error + output).Contains("   at ", StringComparison.Ordinal) ? "a stack trace" :
                elapsed > Bound ? $"took {elapsed.TotalSeconds:0.0} s" :
                null;
            if (problem is not null)
            {
                failures.Add($"{problem}: conclab {Show(args)}\n    stderr: {Show(error)}");
            }
        }

        var left = Snapshot(_folder).Concat(Snapshot(workingFolder)).Where(p => !before.Contains(p)).ToList();
        Assert.True(failures.Count == 0, $"{failures.Count} of the lines failed:\n{string.Join("\n", failures)}");
        Assert.True(left.Count == 0, $"bad command lines left files behind: {string.Join(", ", left)}");
        Assert.True(generator.Generated >= 1000, $"{generator.Generated} lines generated");

        // What the closing note reports: how many, how long.
        Console.WriteLine($"{generator.Generated} bad command lines in {total.Elapsed.TotalSeconds:0.0} s, the slowest {slowest.TotalMilliseconds:0} ms");
    }

    private static IEnumerable<string> Snapshot(string folder) =>
        Directory.EnumerateFileSystemEntries(folder, "*", new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true, AttributesToSkip = 0 });

    private static string Show(string text) => text.Length > 300 ? text[..300] + $"... ({text.Length} characters)" : text.Replace("\n", "\\n", StringComparison.Ordinal).Replace("\0", "\\0", StringComparison.Ordinal);

    private static string Show(string[] args) => string.Join(' ', args.Select(a => a.Length == 0 ? "''" : a.Contains(' ', StringComparison.Ordinal) ? $"'{Show(a)}'" : Show(a)));

    /// <summary>Files that are not results files, and targets no output may go to, made once in the test's folder.</summary>
    internal sealed class BadInputs
    {
        public BadInputs(string folder)
        {
            Folder = folder;
            var empty = Path.Combine(folder, "empty.json");
            File.WriteAllText(empty, string.Empty);
            var garbage = Path.Combine(folder, "garbage.json");
            File.WriteAllText(garbage, "{ this is not json");
            var array = Path.Combine(folder, "array.json");
            File.WriteAllText(array, "[1, 2, 3]");
            var future = Path.Combine(folder, "future.json");
            File.WriteAllText(future, """{ "schemaVersion": 99, "scenarios": [] }""");
            var binary = Path.Combine(folder, "binary.json");
            var bytes = new byte[4096];
            new Random(Seed).NextBytes(bytes);
            File.WriteAllBytes(binary, bytes);
            var deep = Path.Combine(folder, "deep.json");
            File.WriteAllText(deep, new string('[', 100_000));
            var subfolder = Directory.CreateDirectory(Path.Combine(folder, "a-folder")).FullName;
            NotResults = [empty, garbage, array, future, binary, deep, subfolder, Path.Combine(folder, "missing.json"), "/dev/null", "/proc", "", " ", "\0", new string('x', 5000)];
            NotFiles = ["", subfolder, "/proc", folder + "/", new string('n', 300)];
        }

        public string Folder { get; }

        /// <summary>Paths report and compare cannot read results from.</summary>
        public IReadOnlyList<string> NotResults { get; }

        /// <summary>Values no option naming a file to write (--json, --markdown) accepts.</summary>
        public IReadOnlyList<string> NotFiles { get; }
    }

    /// <summary>Makes the lines: one chosen kind of certain mistake, with valid options around it, shuffled.</summary>
    private sealed class Generator
    {
        // Values no number, count, duration, size or list of them is: every option that takes a number refuses them.
        private static readonly string[] NotNumbers =
        [
            "", " ", "abc", "NaN", "Infinity", "-Infinity", "1e999", "-1e999", "99999999999999999999999999", "0x1F", "1..2", "--", "-",
            "1,,2", ",", "½", "١٢", "1 2", "1\n2", "\0", "\t", "🙂", new string('9', 10_000), "1;rm -rf /", "$(echo 1)", "%s%s%s", "1e", "e1", ".", "+-1",
        ];

        // Values no variant list accepts (names are trimmed, so "whenall\n" is whenall).
        private static readonly string[] NotVariants = ["", ",,,", " ", "zzz", "@", "@4", "whenall@", "whenall@0", "whenall@-1", "whenall@abc", "whenall@1e99", "whenall@4@4", "whenall-", "-whenall", "whenall,,zzz", "when all", "\0", "whenall\0", new string('w', 10_000)];

        // Words no command or option is ("--" alone would end the options; "/?" asks for help, and so does "-h-",
        // read as -h and more).
        private static readonly string[] Words = ["rnu", "RUN", "Run", "runs", "lst", "comapre", "reprot", "benchmark", "-", "---", "-x", "\0", "🙂", "run\n", " run"];

        private readonly Random _random;
        private readonly BadInputs _inputs;
        private readonly RootCommand _root;
        private readonly List<Command> _scenarioCommands;

        public Generator(Random random, BadInputs inputs)
        {
            _random = random;
            _inputs = inputs;
            _root = CommandLineRoot.Build(TestConsole.Create(new StringWriter()), ScenarioCatalog.BuiltIn);
            _scenarioCommands = [.. _root.Subcommands.Single(c => c.Name == "run").Subcommands.Where(c => c.Name != RunCommand.AllScenarios)];
            Assert.Equal(ScenarioCatalog.BuiltIn.Count, _scenarioCommands.Count);
        }

        public int Generated { get; private set; }

        public string[] Next()
        {
            Generated++;
            return _random.Next(10) switch
            {
                < 4 => RunWithABadValue(),
                4 => RunWithBadVariants(),
                5 => RunWithAStrayWord(),
                6 => Report(),
                7 => Compare(),
                8 => Stray(),
                _ => RunWithSeveralMistakes(),
            };
        }

        private string[] RunWithABadValue()
        {
            var scenario = Pick(_scenarioCommands);
            var (option, value) = BadValue(scenario);
            return Run(scenario, [[option, value]]);
        }

        private string[] RunWithBadVariants() => Run(Pick(_scenarioCommands), [["--variants", Pick(NotVariants)]]);

        private string[] RunWithAStrayWord()
        {
            var scenario = Pick(_scenarioCommands);
            string[] stray = _random.Next(3) switch
            {
                0 => ["--" + Pick(Words).Trim('-') + "x"],
                1 => [Pick(Words) + "z"],

                // An option of another scenario: scan's --hosts means nothing to delay.
                _ => [OtherScenarioOption(scenario), "1"],
            };
            return Run(scenario, [stray]);
        }

        private string[] RunWithSeveralMistakes()
        {
            var scenario = Pick(_scenarioCommands);
            var mistakes = new List<string[]>();
            for (var n = 1 + _random.Next(3); n > 0; n--)
            {
                var (option, value) = BadValue(scenario);
                mistakes.Add([option, value]);
            }

            return Run(scenario, mistakes);
        }

        private string[] Run(Command scenario, List<string[]> mistakes)
        {
            // --quick, so a line wrongly taken for a good one costs seconds, not minutes, before the test fails.
            var parts = new List<string[]> { new[] { "--quick" } };
            parts.AddRange(mistakes);
            foreach (var noise in new[] { ["--plain"], ["--repeat", "1"], ["--warmup", "0"], ["--seed", "7"], ["--no-prime"], new[] { "--out", Path.Combine(_inputs.Folder, "out") } })
            {
                if (_random.Next(4) == 0 && !parts.Any(p => p[0] == noise[0]))
                {
                    parts.Add(noise);
                }
            }

            _random.Shuffle(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(parts));
            return ["run", scenario.Name, .. parts.SelectMany(p => p)];
        }

        private (string Option, string Value) BadValue(Command scenario)
        {
            var options = ValueOptions(scenario).ToList();
            var option = Pick(options);
            return option.Name switch
            {
                "--variants" => (option.Name, Pick(NotVariants)),
                "--json" => (option.Name, Pick(_inputs.NotFiles)),
                "--out" => (option.Name, ""),

                // A folder is what --dir names: only an empty name is certainly wrong.
                "--dir" => (option.Name, ""),
                "--baseline" => (option.Name, Pick(NotVariants)),
                _ => (option.Name, Pick(NotNumbers)),
            };
        }

        private IEnumerable<Option> ValueOptions(Command scenario) =>
            scenario.Options.Concat(_root.Subcommands.Single(c => c.Name == "run").Options.Where(o => o.Recursive))
                .Where(o => o.ValueType != typeof(bool) && !o.Hidden && o.Name is not ("--help" or "--version"))

                // Options of words, not numbers, whose every wrong word is refused: their own values are tried elsewhere.
                .Where(o => o.Name is not ("--targets" or "--timer" or "--cache" or "--allow-non-loopback" or "--form"));

        private string OtherScenarioOption(Command scenario)
        {
            var own = scenario.Options.Select(o => o.Name).ToHashSet();
            var others = _scenarioCommands.Where(c => c != scenario).SelectMany(c => c.Options).Select(o => o.Name).Where(n => !own.Contains(n)).Distinct().ToList();
            return others.Count > 0 ? Pick(others) : "--no-such-option";
        }

        private string[] Report()
        {
            var good = Path.Combine(_inputs.Folder, "missing-but-named.json");
            return _random.Next(4) switch
            {
                0 => ["report"],
                1 => ["report", Pick(_inputs.NotResults)],
                2 => ["report", Pick(_inputs.NotResults), "--out", Pick(_inputs.NotFiles)],
                _ => ["report", good, Pick(Words) + "z"],
            };
        }

        private string[] Compare() => _random.Next(4) switch
        {
            0 => ["compare"],
            1 => ["compare", Pick(_inputs.NotResults)],
            2 => ["compare", Pick(_inputs.NotResults), Pick(_inputs.NotResults)],
            _ => ["compare", Pick(_inputs.NotResults), Pick(_inputs.NotResults), "--markdown", Pick(_inputs.NotFiles)],
        };

        private string[] Stray() => _random.Next(3) switch
        {
            0 => [Pick(Words)],
            1 => ["list", Pick(Words) + "z"],
            _ => ["run", Pick(Words) + "z", "--quick"],
        };

        private T Pick<T>(IReadOnlyList<T> items) => items[_random.Next(items.Count)];
    }
}
