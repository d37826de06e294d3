namespace ConcurrencyLab.FileSystem;

/// <summary>Whether a folder can take files, found out before anything is written to it.</summary>
internal static class FolderProbe
{
    /// <summary>
    /// Makes <paramref name="folder"/> if it is missing, then writes and deletes a small file there; the reason it
    /// could not, or null when it could. A folder made only to find out is not left behind.
    /// </summary>
    public static string? WhyNotWritable(string folder)
    {
        var made = !Directory.Exists(folder);
        try
        {
            Directory.CreateDirectory(folder);
            var probe = Path.Combine(folder, $".conclab-probe-{Environment.ProcessId}");
            File.WriteAllText(probe, string.Empty);
            File.Delete(probe);
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            return ex.Message;
        }
        finally
        {
            if (made && Directory.Exists(folder) && !Directory.EnumerateFileSystemEntries(folder).Any())
            {
                Directory.Delete(folder);
            }
        }
    }
}
