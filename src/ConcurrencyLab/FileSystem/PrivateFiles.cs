namespace ConcurrencyLab.FileSystem;

/// <summary>
/// Folders and files only this user may read or change (0700 and 0600), whatever the umask: what the lab keeps in a
/// shared temporary folder (its run journal, set-up files, event ports), where another user could otherwise plant or
/// change them.
/// </summary>
internal static class PrivateFiles
{
    private const UnixFileMode FolderMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
    private const UnixFileMode FileMode_ = UnixFileMode.UserRead | UnixFileMode.UserWrite;

    /// <summary>Makes the folder <paramref name="path"/>, which must not exist yet, readable and writable by this user only.</summary>
    public static void CreateFolder(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            Directory.CreateDirectory(path);
            return;
        }

        if (Path.Exists(path))
        {
            throw new IOException($"{path} exists already, and is not this run's to take.");
        }

        // mkdir's mode is masked by the umask, which only takes bits away; set again in case something widened it.
        Directory.CreateDirectory(path, FolderMode);
        File.SetUnixFileMode(path, FolderMode);
    }

    /// <summary>Writes <paramref name="text"/> to a new file only this user may read or change (written over when it is
    /// already this process's).</summary>
    public static void WriteAllText(string path, string text)
    {
        using var stream = Open(path, FileMode.Create);
        using var writer = new StreamWriter(stream);
        writer.Write(text);
    }

    /// <summary><see cref="WriteAllText"/>, asynchronously.</summary>
    public static async Task WriteAllTextAsync(string path, string text, CancellationToken cancellationToken)
    {
        var stream = Open(path, FileMode.Create);
        await using (stream.ConfigureAwait(false))
        {
            var writer = new StreamWriter(stream);
            await using (writer.ConfigureAwait(false))
            {
                await writer.WriteAsync(text.AsMemory(), cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>Adds a line to a file only this user may read or change, making it when it is not there.</summary>
    public static void AppendLine(string path, string line)
    {
        using var stream = Open(path, FileMode.Append);
        using var writer = new StreamWriter(stream);
        writer.Write(line + "\n");
    }

    private static FileStream Open(string path, FileMode mode)
    {
        var options = new FileStreamOptions { Mode = mode, Access = FileAccess.Write, Share = FileShare.Read };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = FileMode_;
        }

        var stream = new FileStream(path, options);
        if (!OperatingSystem.IsWindows())
        {
            // A file that was there already keeps its mode: made private again.
            File.SetUnixFileMode(stream.SafeFileHandle, FileMode_);
        }

        return stream;
    }
}
