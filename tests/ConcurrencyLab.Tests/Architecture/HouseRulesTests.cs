using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace ConcurrencyLab.Tests.Architecture;

/// <summary>
/// Rules of the house the compiler does not hold, read from the sources with the C# parser: no method, constructor,
/// accessor, local function or lambda body anywhere (the product, its tests, benchmarks, samples and templates) longer
/// than a reader can hold (<see cref="MostLines"/>), and the product's lines over <see cref="Width"/> characters a debt
/// that only shrinks.
/// </summary>
public sealed class HouseRulesTests
{
    /// <summary>The most lines a body may span, its braces included.</summary>
    public const int MostLines = 120;

    /// <summary>The widest a line should be.</summary>
    public const int Width = 150;

    // Lines wider than Width in src/ today: a debt to pay down, never to add to. Lower it as lines are wrapped.
    private const int WideLinesOwed = 43;

    [Fact]
    public void NoBody_IsLongerThanAReaderCanHold()
    {
        var longest = Sources("src", "tests", "benchmarks", "samples", "templates")
            .SelectMany(file => Bodies(file).Select(body => (File: file.Path, body.Name, Lines: body.Lines)))
            .Where(b => b.Lines > MostLines)
            .OrderByDescending(b => b.Lines)
            .Select(b => $"{Path.GetRelativePath(Root(), b.File)}: {b.Name}, {b.Lines} lines")
            .ToList();

        Assert.True(longest.Count == 0, $"bodies over {MostLines} lines, each to be cut into stages with a name each: {string.Join("; ", longest)}");
    }

    [Fact]
    public void WideLines_AreADebtThatOnlyShrinks()
    {
        var wide = Sources().Sum(file => file.Text.Lines.Count(l => l.Span.Length > Width));

        Assert.True(wide <= WideLinesOwed, $"{wide} lines in src/ are over {Width} characters, more than the {WideLinesOwed} owed: wrap the new ones");
    }

    [Fact]
    public void TheRuleItself_SeesALongMethod_AndALongLambda_AndTheMethodHoldingIt_AndNotAShortOne()
    {
        var filler = string.Concat(Enumerable.Repeat("        Step();\n", MostLines));
        var tree = CSharpSyntaxTree.ParseText($$"""
            class C
            {
                void Long()
                {
            {{filler}}    }

                void Short() { Step(); }

                System.Action Lambda() => () =>
                {
            {{filler}}    };

                void Step() { }
            }
            """);

        var found = Bodies((string.Empty, tree.GetText())).Where(b => b.Lines > MostLines).Select(b => b.Name).ToList();

        Assert.Equal(["Long", "Lambda", "lambda in Lambda"], found);
    }

    private static IEnumerable<(string Path, Microsoft.CodeAnalysis.Text.SourceText Text)> Sources(params string[] folders) =>
        (folders.Length == 0 ? ["src"] : folders)
            .SelectMany(folder => Directory.EnumerateFiles(Path.Combine(Root(), folder), "*.cs", SearchOption.AllDirectories))
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Select(f => (f, Microsoft.CodeAnalysis.Text.SourceText.From(File.ReadAllText(f))));

    // Every body in a file with its name and the lines it spans: methods, constructors, accessors, operators, local
    // functions and lambdas (named by the member that holds them).
    private static IEnumerable<(string Name, int Lines)> Bodies((string Path, Microsoft.CodeAnalysis.Text.SourceText Text) file)
    {
        var root = CSharpSyntaxTree.ParseText(file.Text).GetRoot();
        foreach (var node in root.DescendantNodes())
        {
            SyntaxNode? body = node switch
            {
                BaseMethodDeclarationSyntax m => (SyntaxNode?)m.Body ?? m.ExpressionBody,
                AccessorDeclarationSyntax a => (SyntaxNode?)a.Body ?? a.ExpressionBody,
                LocalFunctionStatementSyntax l => (SyntaxNode?)l.Body ?? l.ExpressionBody,
                AnonymousFunctionExpressionSyntax f => f.Body,
                _ => null,
            };
            if (body is null)
            {
                continue;
            }

            var span = file.Text.Lines.GetLinePositionSpan(body.Span);
            yield return (NameOf(node), span.End.Line - span.Start.Line + 1);
        }
    }

    private static string NameOf(SyntaxNode node) => node switch
    {
        MethodDeclarationSyntax m => m.Identifier.Text,
        ConstructorDeclarationSyntax c => c.Identifier.Text + " (constructor)",
        LocalFunctionStatementSyntax l => l.Identifier.Text,
        AccessorDeclarationSyntax a => $"{a.Keyword.Text} of {a.Ancestors().OfType<BasePropertyDeclarationSyntax>().Select(NameOf).FirstOrDefault()}",
        PropertyDeclarationSyntax p => p.Identifier.Text,
        AnonymousFunctionExpressionSyntax f => "lambda in " + (f.Ancestors().FirstOrDefault(a => a is MemberDeclarationSyntax or LocalFunctionStatementSyntax) is { } holder ? NameOf(holder) : "?"),
        _ => node.Kind().ToString(),
    };

    private static string Root([System.Runtime.CompilerServices.CallerFilePath] string path = "") =>
        Path.GetFullPath(Path.Combine(Path.GetDirectoryName(path)!, "..", "..", ".."));
}
