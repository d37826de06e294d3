using System.Reflection;

namespace ConcurrencyLab.Tests.Architecture;

/// <summary>
/// Which folder of the core uses which, read from the compiled assembly itself (signatures and method bodies, so a
/// partly qualified name or a lambda counts as much as a <c>using</c>): the data flows Running -> Results -> Analysis
/// -> Reporting, and no new arrow may close a cycle between folders. The cycles the house still has are listed
/// below as debt, each arrow by name; the list can only shrink, since an arrow that is gone fails here until it is
/// struck off.
/// </summary>
public sealed class FolderArrowsTests
{
    // Arrows that close a cycle today, each with the reason it is still there; none since the claims' vocabulary
    // moved to Claims, above Scenarios. A new one is a design to mend, not a line to add here.
    private static readonly (string From, string To, string Why)[] Debt = [];

    [Fact]
    public void TheMainLine_PointsOneWay_RunningToResultsToAnalysisToReporting()
    {
        var arrows = Arrows();

        foreach (var (from, to) in new[] { ("Results", "Analysis"), ("Results", "Reporting"), ("Analysis", "Reporting"), ("Statistics", "Results"), ("Serialization", "Results") })
        {
            Assert.False(arrows.Contains((from, to)), $"{from} uses {to}: {string.Join(", ", Uses(from, to).Take(5))}");
        }
    }

    [Fact]
    public void NoNewArrow_ClosesACycleBetweenFolders_AndTheDebtListIsTrue()
    {
        var arrows = Arrows();
        var debt = Debt.Select(d => (d.From, d.To)).ToHashSet();

        // Every listed arrow must still exist; one that is gone is struck off the list.
        var gone = debt.Where(d => !arrows.Contains(d)).ToList();
        Assert.True(gone.Count == 0, $"no longer there, strike off the debt list: {string.Join(", ", gone.Select(g => $"{g.Item1} -> {g.Item2}"))}");

        // Without the debt, the folders form no cycle.
        var rest = arrows.Where(a => !debt.Contains(a)).ToList();
        var cycle = FindCycle(rest);
        Assert.True(cycle is null, $"a cycle between folders: {string.Join(" -> ", cycle ?? [])}; arrows: {string.Join("; ", (cycle ?? []).Zip((cycle ?? []).Skip(1)).Select(p => $"{p.First} -> {p.Second} ({string.Join(", ", Uses(p.First, p.Second).Take(3))})"))}");
    }

    private static readonly Assembly Core = typeof(ConcurrencyLab.Results.RunResult).Assembly;

    private static Lazy<Dictionary<(string From, string To), HashSet<string>>>? _graph;

    private static HashSet<(string From, string To)> Arrows() => [.. Graph().Keys];

    private static IEnumerable<string> Uses(string from, string to) => Graph().TryGetValue((from, to), out var where) ? where.Order(StringComparer.Ordinal) : [];

    private static Dictionary<(string From, string To), HashSet<string>> Graph()
    {
        _graph ??= new(() => Build(Core, Folder));
        return _graph.Value;
    }

    private static string? Folder(Type? type)
    {
        type = type is null ? null : CompiledReferences.Outer(type);
        if (type?.Assembly != Core || type.Namespace is not { } ns || !ns.StartsWith("ConcurrencyLab.", StringComparison.Ordinal))
        {
            return null;
        }

        return ns["ConcurrencyLab.".Length..].Split('.')[0];
    }

    /// <summary>Which folder of <paramref name="assembly"/> uses which, each arrow with the uses that make it; <paramref name="folder"/> names a type's folder, or null for a type of another assembly.</summary>
    internal static Dictionary<(string, string), HashSet<string>> Build(Assembly assembly, Func<Type?, string?> folder)
    {
        var Folder = folder;
        var graph = new Dictionary<(string, string), HashSet<string>>();
        void Add(Type from, Type? to)
        {
            if (to is null)
            {
                return;
            }

            if (to.HasElementType)
            {
                Add(from, to.GetElementType());
                return;
            }

            if (to.IsGenericType && !to.IsGenericTypeDefinition)
            {
                foreach (var argument in to.GetGenericArguments())
                {
                    Add(from, argument);
                }

                to = to.GetGenericTypeDefinition();
            }

            if (Folder(from) is { } a && Folder(to) is { } b && a != b)
            {
                if (!graph.TryGetValue((a, b), out var where))
                {
                    graph[(a, b)] = where = [];
                }

                where.Add($"{CompiledReferences.Outer(from).Name} uses {CompiledReferences.Outer(to).Name}");
            }
        }

        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        foreach (var type in assembly.GetTypes())
        {
            Add(type, type.BaseType);
            foreach (var contract in type.GetInterfaces())
            {
                Add(type, contract);
            }

            foreach (var field in type.GetFields(all))
            {
                Add(type, field.FieldType);
            }

            foreach (var property in type.GetProperties(all))
            {
                Add(type, property.PropertyType);
            }

            foreach (var method in type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all)))
            {
                if (method is MethodInfo info)
                {
                    Add(type, info.ReturnType);
                }

                foreach (var parameter in method.GetParameters())
                {
                    Add(type, parameter.ParameterType);
                }

                foreach (var used in CompiledReferences.BodyTypes(method))
                {
                    Add(type, used);
                }
            }
        }

        return graph;
    }


    // A cycle in the graph, as the folders along it (the first repeated at the end), or null.
    internal static List<string>? FindCycle(IReadOnlyList<(string From, string To)> arrows)
    {
        var next = arrows.GroupBy(a => a.From).ToDictionary(g => g.Key, g => g.Select(a => a.To).Order(StringComparer.Ordinal).ToList());
        var state = new Dictionary<string, int>();
        var path = new List<string>();
        List<string>? Visit(string node)
        {
            state[node] = 1;
            path.Add(node);
            foreach (var to in next.GetValueOrDefault(node, []))
            {
                if (state.GetValueOrDefault(to) == 1)
                {
                    return [.. path.Skip(path.IndexOf(to)), to];
                }

                if (state.GetValueOrDefault(to) == 0 && Visit(to) is { } found)
                {
                    return found;
                }
            }

            state[node] = 2;
            path.RemoveAt(path.Count - 1);
            return null;
        }

        foreach (var node in next.Keys.Order(StringComparer.Ordinal))
        {
            if (state.GetValueOrDefault(node) == 0 && Visit(node) is { } cycle)
            {
                return cycle;
            }
        }

        return null;
    }
}
