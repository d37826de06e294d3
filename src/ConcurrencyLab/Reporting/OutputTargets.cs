using System.Text;
using ConcurrencyLab.FileSystem;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// Where a run's reports are to go, checked before anything runs, so that a target that cannot take them costs
/// a line and exit code 2, not a benchmark's worth of waiting followed by a failure.
/// </summary>
internal static class OutputTargets
{
    /// <summary>The file that marks a folder as holding a run's results.</summary>
    public const string ResultsFileName = "results.json";

    // What a file system allows a name; the temporary file beside it has a short name of its own.
    private const int LongestName = 255;

    /// <summary>
    /// Why <paramref name="path"/> cannot take an output file given as <paramref name="option"/> (such as
    /// <c>--json</c>), in one line; null when it can. A device or pipe can: it is written through.
    /// </summary>
    public static string? CheckFile(string option, string path)
    {
        ArgumentNullException.ThrowIfNull(option);
        if (string.IsNullOrWhiteSpace(path))
        {
            return $"{option} must not be empty.";
        }

        if (FullPath(option, path, out var full) is { } problem)
        {
            return problem;
        }

        if (Encoding.UTF8.GetByteCount(Path.GetFileName(full)) > LongestName)
        {
            return $"{option}: the file name is longer than the {LongestName} bytes a file system allows.";
        }

        var facts = FileFacts.Of(full);
        return facts.Kind switch
        {
            FileKind.Directory => $"{option} '{path}' is a folder; give a file name.",
            FileKind.Socket => $"{option} '{path}' is a socket, which cannot be written as a file.",
            FileKind.Device or FileKind.Pipe => null,
            _ => Path.GetDirectoryName(full) is { Length: > 0 } folder ? CanWriteIn(option, folder) : null,
        };
    }

    /// <summary>
    /// Why <paramref name="path"/> cannot take a run's reports as the folder given as <paramref name="option"/>
    /// (such as <c>--out</c>), in one line; null when it can. The folder is made if it is missing. One that
    /// already holds a run's results is refused unless <paramref name="mayHoldResults"/>: those results are not
    /// written over, and another run's charts would stand beside this one's.
    /// </summary>
    public static string? CheckFolder(string option, string path, bool mayHoldResults)
    {
        ArgumentNullException.ThrowIfNull(option);
        if (string.IsNullOrWhiteSpace(path))
        {
            return $"{option} must not be empty.";
        }

        if (FullPath(option, path, out var full) is { } problem)
        {
            return problem;
        }

        if (FileFacts.Of(full).Kind is not (FileKind.Directory or FileKind.Missing))
        {
            return $"{option} '{path}' is a file, not a folder.";
        }

        if (!mayHoldResults && File.Exists(Path.Combine(full, ResultsFileName)))
        {
            return $"{option} '{path}' already holds a run's results ({ResultsFileName}), which are not written over; give another folder, " +
                $"or remove them.";
        }

        return CanWriteIn(option, full);
    }

    /// <summary>
    /// Whether two paths name the same file, whatever links lead to it (same device and inode); false when either
    /// is missing, or this system does not say.
    /// </summary>
    public static bool SameFile(string first, string second)
    {
        ArgumentNullException.ThrowIfNull(first);
        ArgumentNullException.ThrowIfNull(second);
        return first.Length > 0 && second.Length > 0 && FileFacts.Of(first).IsSameFileAs(FileFacts.Of(second));
    }

    /// <summary>
    /// A folder for a run's reports under <paramref name="parent"/>, named by the time (<c>20261123-101500</c>),
    /// made now so that no other run started in the same second takes it too.
    /// </summary>
    public static string NewFolder(string parent, TimeProvider? time = null)
    {
        ArgumentNullException.ThrowIfNull(parent);
        var stamp = (time ?? TimeProvider.System).GetUtcNow().ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture);
        Directory.CreateDirectory(parent);
        for (var attempt = 1; ; attempt++)
        {
            var folder = Path.Combine(parent, attempt == 1 ? stamp : $"{stamp}-{attempt}");
            if (!Directory.Exists(folder) && !File.Exists(folder))
            {
                // Another run may make the same folder between the check and here; it is then merely shared
                // with one that has not written yet, and the next name is tried.
                var made = Directory.CreateDirectory(folder);
                if (!made.EnumerateFileSystemInfos().Any())
                {
                    return folder;
                }
            }
        }
    }

    private static string? FullPath(string option, string path, out string full)
    {
        full = string.Empty;
        try
        {
            full = Path.GetFullPath(path);
            return null;
        }
        catch (Exception ex) when (ex is ArgumentException or NotSupportedException or PathTooLongException or IOException)
        {
            return $"{option} '{path}' is not a path: {ex.Message}";
        }
    }

    // Making a folder succeeds on one that exists but cannot be written to: a probe file tells.
    private static string? CanWriteIn(string option, string folder) =>
        FolderProbe.WhyNotWritable(folder) is { } why
            ? $"{option}: cannot create the folder '{folder}', or write in it: {why}".ReplaceLineEndings(" ") : null;
}
