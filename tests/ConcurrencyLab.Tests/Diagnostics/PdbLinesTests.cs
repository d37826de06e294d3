using System.Reflection.Metadata;
using System.Runtime.CompilerServices;
using ConcurrencyLab.Diagnostics;

namespace ConcurrencyLab.Tests.Diagnostics;

/// <summary>
/// Lines read from this test assembly's own portable PDB, for methods whose lines are known by construction (each
/// marked in the source): a statement at an IL offset, a last call that returns into the epilogue, and a module path
/// the trace lower-cased.
/// </summary>
public sealed class PdbLinesTests
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void LastCallInABlock(int ms)
    {
        var wait = Math.Max(ms, 0); // pdb: first statement
        Thread.Sleep(wait); // pdb: last call in a block
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void LastCallAsAnExpression(int ms) => Thread.Sleep(ms); // pdb: expression body

    private static readonly object Gate = new();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void LastCallInALock(int ms)
    {
        lock (Gate)
        {
            Thread.Sleep(ms); // pdb: last in a lock
        } // pdb: the lock's end
    }

    private static int LineOf(string marker, [CallerFilePath] string file = "") =>
        Array.FindIndex(File.ReadAllLines(file), l => l.EndsWith("// pdb: " + marker, StringComparison.Ordinal)) + 1;

    private static int Token(string name) =>
        typeof(PdbLinesTests).GetMethod(name, System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!.MetadataToken;

    private static string Module => typeof(PdbLinesTests).Assembly.Location;

    [Fact]
    public void AnILOffset_GivesItsStatement_AndTheEpilogue_GivesTheLastStatementNotTheClosingBrace()
    {
        using var stream = File.OpenRead(Path.ChangeExtension(Module, ".pdb"));
        using var provider = MetadataReaderProvider.FromPortablePdbStream(stream);
        var pdb = provider.GetMetadataReader();

        // An offset inside a statement gives that statement (the greatest sequence point at or before it).
        var points = pdb.GetMethodDebugInformation(System.Reflection.Metadata.Ecma335.MetadataTokens.MethodDebugInformationHandle(
            Token(nameof(LastCallInABlock)) & 0xFFFFFF)).GetSequencePoints().ToList();
        var first = points.Single(p => p.StartLine == LineOf("first statement")).Offset;
        var next = points.Where(p => p.Offset > first).Min(p => p.Offset);
        Assert.True(next - first >= 2);
        Assert.Equal(new SourceLine("PdbLinesTests.cs", LineOf("first statement")), PdbLines.At(pdb, Token(nameof(LastCallInABlock)), first + 1));
        Assert.Equal(new SourceLine("PdbLinesTests.cs", LineOf("last call in a block")), PdbLines.At(pdb, Token(nameof(LastCallInABlock)), next + 1));

        // A return address exactly at a statement's start: the call that returns there ended the statement before.
        Assert.Equal(new SourceLine("PdbLinesTests.cs", LineOf("first statement")), PdbLines.At(pdb, Token(nameof(LastCallInABlock)), next));
        Assert.Equal(new SourceLine("PdbLinesTests.cs", LineOf("last call in a block")), PdbLines.At(pdb, Token(nameof(LastCallInABlock)), PdbLines.EpilogOffset));
        Assert.Equal(new SourceLine("PdbLinesTests.cs", LineOf("expression body")), PdbLines.At(pdb, Token(nameof(LastCallAsAnExpression)), PdbLines.EpilogOffset));

        // A token that is no method of this module, or not a method at all: no line rather than a wrong one.
        Assert.Null(PdbLines.At(pdb, 0x06FFFFFF, 0));
        Assert.Null(PdbLines.At(pdb, 0x02000002, 0));
    }

    [Fact]
    public void AModulePathTheTraceLowerCased_IsFoundOnDisk_AndItsLinesRead()
    {
        var lowered = Module.ToLowerInvariant();
        Assert.NotEqual(Module, lowered);
        Assert.Equal(Module, PdbLines.OnDisk(lowered));
        Assert.Null(PdbLines.OnDisk(Module + ".missing"));
        Assert.Null(PdbLines.OnDisk("relative/" + Path.GetFileName(Module)));

        using var lines = new PdbLines();
        Assert.Equal(LineOf("expression body"), lines.Find(lowered, Token(nameof(LastCallAsAnExpression)), PdbLines.EpilogOffset)?.Line);

        // An offset the JIT marks as no IL at all (-1), or a module with no PDB: nothing.
        Assert.Null(lines.Find(lowered, Token(nameof(LastCallAsAnExpression)), -1));
        Assert.Null(lines.Find(typeof(object).Assembly.Location, typeof(object).GetMethod(nameof(ToString))!.MetadataToken, 0));
    }

    [Fact]
    public void AReturnIntoAClosingBrace_IsTheStatementBefore_UnlessTheCallWasTheBracesOwn()
    {
        using var stream = File.OpenRead(Path.ChangeExtension(Module, ".pdb"));
        using var provider = MetadataReaderProvider.FromPortablePdbStream(stream);
        var pdb = provider.GetMetadataReader();
        var token = Token(nameof(LastCallInALock));
        var brace = pdb.GetMethodDebugInformation(System.Reflection.Metadata.Ecma335.MetadataTokens.MethodDebugInformationHandle(token & 0xFFFFFF))
            .GetSequencePoints().First(p => !p.IsHidden && p.StartLine == LineOf("the lock's end")).Offset;

        Assert.Equal(LineOf("last in a lock"), PdbLines.At(pdb, token, brace + 1)?.Line);
        Assert.Equal(LineOf("the lock's end"), PdbLines.At(pdb, token, brace + 1, callEndsBlock: true)?.Line);
        Assert.True(PdbLines.EndsBlock("System.Threading.Monitor.Exit"));
        Assert.True(PdbLines.EndsBlock("System.IO.FileStream.Dispose"));
        Assert.False(PdbLines.EndsBlock("System.Threading.Thread.Sleep"));
    }
}
