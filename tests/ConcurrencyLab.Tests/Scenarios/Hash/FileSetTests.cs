using System.Security.Cryptography;
using ConcurrencyLab.Experiments.Hash;

namespace ConcurrencyLab.Tests.Scenarios.Hash;

public sealed class FileSetTests
{
    private static readonly FileSetSpec Small = new(Files: 3, FileSize: 300_000, Seed: 42);

    [Fact]
    public void Prepare_Cancelled_StopsAndLeavesNothingBehind()
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-set-test-" + Guid.NewGuid().ToString("N"));
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();

        Assert.ThrowsAny<OperationCanceledException>(() => FileSet.Prepare(Small, folder, keep: true, cancelled.Token));

        Assert.False(Directory.Exists(folder), $"{folder} was left behind");
    }

    [Fact]
    public void AFileThatCannotBeWritten_FailsTheSetWithItsOwnError_NotAnAggregate()
    {
        // The files are written side by side; the one that fails says so as it would alone, and the set goes.
        var folder = Path.Combine(Path.GetTempPath(), "conclab-set-test-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path.Combine(folder, "file-00001.bin"));
        try
        {
            var failed = Assert.ThrowsAny<Exception>(() => FileSet.Prepare(Small, folder, keep: false));

            Assert.IsNotType<AggregateException>(failed);
            Assert.Contains("file-00001.bin", failed.Message, StringComparison.Ordinal);
            Assert.Empty(Directory.GetFiles(folder));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void AFolderHoldingAnotherSet_IsRefused_AndTheOtherSetIsLeftAsItWas()
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-set-test-" + Guid.NewGuid().ToString("N"));
        try
        {
            using (FileSet.Prepare(Small, folder, keep: true))
            {
            }

            var before = File.ReadAllBytes(Path.Combine(folder, "file-00000.bin"));
            var other = Small with { Seed = 7 };

            Assert.Contains("holds another file set", FileSet.CheckRoom(other, folder), StringComparison.Ordinal);
            var refused = Assert.Throws<FileSetException>(() => FileSet.Prepare(other, folder, keep: false));

            Assert.Contains("seed 42", refused.Message, StringComparison.Ordinal);
            Assert.Equal(before, File.ReadAllBytes(Path.Combine(folder, "file-00000.bin")));
            Assert.Equal(3, Directory.GetFiles(folder, "*.bin").Length);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Theory]
    [InlineData("{\"spec\": null, \"entries\": null}")]
    [InlineData("not json")]
    public void AManifestThatCannotBeRead_CountsAsNoSet(string manifest)
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-set-test-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(folder);
        try
        {
            File.WriteAllText(Path.Combine(folder, FileSet.ManifestName), manifest);

            Assert.Null(FileSet.CheckRoom(Small, folder));
            using var set = FileSet.Prepare(Small, folder, keep: false);

            Assert.False(set.Reused);
            Assert.Equal(3, set.Entries.Count);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    // The manifest is written by the serializer and read by hand (every trial's process reads it): what one writes
    // the other reads back whole, and what the serializer's web defaults tolerated is tolerated still.
    [Fact]
    public void TheManifestReadByHand_IsTheOneTheSerializerWrote()
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-set-test-" + Guid.NewGuid().ToString("N"));
        try
        {
            using var set = FileSet.Prepare(Small, folder, keep: true);
            var read = FileSet.ParseManifest(File.ReadAllBytes(Path.Combine(folder, FileSet.ManifestName)));

            Assert.NotNull(read);
            Assert.Equal(Small, read.Spec);
            Assert.Equal(set.Entries, read.Entries);
            Assert.All(read.Entries, e => Assert.Equal(32, e.Md5.Length));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Theory]
    [InlineData("{\"Spec\":{\"FILES\":1,\"fileSize\":10,\"seed\":7,\"extra\":[1,{\"a\":2}]},\"note\":\"x\",\"entries\":[{\"name\":\"file-00000.bin\",\"size\":10,\"md5\":\"ab\",\"more\":null}]}", 1)]
    [InlineData("{\"entries\":[null],\"spec\":{\"files\":1,\"fileSize\":10,\"seed\":7}}", 1)]
    [InlineData("{\"spec\":{\"files\":1,\"fileSize\":10,\"seed\":7},\"entries\":[]}", 0)]
    public void TheManifestReader_MatchesNamesInAnyCase_AndSkipsWhatItDoesNotKnow(string json, int entries)
    {
        var read = FileSet.ParseManifest(System.Text.Encoding.UTF8.GetBytes(json));

        Assert.NotNull(read);
        Assert.Equal(new FileSetSpec(1, 10, 7), read.Spec);
        Assert.Equal(entries, read.Entries.Count);
    }

    [Theory]
    [InlineData("[]")]
    [InlineData("{\"spec\":null,\"entries\":[]}")]
    [InlineData("{\"spec\":{\"files\":1,\"fileSize\":10,\"seed\":7}}")]
    [InlineData("{\"spec\":{\"files\":1,\"fileSize\":10,\"seed\":7},\"entries\":null}")]
    public void TheManifestReader_GivesNoManifest_WhenTheSpecOrTheEntriesAreMissing(string json) =>
        Assert.Null(FileSet.ParseManifest(System.Text.Encoding.UTF8.GetBytes(json)));

    [Theory]
    [InlineData("")]
    [InlineData("{\"spec\":{\"files\":\"one\"")]
    [InlineData("{\"spec\":{\"files\":\"one\",\"fileSize\":10,\"seed\":7},\"entries\":[]}")]
    [InlineData("{\"spec\":{\"files\":1e99,\"fileSize\":10,\"seed\":7},\"entries\":[]}")]
    [InlineData("{\"spec\":[],\"entries\":[]}")]
    [InlineData("{\"spec\":{\"files\":1,\"fileSize\":10,\"seed\":7},\"entries\":[7]}")]
    public void AManifestOfTheWrongShape_CountsAsNoSet(string manifest)
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-set-test-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(folder);
        try
        {
            File.WriteAllText(Path.Combine(folder, FileSet.ManifestName), manifest);

            Assert.Throws<FileSetException>(() => FileSet.Open(folder, Small));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    // A manifest edited to name a file outside the set (of the right size) is no set: a trial would hash that file.
    [Theory]
    [InlineData("../outside.bin")]
    [InlineData("file-00002.bin")]
    public void AManifestNamingOtherFiles_IsNotReused(string name)
    {
        var parent = Path.Combine(Path.GetTempPath(), "conclab-set-test-" + Guid.NewGuid().ToString("N"));
        var folder = Path.Combine(parent, "set");
        try
        {
            FileSet.Prepare(Small, folder, keep: true).Dispose();
            File.WriteAllBytes(Path.Combine(parent, "outside.bin"), new byte[Small.FileSize]);
            var manifestPath = Path.Combine(folder, FileSet.ManifestName);
            var manifest = File.ReadAllText(manifestPath);
            Assert.Contains("\"file-00000.bin\"", manifest, StringComparison.Ordinal);
            File.WriteAllText(manifestPath, manifest.Replace("\"file-00000.bin\"", "\"" + name + "\"", StringComparison.Ordinal));

            Assert.Throws<FileSetException>(() => FileSet.Open(folder, Small));
        }
        finally
        {
            Directory.Delete(parent, recursive: true);
        }
    }

    [Fact]
    public void CheckRoom_RefusesAFolderThatCannotBeWritten_AndMakesNothing()
    {
        var file = Path.Combine(Path.GetTempPath(), "conclab-set-test-" + Guid.NewGuid().ToString("N"));
        File.WriteAllText(file, "a file, not a folder");
        try
        {
            var problem = FileSet.CheckRoom(Small, Path.Combine(file, "set"));

            Assert.StartsWith("cannot write the file set in", problem, StringComparison.Ordinal);
            Assert.True(File.Exists(file));
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public void Prepare_WritesSeededFiles_WhoseHashesTheManifestHolds_AndDisposeDeletesThem()
    {
        string folder;
        using (var set = FileSet.Prepare(Small, folder: null, keep: false))
        {
            folder = set.Folder;
            Assert.False(set.Reused);
            Assert.Equal(3, set.Entries.Count);
            foreach (var entry in set.Entries)
            {
                var bytes = File.ReadAllBytes(set.PathOf(entry));
                Assert.Equal(300_000, bytes.Length);
#pragma warning disable CA5351 // MD5 is the experiment's workload, as published, not a security measure.
                Assert.Equal(entry.Md5, Convert.ToHexStringLower(MD5.HashData(bytes)));
#pragma warning restore CA5351
            }

            Assert.True(File.Exists(Path.Combine(folder, FileSet.ManifestName)));
            Assert.Equal(3, set.Entries.Select(e => e.Md5).Distinct().Count());
        }

        Assert.False(Directory.Exists(folder));
    }

    [Fact]
    public void TheSameSeed_GivesTheSameContent_AnotherSeedOther()
    {
        using var a = FileSet.Prepare(Small, null, keep: false);
        using var b = FileSet.Prepare(Small, null, keep: false);
        using var c = FileSet.Prepare(Small with { Seed = 7 }, null, keep: false);

        Assert.Equal(a.Entries.Select(e => e.Md5), b.Entries.Select(e => e.Md5));
        Assert.Empty(a.Entries.Select(e => e.Md5).Intersect(c.Entries.Select(e => e.Md5)));
    }

    [Fact]
    public void AFolderWithAMatchingManifest_IsReused_AndLeftInPlace()
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-fileset-test-" + Guid.NewGuid().ToString("N"));
        try
        {
            using (var first = FileSet.Prepare(Small, folder, keep: true))
            {
                Assert.False(first.Reused);
            }

            var written = File.GetLastWriteTimeUtc(Path.Combine(folder, "file-00000.bin"));
            using (var second = FileSet.Prepare(Small, folder, keep: false))
            {
                Assert.True(second.Reused);
            }

            // Not rewritten, and not deleted by a set that only reused it.
            Assert.Equal(written, File.GetLastWriteTimeUtc(Path.Combine(folder, "file-00000.bin")));

            // A set of another shape is not written over it.
            Assert.Throws<FileSetException>(() => FileSet.Prepare(Small with { Files = 2 }, folder, keep: false));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public void TooLittleDiskSpace_IsRefusedWithAOneLineReason_BeforeWritingAnything()
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-fileset-test-" + Guid.NewGuid().ToString("N"));
        var tooBig = FileSet.FreeBytes(Path.GetTempPath()) + (1L << 30);

        var error = Assert.Throws<FileSetException>(() => FileSet.Prepare(new FileSetSpec(1, tooBig, 1), folder, keep: false));

        Assert.Contains("MiB are free", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
        Assert.False(Directory.Exists(folder));
    }
}
