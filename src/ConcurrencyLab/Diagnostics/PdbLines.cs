using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace ConcurrencyLab.Diagnostics;

/// <summary>
/// Source lines of managed code from the portable PDBs beside its modules, read directly: a method's token and an IL
/// offset give the statement there. Two things the trace's own symbol lookup misses are handled here:
/// <list type="bullet">
/// <item>A module's path as the trace names it may be lower-cased (seen when the runtime's module events of a program
/// stopped while it ran are read), which a case-sensitive file system does not find: the path is matched to the file
/// that exists, letter case aside.</item>
/// <item>A call that is the last thing its method does returns into the method's epilogue, which maps to no IL offset:
/// its line is the method's last statement (its last sequence point that is not the closing brace).</item>
/// <item>Every frame read is a caller's, so its offset is where the call returns to; one that falls exactly on a statement's
/// start belongs to the statement before, and so does one that falls in a closing brace (optimized code runs a lock's
/// release right after the last call in it), unless the call was the brace's own (a Dispose, a Monitor.Exit).</item>
/// </list>
/// </summary>
internal sealed class PdbLines : IDisposable
{
    /// <summary>The JIT's mark for native code of a method's epilogue, where its map to IL has no offset.</summary>
    public const int EpilogOffset = -3;

    private readonly Dictionary<string, MetadataReaderProvider?> _pdbs = new(StringComparer.Ordinal);

    /// <summary>
    /// The file and line of IL offset <paramref name="ilOffset"/> (or <see cref="EpilogOffset"/>) in method
    /// <paramref name="methodToken"/> of the module at <paramref name="modulePath"/>; null where the module has no
    /// portable PDB beside it, or the PDB places nothing there.
    /// </summary>
    public SourceLine? Find(string? modulePath, int methodToken, int ilOffset, bool callEndsBlock = false)
    {
        if (string.IsNullOrEmpty(modulePath) || methodToken <= 0 || (ilOffset < 0 && ilOffset != EpilogOffset)
            || Open(modulePath) is not { } pdb)
        {
            return null;
        }

        return At(pdb, methodToken, ilOffset, callEndsBlock);
    }

    /// <summary>
    /// Whether <paramref name="callee"/> is a call a block's closing brace makes itself (a <c>using</c>'s Dispose, a
    /// <c>lock</c>'s Monitor.Exit): a frame returning from it is at that brace; from any other, it is in the statement before.
    /// </summary>
    public static bool EndsBlock(string callee)
    {
        ArgumentNullException.ThrowIfNull(callee);
        return callee.EndsWith(".Dispose", StringComparison.Ordinal) || callee.EndsWith(".DisposeAsync", StringComparison.Ordinal)
            || callee.EndsWith(".Exit", StringComparison.Ordinal);
    }

    /// <summary>The statement at <paramref name="ilOffset"/> of a method in an open PDB (see <see cref="Find"/>).</summary>
    internal static SourceLine? At(MetadataReader pdb, int methodToken, int ilOffset, bool callEndsBlock = false)
    {
        ArgumentNullException.ThrowIfNull(pdb);
        var row = methodToken & 0xFFFFFF;
        if ((methodToken >> 24) != 0x06 || row == 0 || row > pdb.GetTableRowCount(TableIndex.MethodDebugInformation))
        {
            return null;
        }

        var information = pdb.GetMethodDebugInformation(MetadataTokens.MethodDebugInformationHandle(row));
        if (information.SequencePointsBlob.IsNil)
        {
            return null;
        }

        var points = information.GetSequencePoints().Where(p => !p.IsHidden).ToList();
        // A frame below the top is a return address: the instruction after its call. Where that is exactly a statement's
        // first (the call ended the statement before it, as in optimized code a call before a lock's release does), the
        // call was in that statement before.
        var point = ilOffset == EpilogOffset
            ? points.LastOrDefault(p => !Brace(p))
            : points.LastOrDefault(p => p.Offset < ilOffset || (p.Offset == 0 && ilOffset == 0));

        // Optimized code runs a block's end (a lock's release, a finally) right after the call before it: a return into a
        // closing brace is from the statement before, unless the call was the brace's own (Dispose, Monitor.Exit).
        if (!callEndsBlock && !point.Document.IsNil && Brace(point))
        {
            var before = points.LastOrDefault(p => p.Offset < point.Offset && !Brace(p));
            point = before.Document.IsNil ? point : before;
        }
        if (point.Document.IsNil || point.StartLine <= 0)
        {
            return null;
        }

        var name = pdb.GetString(pdb.GetDocument(point.Document).Name);
        return name.Length == 0 ? null : new SourceLine(Path.GetFileName(name.Replace('\\', '/')), point.StartLine);
    }

    // A closing brace: a sequence point one character wide on one line.
    private static bool Brace(SequencePoint point) => point.StartLine == point.EndLine && point.EndColumn - point.StartColumn == 1;

    /// <summary>
    /// <paramref name="path"/> as it is on disk: itself where it exists, else the one file whose path matches it with letter
    /// case aside, folder by folder; null where there is none, or more than one.
    /// </summary>
    internal static string? OnDisk(string path)
    {
        if (File.Exists(path))
        {
            return path;
        }

        if (!Path.IsPathRooted(path))
        {
            return null;
        }

        var found = Path.GetPathRoot(path)!;
        foreach (var part in path[found.Length..].Split('/', '\\', StringSplitOptions.RemoveEmptyEntries))
        {
            var exact = Path.Combine(found, part);
            if (Directory.Exists(exact) || File.Exists(exact))
            {
                found = exact;
                continue;
            }

            try
            {
                var matches = Directory.EnumerateFileSystemEntries(found)
                    .Where(e => string.Equals(Path.GetFileName(e), part, StringComparison.OrdinalIgnoreCase)).Take(2).ToList();
                if (matches.Count != 1)
                {
                    return null;
                }

                found = matches[0];
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                return null;
            }
        }

        return File.Exists(found) ? found : null;
    }

    private MetadataReader? Open(string modulePath)
    {
        if (!_pdbs.TryGetValue(modulePath, out var provider))
        {
            provider = null;
            if (OnDisk(modulePath) is { } module && OnDisk(Path.ChangeExtension(module, ".pdb")) is { } pdb)
            {
                try
                {
                    provider = MetadataReaderProvider.FromPortablePdbStream(File.OpenRead(pdb));
                    _ = provider.GetMetadataReader();
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or BadImageFormatException)
                {
                    // Not a portable PDB (a Windows one), or unreadable: the module's sites go without lines.
                    provider?.Dispose();
                    provider = null;
                }
            }

            _pdbs[modulePath] = provider;
        }

        return provider?.GetMetadataReader();
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        foreach (var provider in _pdbs.Values)
        {
            provider?.Dispose();
        }

        _pdbs.Clear();
    }
}
