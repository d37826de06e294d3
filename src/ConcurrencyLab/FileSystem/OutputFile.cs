namespace ConcurrencyLab.FileSystem;

/// <summary>
/// Writes an output file so that a reader never sees half of it and nothing but a regular file is ever replaced.
/// A regular file (or none yet) is written beside itself and renamed over; through a link, the file it names is,
/// and the link stays. A device (<c>/dev/null</c>, a terminal) or a pipe is written through: renaming over it would
/// put a regular file where the device was (as root, over the machine's <c>/dev/null</c>).
/// </summary>
internal static class OutputFile
{
    /// <summary>How long a pipe may wait for its reader before the write is given up.</summary>
    public static readonly TimeSpan PipeReaderWait = TimeSpan.FromSeconds(10);

    /// <summary>Writes <paramref name="path"/> with <paramref name="write"/>; throws <see cref="IOException"/> (or
    /// another I/O exception) with the reason when it cannot.</summary>
    public static void Write(string path, Action<Stream> write)
    {
        ArgumentNullException.ThrowIfNull(path);
        ArgumentNullException.ThrowIfNull(write);
        var facts = FileFacts.Of(path);
        switch (facts.Kind)
        {
            case FileKind.Directory:
                throw new IOException($"{path} is a folder");
            case FileKind.Socket:
                throw new IOException($"{path} is a socket, which cannot be written as a file");
            case FileKind.Device or FileKind.Pipe:
                WriteThrough(path, facts.Kind, write);
                return;
        }

        // Through a link, the file it names is replaced and the link stays as it is.
        var target = new FileInfo(path) is { LinkTarget: not null } link && link.ResolveLinkTarget(returnFinalTarget: true) is { } final
            ? final.FullName : Path.GetFullPath(path);
        var directory = Path.GetDirectoryName(target);
        if (!string.IsNullOrEmpty(directory))
        {
            Directory.CreateDirectory(directory);
        }

        // A name of its own, whatever the target's length, and one per process, so two runs never share it.
        var temporary = Path.Combine(directory ?? ".", $".conclab-{Environment.ProcessId}-{Guid.NewGuid():N}.tmp");
        try
        {
            using (var stream = new FileStream(temporary, FileMode.CreateNew, FileAccess.Write))
            {
                write(stream);
            }

            File.Move(temporary, target, overwrite: true);
        }
        finally
        {
            // Gone after a rename; left behind only by a failure, which must not leave it.
            File.Delete(temporary);
        }
    }

    private static void WriteThrough(string path, FileKind kind, Action<Stream> write)
    {
        // Opening a pipe for writing waits until something reads it: a pipe nothing reads gives up, not hangs.
        var open = Task.Run(() => new FileStream(path, FileMode.Open, FileAccess.Write, FileShare.ReadWrite, bufferSize: 0));
        if (kind == FileKind.Pipe && !open.Wait(PipeReaderWait))
        {
            throw new IOException($"nothing read the pipe {path} within {PipeReaderWait.TotalSeconds:0} s");
        }

        using var stream = open.GetAwaiter().GetResult();
        write(stream);
    }
}
