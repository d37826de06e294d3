using System.Text;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Docs;

/// <summary>docs/workloads.md says which strategies exist and what each can call: the page is checked against the code, so it cannot drift.</summary>
public sealed class WorkloadsPageTests
{
    [Fact]
    public void TheStrategiesTable_IsTheCatalogs()
    {
        var page = File.ReadAllText(Path.Combine(Root(), "docs", "workloads.md")).ReplaceLineEndings("\n");
        var table = Table();

        Assert.True(page.Contains(table, StringComparison.Ordinal), $"docs/workloads.md should hold this table, made from the strategies themselves:\n\n{table}");
    }

    [Fact]
    public void TheRunOptionsTable_NamesEveryMember_InTheTypesOrder()
    {
        var page = File.ReadAllText(Path.Combine(Root(), "docs", "workloads.md")).ReplaceLineEndings("\n");
        var start = page.IndexOf("| member | option | default | what it does |", StringComparison.Ordinal);
        Assert.True(start >= 0, "docs/workloads.md should have the table of RunOptions' members");
        var rows = page[start..].Split('\n').Skip(2).TakeWhile(l => l.StartsWith('|')).ToList();
        var documented = rows.Select(r => r.Split('|', StringSplitOptions.TrimEntries)[1].Trim('`')).ToList();

        var members = typeof(ConcurrencyLab.Running.RunOptions)
            .GetProperties(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Instance)
            .Where(p => p.SetMethod is not null && p.Name != "EqualityContract")
            .OrderBy(p => p.MetadataToken)
            .Select(p => p.Name)
            .ToList();

        Assert.NotEmpty(members);
        Assert.Equal(members, documented);
    }

    internal static string Table()
    {
        var text = new StringBuilder();
        text.Append("| strategy | what it does | forms it can call (its own first) | `@degree` | run by default |\n");
        text.Append("| --- | --- | --- | --- | --- |\n");
        foreach (var strategy in StrategyCatalog.All)
        {
            var forms = string.Join(", ", strategy.Forms.Select(f => f.ToSuffix()));
            var degree = !strategy.HasDegree ? "no"
                : $"yes; `@default`: {strategy.DefaultDegreeMeaning}{(strategy.MaxDegree < int.MaxValue ? $"; at most {strategy.MaxDegree}" : string.Empty)}";
            var byDefault = !strategy.RunByDefault ? "only when named" : strategy.RunAtDefaultDegree ? "yes, also at `@default`" : "yes";
            text.Append($"| `{strategy.Id}` | {strategy.Description.Replace("|", "\\|", StringComparison.Ordinal)} | {forms} | {degree} | {byDefault} |\n");
        }

        return text.ToString();
    }

    /// <summary>The repository's root, found from this file's own place in it.</summary>
    internal static string Root([System.Runtime.CompilerServices.CallerFilePath] string path = "") =>
        Path.GetFullPath(Path.Combine(Path.GetDirectoryName(path)!, "..", "..", ".."));
}
