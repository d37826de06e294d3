namespace ConcurrencyLab.Tests.Reporting;

/// <summary>
/// Whole outputs against files in <c>Snapshots/</c> beside this file. A missing snapshot is written and the
/// test fails, so a new one is always looked at before it is committed.
/// </summary>
internal static class Snapshot
{
    public static void Matches(string name, string actual)
    {
        var path = Path.Combine(Path.GetDirectoryName(SourceFile())!, "Snapshots", name);
        if (!File.Exists(path))
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, actual);
            Assert.Fail($"wrote the missing snapshot {path}; look at it and commit it");
        }

        Assert.Equal(File.ReadAllText(path).Replace("\r", string.Empty, StringComparison.Ordinal), actual);
    }

    private static string SourceFile([System.Runtime.CompilerServices.CallerFilePath] string path = "") => path;
}
