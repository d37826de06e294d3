using System.Text.RegularExpressions;
using ConcurrencyLab.Tests.Docs;

namespace ConcurrencyLab.Tests.Architecture;

/// <summary>
/// The built-in experiments are examples of the public extension model, except where docs/workloads.md says they
/// are not: the internal types of the core they use are exactly the ones its list names.
/// </summary>
public sealed partial class ExperimentsInternalsTests
{
    [Fact]
    public void TheInternalTypesTheExperimentsUse_AreTheOnesTheDocsList()
    {
        var core = typeof(ConcurrencyLab.Results.RunResult).Assembly;
        var experiments = typeof(ConcurrencyLab.Scenarios.ScenarioCatalog).Assembly;
        var used = experiments.GetTypes()
            .SelectMany(CompiledReferences.Of)
            .Select(Outer)
            .Where(t => t.Assembly == core && !t.IsPublic && !t.Name.StartsWith('<'))
            .Select(t => t.FullName!["ConcurrencyLab.".Length..])
            .ToHashSet(StringComparer.Ordinal);

        var page = File.ReadAllText(Path.Combine(WorkloadsPageTests.Root(), "docs", "workloads.md")).ReplaceLineEndings("\n");
        var start = page.IndexOf("| internal types | used by | why not public |", StringComparison.Ordinal);
        Assert.True(start >= 0, "docs/workloads.md should list the internal types the experiments use");
        var listed = page[start..].Split('\n').Skip(2).TakeWhile(l => l.StartsWith('|'))
            .SelectMany(row => Name().Matches(row.Split('|')[1]).Select(m => m.Groups[1].Value))
            .ToHashSet(StringComparer.Ordinal);

        Assert.NotEmpty(used);
        Assert.True(used.SetEquals(listed), $"used but not listed: {string.Join(", ", used.Except(listed).Order())}; listed but not used: {string.Join(", ", listed.Except(used).Order())}");
    }

    private static Type Outer(Type type)
    {
        while (type.IsNested)
        {
            type = type.DeclaringType!;
        }

        return type;
    }

    [GeneratedRegex("`([A-Za-z.]+)`")]
    private static partial Regex Name();
}
