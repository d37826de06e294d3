namespace ConcurrencyLab.FileSystem;

/// <summary>
/// The system's temporary folder (<c>TMPDIR</c>), which a run needs for its journal, its trials' results and the
/// runtime's event ports: checked before anything starts, since a run that finds out later hangs or loses its trials.
/// </summary>
internal static class TemporaryFolder
{
    /// <summary>The least room a run asks of it: trials' result files and event samples are small.</summary>
    public const long LeastRoom = 16L * 1024 * 1024;

    /// <summary>Why the temporary folder cannot serve a run, in one line; null when it can.</summary>
    public static string? Problem()
    {
        var path = Path.GetTempPath();
        var named = Environment.GetEnvironmentVariable("TMPDIR") is { Length: > 0 } ? $"TMPDIR ({path})" : $"the temporary folder {path}";
        var kind = FileFacts.Of(Path.TrimEndingDirectorySeparator(path)).Kind;
        if (kind == FileKind.Missing)
        {
            return $"{named} does not exist; make it, or set TMPDIR to a folder that does.";
        }

        if (kind != FileKind.Directory && !(kind == FileKind.Unknown && Directory.Exists(path)))
        {
            return $"{named} is not a folder; set TMPDIR to a folder.";
        }

        // Written to without making anything: a probe file, removed at once.
        var probe = Path.Combine(path, $".conclab-tmp-probe-{Environment.ProcessId}-{Guid.NewGuid():N}");
        try
        {
            using (new FileStream(probe, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1, FileOptions.DeleteOnClose))
            {
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"{named} cannot be written to: {ex.Message}".ReplaceLineEndings(" ");
        }

        try
        {
            var free = new DriveInfo(path).AvailableFreeSpace;
            if (free < LeastRoom)
            {
                return $"{named} has {free / 1024} KiB free; a run needs at least {LeastRoom >> 20} MiB there.";
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
        {
            // A file system that does not say how full it is: the writes will.
        }

        return null;
    }
}
