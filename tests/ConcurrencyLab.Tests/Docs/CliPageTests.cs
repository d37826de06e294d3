using System.CommandLine;
using System.Text.RegularExpressions;
using ConcurrencyLab.CommandLine.Commands;
using ConcurrencyLab.Experiments;
using ConcurrencyLab.Tests.Cli;

namespace ConcurrencyLab.Tests.Docs;

/// <summary>
/// docs/cli.md and the README name options, commands, exit codes and files: each is checked against the code and the
/// repository, so a page cannot name what the tool does not have, nor leave out an option of run.
/// </summary>
public sealed partial class CliPageTests
{
    private static readonly string Root = WorkloadsPageTests.Root();

    private static string Page(params string[] path) => File.ReadAllText(Path.Combine([Root, .. path])).ReplaceLineEndings("\n");

    private static RootCommand Commands() => CommandLineRoot.Build(TestConsole.Create(new StringWriter()), ScenarioCatalog.Tool);

    [Fact]
    public void TheRunOptionsTable_NamesEveryOptionOfRun_AndNoOther()
    {
        var page = Page("docs", "cli.md");
        var start = page.IndexOf("### Options of `run`", StringComparison.Ordinal);
        Assert.True(start >= 0, "docs/cli.md should have the table of run's options");
        var rows = page[start..].Split('\n').SkipWhile(l => !l.StartsWith("| option", StringComparison.Ordinal)).Skip(2).TakeWhile(l => l.StartsWith('|')).ToList();
        var documented = rows.Select(r => OptionName().Match(r).Value).ToList();

        // run's own options, as a scenario's command has them, without the scenario's parameters (its page has those).
        var run = Commands().Subcommands.Single(c => c.Name == "run");
        var delay = run.Subcommands.Single(c => c.Name == "delay");
        var parameters = ScenarioCatalog.Tool.Single(s => s.Name == "delay").Parameters.Select(p => "--" + p.Name).ToHashSet(StringComparer.Ordinal);
        var options = run.Options.Concat(delay.Options).Select(o => o.Name).Distinct().Where(n => n.StartsWith("--", StringComparison.Ordinal) && n != "--help" && !parameters.Contains(n)).Order(StringComparer.Ordinal).ToList();

        Assert.NotEmpty(options);
        Assert.Equal(options, documented.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void TheLoadOptionsTable_NamesEveryOptionOfLoad()
    {
        var page = Page("docs", "load.md");
        var start = page.IndexOf("## Options", StringComparison.Ordinal);
        var rows = page[start..].Split('\n').SkipWhile(l => !l.StartsWith("| option", StringComparison.Ordinal)).Skip(2).TakeWhile(l => l.StartsWith('|'));
        var documented = rows.SelectMany(r => OptionAnywhere().Matches(r.Split('|')[1]).Select(m => m.Value)).ToHashSet(StringComparer.Ordinal);

        var load = Commands().Subcommands.Single(c => c.Name == "load");
        var options = load.Options.Select(o => o.Name).Where(n => n.StartsWith("--", StringComparison.Ordinal) && n != "--help").Order(StringComparer.Ordinal).ToList();
        Assert.Equal(options, documented.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void TheCommandsTable_IsTheToolsCommands()
    {
        var page = Page("docs", "cli.md");
        var table = page[page.IndexOf("| command | what it does |", StringComparison.Ordinal)..].Split('\n').Skip(2).TakeWhile(l => l.StartsWith('|'));
        var documented = table.Select(r => r.Split('`')[1].Split(' ')[0]).Order(StringComparer.Ordinal);
        Assert.Equal(Commands().Subcommands.Select(c => c.Name).Order(StringComparer.Ordinal), documented);
    }

    [Fact]
    public void TheExitCodesTable_IsExitCodes()
    {
        var page = Page("docs", "cli.md");
        var table = page[page.IndexOf("### Exit codes", StringComparison.Ordinal)..].Split('\n').SkipWhile(l => !l.StartsWith("| code", StringComparison.Ordinal)).Skip(2).TakeWhile(l => l.StartsWith('|'));
        var documented = table.Select(r => int.Parse(r.Split('`')[1], System.Globalization.CultureInfo.InvariantCulture)).Order();
        var codes = typeof(ExitCode).GetFields().Select(f => (int)f.GetValue(null)!).Order();
        Assert.Equal(codes, documented);
    }

    [Fact]
    public void EveryConclabCommandTheDocsShow_IsOneTheToolHas_AndEveryOptionOneOfThatCommand()
    {
        var commands = Commands();
        var pages = new[] { Page("README.md") }.Concat(Directory.GetFiles(Path.Combine(Root, "docs"), "*.md", SearchOption.AllDirectories).Select(File.ReadAllText));
        var problems = new List<string>();
        foreach (var line in pages.SelectMany(p => p.ReplaceLineEndings("\n").Split('\n')))
        {
            foreach (Match use in ConclabLine().Matches(line))
            {
                // A quoted argument (a command --start runs) is the argument's, not conclab's.
                // After a bare --, the words are the program's that conclab why starts, not conclab's.
                var words = Quoted().Replace(use.Groups[1].Value, "ARG").Split(' ', StringSplitOptions.RemoveEmptyEntries).TakeWhile(w => w != "--").ToArray();
                var command = commands.Subcommands.FirstOrDefault(c => c.Name == words[0]);
                if (command is null)
                {
                    problems.Add($"'{use.Value.Trim()}': no command {words[0]}");
                    continue;
                }

                // A run of one scenario takes that scenario's options too, and run's.
                if (words.Length > 1 && command.Subcommands.FirstOrDefault(c => c.Name == words[1]) is { } scenario)
                {
                    command = scenario;
                }

                var known = Ancestry(command).SelectMany(c => c.Options).SelectMany(o => o.Aliases.Append(o.Name)).Append("--help").ToHashSet(StringComparer.Ordinal);
                problems.AddRange(words.Where(w => w.StartsWith("--", StringComparison.Ordinal)).Select(w => w.Split('=')[0]).Where(w => !known.Contains(w)).Select(w => $"'{use.Value.Trim()}': {command.Name} has no option {w}"));
            }
        }

        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    [Fact]
    public void EveryLinkOfTheReadmeAndTheDocs_NamesAFileThatExists()
    {
        var missing = new List<string>();
        foreach (var file in Directory.GetFiles(Path.Combine(Root, "docs"), "*.md", SearchOption.AllDirectories).Append(Path.Combine(Root, "README.md")).Append(Path.Combine(Root, "CONTRIBUTING.md")))
        {
            foreach (Match link in Link().Matches(File.ReadAllText(file)))
            {
                var target = link.Groups[1].Value.Split('#')[0];
                if (target.Length == 0 || target.Contains("://", StringComparison.Ordinal))
                {
                    continue;
                }

                var path = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(file)!, target));
                if (!File.Exists(path) && !Directory.Exists(path))
                {
                    missing.Add($"{Path.GetRelativePath(Root, file)}: {target}");
                }
            }
        }

        Assert.Empty(missing);
    }

    [Fact]
    public void TheReadme_IsAFrontDoor_OfAtMost200Lines_WithALicence()
    {
        var readme = Page("README.md");
        Assert.True(readme.Split('\n').Length <= 200, $"README.md has {readme.Split('\n').Length} lines");
        Assert.True(File.Exists(Path.Combine(Root, "LICENSE")));
        Assert.DoesNotMatch(@"[Ii]ssue \d|\b[0-9a-f]{7,40}\b|\.\./shared", readme);
    }

    // Every option named in a cell: `--seed N`, `--out DIR`
    [GeneratedRegex(@"(?<=`)--[a-z][a-z0-9-]*")]
    private static partial Regex OptionAnywhere();

    // An issue number, a commit hash, or a day of a month.
    [GeneratedRegex(@"[Ii]ssue \d|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b|\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December)\b|\b20\d\d-\d\d-\d\d\b")]
    private static partial Regex NotebookMark();

    // A command and the commands above it, whose options it takes.
    private static IEnumerable<Command> Ancestry(Command command)
    {
        for (Command? c = command; c is not null; c = c.Parents.OfType<Command>().FirstOrDefault())
        {
            yield return c;
        }
    }

    [Fact]
    public void TheDocs_SpeakOfTheTool_NotOfItsHistory()
    {
        // No issue number, commit hash or date a figure was taken: figures say the machine and the command instead.
        var marks = Directory.GetFiles(Path.Combine(Root, "docs"), "*.md", SearchOption.AllDirectories)
            .Append(Path.Combine(Root, "README.md"))
            .SelectMany(f => File.ReadAllLines(f).Select((line, i) => (File: Path.GetRelativePath(Root, f), Line: i + 1, Text: line)))
            .Where(l => NotebookMark().IsMatch(l.Text))
            .Select(l => $"{l.File}:{l.Line}: {l.Text.Trim()}")
            .ToList();
        Assert.True(marks.Count == 0, string.Join("\n", marks));
    }

    // An option's name at the start of a table row: | `--name ...` |
    [GeneratedRegex(@"(?<=^\| `)--[a-z][a-z-]*")]
    private static partial Regex OptionName();

    // A conclab command line in a code block or in backticks: conclab run delay --quick ...
    [GeneratedRegex(@"(?:^|`)conclab ((?:[a-z][\w@.,:=/{}-]*|--[a-z][\w-]*(?:=\S+)?)(?: +(?:""[^""]*""|'[^']*'|[\w@.,:=/{}-]+|--[a-z][\w-]*))*)", RegexOptions.Multiline)]
    private static partial Regex ConclabLine();

    // A quoted argument, in double or single quotes.
    [GeneratedRegex(@"""[^""]*""|'[^']*'")]
    private static partial Regex Quoted();

    // A Markdown link to a relative path: [text](path)
    [GeneratedRegex(@"\]\(([^)\s]+)\)")]
    private static partial Regex Link();
}
