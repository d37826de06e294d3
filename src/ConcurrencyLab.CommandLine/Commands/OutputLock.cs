namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// An output folder taken by one run at a time: two runs started together with the same <c>--out</c> would each write
/// results.json, and one's measurements would be lost. The lock is the operating system's (an exclusive lock on a file
/// in the folder), so it goes with the process however it ends; the file is removed when the run lets go.
/// </summary>
internal sealed class OutputLock : IDisposable
{
    /// <summary>The file in the output folder that holds the lock while a run writes there.</summary>
    public const string FileName = ".conclab-lock";

    private readonly FileStream _stream;
    private readonly string _path;

    private OutputLock(FileStream stream, string path) => (_stream, _path) = (stream, path);

    /// <summary>Takes <paramref name="folder"/> (made if need be) for this run, or says in one line which run holds it.</summary>
    public static OutputLock? Take(string option, string folder, out string? problem)
    {
        problem = null;
        var path = Path.Combine(folder, FileName);
        try
        {
            Directory.CreateDirectory(folder);
            var options = new FileStreamOptions { Mode = FileMode.OpenOrCreate, Access = FileAccess.ReadWrite, Share = FileShare.None };
            if (!OperatingSystem.IsWindows())
            {
                options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
            }

            var stream = new FileStream(path, options);
            return new OutputLock(stream, path);
        }
        catch (IOException)
        {
            problem = $"{option} {folder} is being written by another conclab run; give another folder, or wait for it to end.";
            return null;
        }
        catch (UnauthorizedAccessException ex)
        {
            problem = $"{option} {folder} cannot be taken for this run: {ex.Message}";
            return null;
        }
    }

    /// <summary>Lets the folder go, removing the lock's file.</summary>
    public void Dispose()
    {
        // Removed while still held, so no other run takes a file that is about to vanish.
        try
        {
            File.Delete(_path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }

        _stream.Dispose();
    }
}
