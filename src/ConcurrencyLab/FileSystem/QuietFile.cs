namespace ConcurrencyLab.FileSystem;

/// <summary>Removing what the lab made, where a file already gone, or one it may not touch, is not an error.</summary>
internal static class QuietFile
{
    /// <summary>Deletes <paramref name="path"/> if it can; true when it did (or there was nothing at the path).</summary>
    public static bool TryDelete(string path)
    {
        try
        {
            File.Delete(path);
            return true;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>
    /// Deletes the folder <paramref name="path"/> and all it holds, if it can; true when it did (or there was nothing).
    /// A link at the path is removed as a link: what it points at is never followed.
    /// </summary>
    public static bool DeleteTree(string path)
    {
        try
        {
            var info = new DirectoryInfo(path);
            if (info.LinkTarget is not null)
            {
                info.Delete();
            }
            else if (info.Exists)
            {
                info.Delete(recursive: true);
            }

            return true;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
