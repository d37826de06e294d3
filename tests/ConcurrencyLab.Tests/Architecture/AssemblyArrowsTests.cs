using System.Reflection;

namespace ConcurrencyLab.Tests.Architecture;

/// <summary>
/// The arrows between the lab's assemblies, and the folder-arrows rule inside each assembly around the core (the
/// command line's root, Commands and Rendering; each experiment's folder; the load generator; the charts; the tool).
/// Read from the compiled assemblies as the core's are; no new arrow may close a cycle, and the debt below can only
/// shrink.
/// </summary>
public sealed class AssemblyArrowsTests
{
    // Arrows that close a cycle today. Each is a design to mend, not a line to add to.
    private static readonly Dictionary<string, (string From, string To, string Why)[]> Debt = new(StringComparer.Ordinal)
    {
        ["ConcurrencyLab.CommandLine"] =
        [
            ("(root)", "Commands", "LabProgram hands its arguments to the command tree (CommandLineRoot)"),
            ("Commands", "(root)", "the commands return ExitCode and read LabProgramOptions, public types of the root namespace a user's program names"),
        ],
        ["ConcurrencyLab.Experiments"] = [],
        ["ConcurrencyLab.Reproduction"] = [],
    };

    public static TheoryData<string> Assemblies =>
        ["ConcurrencyLab.CommandLine", "ConcurrencyLab.Experiments", "ConcurrencyLab.Load", "ConcurrencyLab.Reproduction", "ConcurrencyLab.Charts", "conclab"];

    // Which of the lab's assemblies each may reference: the core none, each product the core, the experiments the
    // reproducer their claims are written for, the command line the products it runs, the tool everything. The load
    // generator and the reproducer never reference each other, the experiments or the command line.
    private static readonly Dictionary<string, string[]> Allowed = new(StringComparer.Ordinal)
    {
        ["ConcurrencyLab"] = [],
        ["ConcurrencyLab.Load"] = ["ConcurrencyLab"],
        ["ConcurrencyLab.Reproduction"] = ["ConcurrencyLab"],
        ["ConcurrencyLab.Charts"] = ["ConcurrencyLab"],
        ["ConcurrencyLab.Experiments"] = ["ConcurrencyLab", "ConcurrencyLab.Reproduction"],
        ["ConcurrencyLab.CommandLine"] = ["ConcurrencyLab", "ConcurrencyLab.Load", "ConcurrencyLab.Reproduction"],
        ["conclab"] =
        [
            "ConcurrencyLab", "ConcurrencyLab.Load", "ConcurrencyLab.Reproduction", "ConcurrencyLab.Charts", "ConcurrencyLab.Experiments",
            "ConcurrencyLab.CommandLine",
        ],
    };

    // Which assemblies each lab assembly grants its internals to, each grant stated with why in its project file: a new
    // one fails here until it is added, so every widening of a boundary is reviewed.
    private static readonly Dictionary<string, string[]> Grants = new(StringComparer.Ordinal)
    {
        ["ConcurrencyLab"] =
        [
            "ConcurrencyLab.Experiments", "ConcurrencyLab.Charts", "ConcurrencyLab.CommandLine", "ConcurrencyLab.Load", "ConcurrencyLab.Reproduction",
            "conclab-build-probe", "ConcurrencyLab.Tests", "ConcurrencyLab.IntegrationTests", "ConcurrencyLab.Benchmarks",
        ],
        ["ConcurrencyLab.Load"] = ["ConcurrencyLab.CommandLine", "ConcurrencyLab.Tests", "ConcurrencyLab.IntegrationTests"],
        ["ConcurrencyLab.Reproduction"] = ["ConcurrencyLab.Experiments", "ConcurrencyLab.CommandLine", "ConcurrencyLab.Tests", "ConcurrencyLab.IntegrationTests"],
        ["ConcurrencyLab.Charts"] = ["ConcurrencyLab.Tests"],
        ["ConcurrencyLab.CommandLine"] = ["ConcurrencyLab.Tests", "ConcurrencyLab.IntegrationTests"],
        ["ConcurrencyLab.Experiments"] = ["conclab-build-probe", "ConcurrencyLab.Tests", "ConcurrencyLab.IntegrationTests"],
    };

    [Fact]
    public void EachAssembly_GrantsItsInternals_OnlyWhereItsProjectSaysWhy()
    {
        foreach (var (name, expected) in Grants)
        {
            var granted = Assembly.Load(name).GetCustomAttributes<System.Runtime.CompilerServices.InternalsVisibleToAttribute>().Select(a => a.AssemblyName).ToList();
            Assert.True(granted.ToHashSet(StringComparer.Ordinal).SetEquals(expected), $"{name} grants its internals to {string.Join(", ", granted.Order(StringComparer.Ordinal))}; this test lists {string.Join(", ", expected.Order(StringComparer.Ordinal))}");
        }
    }

    [Fact]
    public void EachAssembly_ReferencesOnlyTheLabAssembliesItsLayerAllows()
    {
        foreach (var (name, allowed) in Allowed)
        {
            var referenced = Assembly.Load(name).GetReferencedAssemblies().Select(a => a.Name!)
                .Where(n => n == "conclab" || n.StartsWith("ConcurrencyLab", StringComparison.Ordinal))
                .ToList();
            var extra = referenced.Except(allowed, StringComparer.Ordinal).ToList();
            Assert.True(extra.Count == 0, $"{name} references {string.Join(", ", extra)}, which its layer does not allow");
        }

        // Every lab assembly the tool ships is placed in a layer here.
        var shipped = Assembly.Load("conclab").GetReferencedAssemblies().Select(a => a.Name!).Where(n => n.StartsWith("ConcurrencyLab", StringComparison.Ordinal));
        Assert.All(shipped, n => Assert.True(Allowed.ContainsKey(n), $"{n} has no layer in this test"));
    }

    [Theory]
    [MemberData(nameof(Assemblies))]
    public void NoNewArrow_ClosesACycleBetweenFolders_AndTheDebtListIsTrue(string name)
    {
        var assembly = Assembly.Load(name);
        var graph = FolderArrowsTests.Build(assembly, type => FolderOf(type, assembly));
        var arrows = graph.Keys.ToHashSet();
        var debt = Debt.GetValueOrDefault(name, []).Select(d => (d.From, d.To)).ToHashSet();

        var gone = debt.Where(d => !arrows.Contains(d)).ToList();
        Assert.True(gone.Count == 0, $"{name}: no longer there, strike off the debt list: {string.Join(", ", gone.Select(g => $"{g.Item1} -> {g.Item2}"))}");

        var cycle = FolderArrowsTests.FindCycle([.. arrows.Where(a => !debt.Contains(a))]);
        Assert.True(cycle is null, $"{name}: a cycle between folders: {string.Join(" -> ", cycle ?? [])}; arrows: {string.Join("; ", (cycle ?? []).Zip((cycle ?? []).Skip(1)).Select(p => $"{p.First} -> {p.Second} ({string.Join(", ", graph.GetValueOrDefault((p.First, p.Second), []).Order(StringComparer.Ordinal).Take(3))})"))}");
    }

    // A type's folder in its assembly: the namespace's part after the assembly's name (or after ConcurrencyLab, for
    // the command line's public root), its first segment; "(root)" for the root itself.
    private static string? FolderOf(Type? type, Assembly assembly)
    {
        type = type is null ? null : CompiledReferences.Outer(type);
        if (type?.Assembly != assembly || type.Namespace is not { } ns)
        {
            return null;
        }

        var root = assembly.GetName().Name!;
        var rest = ns == root || ns == "ConcurrencyLab" ? string.Empty
            : ns.StartsWith(root + ".", StringComparison.Ordinal) ? ns[(root.Length + 1)..]
            : null;
        return rest is null ? null : rest.Length == 0 ? "(root)" : rest.Split('.')[0];
    }
}
