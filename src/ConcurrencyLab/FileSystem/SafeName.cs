using System.Runtime.InteropServices;

namespace ConcurrencyLab.FileSystem;

/// <summary>
/// File names made from data (a scenario, a variant, a parameter key, a chart), and the check that a file written from
/// them lands where it should: a results file is input, and a name in it never chooses a place on disk.
/// </summary>
internal static class SafeName
{
    /// <summary>The longest name made, in characters, before an extension.</summary>
    public const int MaxLength = 100;

    /// <summary>
    /// <paramref name="text"/> as one file name: letters, digits, '-', '_' and '.' kept, anything else (a separator, a
    /// control character, a space) a '-', no leading dot (so never '..') or dash, at most <see cref="MaxLength"/> characters (a
    /// longer one keeps its start and a hash of the whole, so two long names stay apart).
    /// </summary>
    public static string Of(string? text)
    {
        // No leading dot (never '..', never hidden) and no leading dash (never taken for an option by a shell's tools).
        var kept = string.Concat((text ?? string.Empty).Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' ? c : '-'))
            .TrimStart('.', '-');
        if (kept.Length == 0)
        {
            kept = "unnamed";
        }

        if (kept.Length > MaxLength)
        {
            var hash = Convert.ToHexStringLower(
                System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(text ?? string.Empty)))[..8];
            kept = kept[..(MaxLength - 9)] + "-" + hash;
        }

        return kept;
    }

    /// <summary><see cref="Of"/>, made unique among <paramref name="taken"/> ("-2", "-3", ...), and added to it.</summary>
    public static string Unique(string? text, ISet<string> taken)
    {
        ArgumentNullException.ThrowIfNull(taken);
        var name = Of(text);
        var unique = name;
        for (var n = 2; !taken.Add(unique); n++)
        {
            unique = $"{name}-{n}";
        }

        return unique;
    }

    /// <summary>
    /// Whether <paramref name="path"/>, its links resolved as far as it exists, lies inside <paramref name="folder"/>, its
    /// links resolved too: a link planted in the output folder never carries a write elsewhere.
    /// </summary>
    public static bool IsInside(string folder, string path)
    {
        var root = Resolved(folder);
        var target = Resolved(path);
        return target.StartsWith(root.EndsWith('/') ? root : root + Path.DirectorySeparatorChar, StringComparison.Ordinal);
    }

    // The path with every link resolved, for its longest part that exists, and the rest as written.
    private static string Resolved(string path)
    {
        var full = Path.GetFullPath(path);
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS())
        {
            return full;
        }

        var rest = new Stack<string>();
        var existing = full;
        while (!Path.Exists(existing) && Path.GetDirectoryName(existing) is { } parent)
        {
            rest.Push(Path.GetFileName(existing));
            existing = parent;
        }

        var resolved = RealPath(existing) ?? existing;
        while (rest.Count > 0)
        {
            resolved = Path.Combine(resolved, rest.Pop());
        }

        return resolved;
    }

    private static string? RealPath(string path)
    {
        var buffer = Marshal.AllocHGlobal(4096);
        try
        {
            return RealPath(path, buffer) == IntPtr.Zero ? null : Marshal.PtrToStringUTF8(buffer);
        }
        finally
        {
            Marshal.FreeHGlobal(buffer);
        }
    }

#pragma warning disable CA5392 // libc is the system's own C library, found by the loader, not a file of ours.
    [DllImport("libc", EntryPoint = "realpath", SetLastError = true)]
#pragma warning restore CA5392
    private static extern IntPtr RealPath([MarshalAs(UnmanagedType.LPUTF8Str)] string path, IntPtr resolved);
}
