using System.Reflection;
using System.Text.RegularExpressions;
using ConcurrencyLab.Tests.Docs;

namespace ConcurrencyLab.Tests.Architecture;

/// <summary>
/// The built-in experiments are examples of the public extension model, except where docs/workloads.md says they
/// are not: the internal types of the core they use, and the internal members of its public types they call or
/// override, are exactly the ones its list names.
/// </summary>
public sealed partial class ExperimentsInternalsTests
{
    [Fact]
    public void TheInternalTypesTheExperimentsUse_AreTheOnesTheDocsList()
    {
        var core = typeof(ConcurrencyLab.Results.RunResult).Assembly;
        var experiments = typeof(ConcurrencyLab.Experiments.ScenarioCatalog).Assembly;
        var used = experiments.GetTypes()
            .SelectMany(CompiledReferences.Of)
            .Select(CompiledReferences.Outer)
            .Where(t => t.Assembly == core && !t.IsPublic && !t.Name.StartsWith('<'))
            .Select(t => t.FullName!["ConcurrencyLab.".Length..])
            .ToHashSet(StringComparer.Ordinal);

        // And the internal members of public types: called, read, or overridden.
        const BindingFlags declared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        var methods = experiments.GetTypes().SelectMany(t => t.GetMethods(declared).Cast<MethodBase>().Concat(t.GetConstructors(declared))).ToList();
        IEnumerable<MemberInfo> members =
        [
            .. methods.SelectMany(CompiledReferences.BodyMembers),
            .. methods.OfType<MethodInfo>().Select(m => m.GetBaseDefinition()).Where(b => b.DeclaringType?.Assembly == core),
        ];
        foreach (var member in members.Where(m => m.DeclaringType is { } d && d.Assembly == core && CompiledReferences.Outer(d).IsPublic && Hidden(m)))
        {
            var name = member.Name.StartsWith("get_", StringComparison.Ordinal) || member.Name.StartsWith("set_", StringComparison.Ordinal) ? member.Name[4..] : member.Name;
            used.Add($"{member.DeclaringType!.FullName!["ConcurrencyLab.".Length..]}.{name}");
        }


        var page = File.ReadAllText(Path.Combine(WorkloadsPageTests.Root(), "docs", "workloads.md")).ReplaceLineEndings("\n");
        var start = page.IndexOf("| internal types | used by | why not public |", StringComparison.Ordinal);
        Assert.True(start >= 0, "docs/workloads.md should list the internal types the experiments use");
        var listed = page[start..].Split('\n').Skip(2).TakeWhile(l => l.StartsWith('|'))
            .SelectMany(row => Name().Matches(row.Split('|')[1]).Select(m => m.Groups[1].Success ? m.Groups[1].Value : m.Groups[2].Value))
            .ToHashSet(StringComparer.Ordinal);

        Assert.NotEmpty(used);
        Assert.True(used.SetEquals(listed), $"used but not listed: {string.Join(", ", used.Except(listed).Order())}; listed but not used: {string.Join(", ", listed.Except(used).Order())}");
    }

    // Not visible to a user's code: neither public nor protected (internal, private protected, private).
    private static bool Hidden(MemberInfo member) => member switch
    {
        MethodBase m => !(m.IsPublic || m.IsFamily || m.IsFamilyOrAssembly),
        FieldInfo f => !(f.IsPublic || f.IsFamily || f.IsFamilyOrAssembly),
        _ => false,
    };


    [GeneratedRegex("^\\s*`([A-Za-z.]+)`|, `([A-Za-z.]+)`")]
    private static partial Regex Name();
}
