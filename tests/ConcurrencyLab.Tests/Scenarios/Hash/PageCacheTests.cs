using ConcurrencyLab.Experiments.Hash;

namespace ConcurrencyLab.Tests.Scenarios.Hash;

public sealed class PageCacheTests
{
    [SkippableFact]
    public void Evict_DropsAFileJustWrittenFromTheCache_OrSaysWhyNot()
    {
        var path = Path.Combine(Path.GetTempPath(), "conclab-cache-test-" + Guid.NewGuid().ToString("N"));
        try
        {
            File.WriteAllBytes(path, new byte[8 * 1024 * 1024]);
            _ = File.ReadAllBytes(path);
            if (!PageCache.IsSupported || PageCache.InMemory(path) is not null)
            {
                // Where the cache cannot be controlled, eviction must say why; the eviction itself is then untested here.
                var why = PageCache.Evict(path);
                Assert.NotNull(why);
                Skip.If(true, $"no page-cache control for the temporary folder on this machine: {why}");
            }

            Assert.True(PageCache.ResidentFraction(path) > 0.9, $"a file just read was {PageCache.ResidentFraction(path)} resident");

            Assert.Null(PageCache.Evict(path));

            Assert.True(PageCache.ResidentFraction(path) < 0.1, $"after eviction {PageCache.ResidentFraction(path)} of the file stayed resident");
        }
        finally
        {
            File.Delete(path);
        }
    }

    [SkippableFact]
    public void EvictAll_OnAFileSet_LeavesItCold_AndSaysSo()
    {
        using var set = FileSet.Prepare(new FileSetSpec(4, 1024 * 1024, 3), folder: null, keep: false);
        var paths = set.Entries.Select(set.PathOf).ToList();
        foreach (var path in paths)
        {
            _ = File.ReadAllBytes(path);
        }

        var state = PageCache.EvictAll(paths);

        if (PageCache.IsSupported && PageCache.InMemory(set.Folder) is null)
        {
            Assert.True(state.Cold, $"resident {state.ResidentFraction}, problem {state.Problem}");
            Assert.Null(state.Problem);
        }
        else
        {
            Assert.False(state.Cold);
            Assert.NotNull(state.Problem);
            Skip.If(true, $"no page-cache control for the temporary folder on this machine: {state.Problem}");
        }
    }

    [SkippableFact]
    public void AFileInMemory_CannotBeCold_AndEvictionSaysSo()
    {
        const string shm = "/dev/shm";
        Skip.If(!PageCache.IsSupported || !Directory.Exists(shm) || PageCache.InMemory(shm) is null, "no page-cache control, or no /dev/shm in memory, on this machine");

        var path = Path.Combine(shm, "conclab-cache-test-" + Guid.NewGuid().ToString("N"));
        try
        {
            File.WriteAllBytes(path, new byte[64 * 1024]);

            var state = PageCache.EvictAll([path]);

            Assert.False(state.Cold);
            Assert.Contains("keeps files in memory", state.Problem, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
