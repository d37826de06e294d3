using ConcurrencyLab.Experiments.Hash;

namespace ConcurrencyLab.Tests.Scenarios.Hash;

public sealed class FileHashersTests
{
    [SkippableTheory]
    [InlineData(nameof(HashMode.Sync), 1)]
    [InlineData(nameof(HashMode.Sync), 3)]
    [InlineData(nameof(HashMode.Async), 1)]
    [InlineData(nameof(HashMode.Async), 16)]
    [InlineData(nameof(HashMode.ForEachAsync), 2)]
    [InlineData(nameof(HashMode.Direct), 1)]
    [InlineData(nameof(HashMode.Direct), 4)]
    [InlineData(nameof(HashMode.Cached), 1)]
    [InlineData(nameof(HashMode.Cached), 4)]
    public async Task EveryMode_HashesEveryFileOnce_ToTheManifestsHash(string modeName, int workers)
    {
        var mode = Enum.Parse<HashMode>(modeName);
        Skip.If(mode == HashMode.Direct && !DirectIo.IsSupported, "this system offers no direct reads (O_DIRECT)");

        using var set = FileSet.Prepare(new FileSetSpec(Files: 7, FileSize: 150_000, Seed: 5), folder: null, keep: false);
        var expected = set.Entries.ToDictionary(set.PathOf, e => e.Md5);

        var hashes = await FileHashers.HashAllAsync([.. expected.Keys], mode, workers);

        Assert.Equal(7, hashes.Count);
        Assert.Equal(expected.Keys.Order(StringComparer.Ordinal), hashes.Select(h => h.Path).Order(StringComparer.Ordinal));
        Assert.All(hashes, h => Assert.Equal(expected[h.Path], h.Md5));
    }

    [SkippableTheory]
    [InlineData(nameof(HashMode.Cached), FileHashers.CachedBlockSize)]
    [InlineData(nameof(HashMode.Direct), FileHashers.DirectBufferSize)]
    public async Task AFileOfWholeBlocks_IsHashedToItsEnd_WhereTheLastReadFindsNothing(string modeName, int block)
    {
        var mode = Enum.Parse<HashMode>(modeName);
        Skip.If(mode == HashMode.Direct && !DirectIo.IsSupported, "this system offers no direct reads (O_DIRECT)");

        using var set = FileSet.Prepare(new FileSetSpec(Files: 3, FileSize: 2 * block, Seed: 9), folder: null, keep: false);
        var expected = set.Entries.ToDictionary(set.PathOf, e => e.Md5);

        var hashes = await FileHashers.HashAllAsync([.. expected.Keys], mode, 2);

        Assert.Equal(3, hashes.Count);
        Assert.All(hashes, h => Assert.Equal(expected[h.Path], h.Md5));
    }

    [SkippableTheory]
    [InlineData(nameof(HashMode.Sync))]
    [InlineData(nameof(HashMode.Direct))]
    [InlineData(nameof(HashMode.Cached))]
    public async Task BlockingWorkers_RunOnThreadsOfTheirOwn_NotThePool_AsPublished(string modeName)
    {
        var mode = Enum.Parse<HashMode>(modeName);
        Skip.If(mode == HashMode.Direct && !DirectIo.IsSupported, "this system offers no direct reads (O_DIRECT)");

        using var set = FileSet.Prepare(new FileSetSpec(Files: 12, FileSize: 64 * 1024, Seed: 5), folder: null, keep: false);

        var hashes = await FileHashers.HashAllAsync([.. set.Entries.Select(set.PathOf)], mode, 4);

        // On pool threads, N blocking workers would only ever be as many as the pool has threads.
        Assert.Equal(12, hashes.Count);
        Assert.All(hashes, h => Assert.False(h.OnPoolThread, $"{h.Path} was hashed on a pool thread"));
    }

    [Fact]
    public async Task NoWorkers_IsRefused()
    {
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => FileHashers.HashAllAsync(["x"], HashMode.Sync, 0));
    }
}
