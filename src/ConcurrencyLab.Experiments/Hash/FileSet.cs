using System.Globalization;
using System.Security.Cryptography;
using System.Text.Json;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Serialization;
using ConcurrencyLab.Strategies;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>What a file set holds: how many files, how big each is, and the seed of their content.</summary>
internal sealed record FileSetSpec(int Files, long FileSize, int Seed)
{
    /// <summary>Bytes the set takes on disk.</summary>
    public long TotalBytes => Files * FileSize;
}

/// <summary>One file of a set and the MD5 its content must hash to.</summary>
internal sealed record FileSetEntry(string Name, long Size, string Md5);

/// <summary>
/// Files of seeded random content for the hash experiment, with a manifest of each file's MD5, in a folder
/// the user names or a temporary one. A folder whose manifest matches the spec is reused as it is, because
/// writing gigabytes for every run would cost more than the run. Disposing deletes what this set wrote,
/// unless it was asked to keep it; files it found already there are left alone.
/// </summary>
internal sealed class FileSet : IDisposable
{
    /// <summary>The manifest's file name in the set's folder.</summary>
    public const string ManifestName = "conclab-fileset.json";

    // What the manifest reader's complaints call what it reads.
    private const string ManifestWhat = "the file set's manifest";

    // Audience left free beside the set, so the run never fills the disk to the last byte.
    private const long Headroom = 64L * 1024 * 1024;

    private readonly bool _deleteFolder;
    private readonly bool _deleteFiles;

    // The run journal's note of the files to delete, dropped once they are.
    private RunJournal.JournalClaim? _claim;

    private FileSet(string folder, FileSetSpec spec, IReadOnlyList<FileSetEntry> entries, bool reused, bool deleteFolder, bool deleteFiles)
    {
        Folder = folder;
        Spec = spec;
        Entries = entries;
        Reused = reused;
        _deleteFolder = deleteFolder;
        _deleteFiles = deleteFiles;
    }

    public string Folder { get; }

    public FileSetSpec Spec { get; }

    public IReadOnlyList<FileSetEntry> Entries { get; }

    /// <summary>Whether the files were already there, from an earlier run with the same spec.</summary>
    public bool Reused { get; }

    /// <summary>The full path of an entry.</summary>
    public string PathOf(FileSetEntry entry)
    {
        ArgumentNullException.ThrowIfNull(entry);
        return Path.Combine(Folder, entry.Name);
    }

    /// <summary>
    /// Reuses the set in <paramref name="folder"/> when its manifest matches <paramref name="spec"/> and its
    /// files have the right sizes; otherwise writes it there (or in a new folder under
    /// <see cref="DefaultParent"/> when <paramref name="folder"/> is null). Throws
    /// <see cref="FileSetException"/> with a one-line reason when the disk has too little room or the folder
    /// holds another set, which is never written over.
    /// </summary>
    public static FileSet Prepare(FileSetSpec spec, string? folder, bool keep, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(spec);
        if (spec.Files < 1 || spec.FileSize < 1)
        {
            throw new FileSetException($"a file set needs at least one file of at least one byte, not {spec.Files} x {spec.FileSize} bytes");
        }

        var temporary = folder is null;
        var path = Path.GetFullPath(folder ?? Path.Combine(DefaultParent(), "conclab-files-" + Guid.NewGuid().ToString("N")));
        if (!temporary && TryReuse(path, spec) is { } entries)
        {
            return new FileSet(path, spec, entries, reused: true, deleteFolder: false, deleteFiles: false);
        }

        if (CheckFolder(spec, path) is { } problem)
        {
            throw new FileSetException(problem);
        }

        var createdFolder = !Directory.Exists(path);

        // Written down before the first byte: should the run be killed while writing, or before it deletes the
        // set, the next run removes it. A set to keep is forgotten once whole.
        var claim = RunJournal.Current?.Claim("the hash scenario's file set", path, removeFolder: createdFolder);
        Directory.CreateDirectory(path);
        if (createdFolder)
        {
            claim?.FolderMade();
        }

        try
        {
            var written = Write(path, spec, claim, cancellationToken);
            if (keep)
            {
                claim?.Dispose();
                claim = null;
            }

            return new FileSet(path, spec, written, reused: false, deleteFolder: createdFolder && !keep, deleteFiles: !keep) { _claim = claim };
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A set half written is deleted, whatever keep says: it could not be reused anyway. A failure to
            // delete must not hide why the writing failed.
            try
            {
                DeleteSet(path, spec.Files, createdFolder);
                claim?.Dispose();
            }
            catch (Exception cleanup) when (cleanup is IOException or UnauthorizedAccessException)
            {
                throw new FileSetException($"{ex.Message}; and the half-written set in {path} could not be deleted: {cleanup.Message}", ex);
            }

            throw;
        }
    }

    /// <summary>
    /// Where a set goes when no folder is named: the system's temporary folder, unless it keeps files in
    /// memory (tmpfs, as /tmp is on many Linux systems), where they could never be read cold; then /var/tmp.
    /// </summary>
    public static string DefaultParent()
    {
        var temp = Path.GetTempPath();
        const string varTmp = "/var/tmp";
        return OperatingSystem.IsLinux() && PageCache.InMemory(temp) is not null && Directory.Exists(varTmp) && PageCache.InMemory(varTmp) is null
            ? varTmp
            : temp;
    }

    /// <summary>
    /// Opens the set a run prepared in <paramref name="folder"/>, as a trial's process finds it: nothing is
    /// written, and disposing deletes nothing. Throws <see cref="FileSetException"/> when the folder does
    /// not hold a complete set matching <paramref name="spec"/>.
    /// </summary>
    public static FileSet Open(string folder, FileSetSpec spec)
    {
        ArgumentNullException.ThrowIfNull(folder);
        ArgumentNullException.ThrowIfNull(spec);
        var path = Path.GetFullPath(folder);
        return TryReuse(path, spec) is { } entries
            ? new FileSet(path, spec, entries, reused: true, deleteFolder: false, deleteFiles: false)
            : throw new FileSetException($"{path} holds no complete file set of {spec.Files} x {spec.FileSize} bytes with seed {spec.Seed}");
    }

    /// <summary>
    /// Why <see cref="Prepare"/> would refuse, in one line, or null when it would not: a matching set already
    /// in <paramref name="folder"/> is fine as it is; otherwise the folder must hold no other set, must be
    /// a folder that can be written (it is made, and removed again, to find out), and its disk needs room for
    /// the set plus some to spare.
    /// </summary>
    public static string? CheckRoom(FileSetSpec spec, string? folder)
    {
        ArgumentNullException.ThrowIfNull(spec);
        var path = Path.GetFullPath(folder ?? DefaultParent());
        if (folder is not null && TryReuse(path, spec) is not null)
        {
            return null;
        }

        if (CheckFolder(spec, path) is { } problem)
        {
            return problem;
        }

        return FolderProbe.WhyNotWritable(path) is { } why ? $"cannot write the file set in {path}: {why}" : null;
    }

    /// <summary>Another set in the folder, or too little room on its disk; null when neither.</summary>
    private static string? CheckFolder(FileSetSpec spec, string path)
    {
        if (ReadManifest(path) is { } other && other.Spec != spec)
        {
            return $"{path} holds another file set ({other.Spec.Files} files of {other.Spec.FileSize} bytes, seed {other.Spec.Seed}), which " +
                $"is not written over; choose another --dir, or the same --files, --file-size and --seed";
        }

        // The folder may not exist yet: ask the nearest folder that does.
        var existing = new DirectoryInfo(path);
        while (existing is { Exists: false })
        {
            existing = existing.Parent;
        }

        return existing is null ? $"cannot find the disk {path} would be on" : RoomProblem(existing.FullName, spec.TotalBytes);
    }

    /// <summary>The bytes free on the file system holding <paramref name="folder"/>.</summary>
    public static long FreeBytes(string folder) => new DriveInfo(Path.GetFullPath(folder)).AvailableFreeSpace;

    private static string? RoomProblem(string folder, long bytes)
    {
        var free = FreeBytes(folder);
        return free >= bytes + Headroom
            ? null
            : $"the file set needs {Mib(bytes + Headroom)} MiB in {folder} (with {Mib(Headroom)} MiB to spare), but only {Mib(free)} MiB " +
                $"are free; choose another --dir or fewer or smaller files";
    }

    private static string Mib(long bytes) => (bytes / (1024.0 * 1024)).ToString("0", CultureInfo.InvariantCulture);

    private static string FileName(int index) => $"file-{index.ToString("D5", CultureInfo.InvariantCulture)}.bin";

    private static List<FileSetEntry> Write(string folder, FileSetSpec spec, RunJournal.JournalClaim? claim, CancellationToken cancellationToken)
    {
        // The files on every core at once, on threads of the set's own: alone, the quick set's 256 MiB took 2.1-2.2 s on one
        // core, 1.6-1.7 s with Parallel.For and 1.3-1.4 s this way (at the end of a first look 2.1-2.4 s either way: hash.md).
        List<FileSetEntry> entries = [.. new FileSetEntry[spec.Files]];
        var journal = new Lock();
        var chunkSize = (int)Math.Min(spec.FileSize, 1024 * 1024);
        var next = -1;
        var failures = new FirstFailure();
        void Work() => failures.Run(() =>
        {
            var buffer = new byte[chunkSize];
            for (var i = Interlocked.Increment(ref next); i < spec.Files && !failures.Failed; i = Interlocked.Increment(ref next))
            {
                entries[i] = WriteFile(folder, i, spec, buffer, claim, journal, cancellationToken);
            }
        });

        var helpers = Enumerable.Range(1, Math.Min(Environment.ProcessorCount, spec.Files) - 1)
            .Select(_ => new Thread(Work) { IsBackground = true, Name = "conclab file set" })
            .ToList();
        helpers.ForEach(t => t.Start());
        Work();
        helpers.ForEach(t => t.Join());

        // The first failure, as it was thrown: a full disk is an IOException to the caller, a cancellation a cancellation.
        failures.ThrowIfAny();

        // The manifest last: a set without one is never taken for complete.
        File.WriteAllText(Path.Combine(folder, ManifestName), JsonSerializer.Serialize(new Manifest(spec, entries), LabJson.Options));
        claim?.Made(ManifestName);
        return entries;
    }

    private static FileSetEntry WriteFile(
        string folder,
        int index,
        FileSetSpec spec,
        byte[] buffer,
        RunJournal.JournalClaim? claim,
        Lock journal,
        CancellationToken cancellationToken)
    {
        // Gigabytes take a minute: a cancelled run stops between files, and the half-written set is deleted.
        cancellationToken.ThrowIfCancellationRequested();

        // Each file's content depends on the seed and its index only, so a set can be rebuilt exactly.
        var random = new Random(unchecked((spec.Seed * 1_000_003) + index));
        using var md5 = IncrementalHash.CreateHash(HashAlgorithmName.MD5);
        var name = FileName(index);

        // Named before it is made too: a run killed between making it and naming it leaves nothing a next run cannot remove.
        lock (journal)
        {
            claim?.Making(name);
        }

        using (var stream = new FileStream(Path.Combine(folder, name), FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 0))
        {
            // Named to the journal as made, before its first byte: a next run removes only this very file.
            lock (journal)
            {
                claim?.Made(name);
            }

            for (long left = spec.FileSize; left > 0;)
            {
                // And within a file, between MiB: a 16 MiB file on a slow disk takes long enough to notice.
                cancellationToken.ThrowIfCancellationRequested();
                var chunk = (int)Math.Min(left, buffer.Length);
                random.NextBytes(buffer.AsSpan(0, chunk));
                stream.Write(buffer, 0, chunk);
                md5.AppendData(buffer, 0, chunk);
                left -= chunk;
            }
        }

        return new FileSetEntry(name, spec.FileSize, Convert.ToHexStringLower(md5.GetHashAndReset()));
    }

    private static List<FileSetEntry>? TryReuse(string folder, FileSetSpec spec)
    {
        if (ReadManifest(folder) is not { } manifest || manifest.Spec != spec || manifest.Entries.Count != spec.Files)
        {
            return null;
        }

        // Names are the ones the writer gives, in its order, so a manifest someone edited cannot point a trial at a
        // file outside the folder. Sizes are checked now; content is checked by every trial, which hashes every file anyway.
        return manifest.Entries.Select((e, i) => e?.Name == FileName(i) && new FileInfo(Path.Combine(folder, e.Name)) is { Exists: true } f
            && f.Length == e.Size).All(ok => ok)
            ? [.. manifest.Entries]
            : null;
    }

    /// <summary>The folder's manifest, or null when there is none or it cannot be read as one.</summary>
    private static Manifest? ReadManifest(string folder)
    {
        var manifestPath = Path.Combine(folder, ManifestName);
        try
        {
            return File.Exists(manifestPath) ? ParseManifest(File.ReadAllBytes(manifestPath)) : null;
        }
        catch (Exception ex) when (ex is JsonException or IOException or UnauthorizedAccessException or NotSupportedException
            or InvalidOperationException or FormatException)
        {
            return null;
        }
    }

    /// <summary>
    /// Reads what <see cref="Write"/> wrote, by hand with <see cref="Utf8JsonReader"/>: every hash trial's process
    /// reads it, and the serializer's reflection compiled some 170 methods there, 50-90 ms of its start-up. Names
    /// match without regard to case and unknown members are skipped, as the serializer's web defaults did; null
    /// when the spec or the entries are missing or null.
    /// </summary>
    internal static Manifest? ParseManifest(ReadOnlySpan<byte> json)
    {
        var reader = new Utf8JsonReader(json);
        JsonMembers.Read(ref reader, ManifestWhat);
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            return null;
        }

        FileSetSpec? spec = null;
        List<FileSetEntry>? entries = null;
        while (JsonMembers.Next(ref reader, ManifestWhat, out var name))
        {
            if (Is(name, "spec"))
            {
                spec = reader.TokenType == JsonTokenType.Null ? null : ReadSpec(ref reader);
            }
            else if (Is(name, "entries"))
            {
                entries = reader.TokenType == JsonTokenType.Null ? null : ReadEntries(ref reader);
            }
            else
            {
                reader.Skip();
            }
        }

        return spec is null || entries is null ? null : new Manifest(spec, entries);
    }

    private static FileSetSpec ReadSpec(ref Utf8JsonReader reader)
    {
        JsonMembers.Open(ref reader, ManifestWhat);
        int files = 0, seed = 0;
        long fileSize = 0;
        while (JsonMembers.Next(ref reader, ManifestWhat, out var name))
        {
            if (Is(name, "files"))
            {
                files = reader.GetInt32();
            }
            else if (Is(name, "fileSize"))
            {
                fileSize = reader.GetInt64();
            }
            else if (Is(name, "seed"))
            {
                seed = reader.GetInt32();
            }
            else
            {
                reader.Skip();
            }
        }

        return new FileSetSpec(files, fileSize, seed);
    }

    private static List<FileSetEntry> ReadEntries(ref Utf8JsonReader reader)
    {
        if (reader.TokenType != JsonTokenType.StartArray)
        {
            throw new JsonException($"{ManifestWhat} has {reader.TokenType} where its entries belong.");
        }

        var entries = new List<FileSetEntry>();
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            entries.Add(reader.TokenType == JsonTokenType.Null ? null! : ReadEntry(ref reader));
        }

        return entries;
    }

    private static FileSetEntry ReadEntry(ref Utf8JsonReader reader)
    {
        JsonMembers.Open(ref reader, ManifestWhat);
        string? file = null, md5 = null;
        long size = 0;
        while (JsonMembers.Next(ref reader, ManifestWhat, out var name))
        {
            if (Is(name, "name"))
            {
                file = reader.GetString();
            }
            else if (Is(name, "size"))
            {
                size = reader.GetInt64();
            }
            else if (Is(name, "md5"))
            {
                md5 = reader.GetString();
            }
            else
            {
                reader.Skip();
            }
        }

        return new FileSetEntry(file!, size, md5!);
    }

    private static bool Is(string name, string expected) => string.Equals(name, expected, StringComparison.OrdinalIgnoreCase);

    // Every file it can, also past one that cannot go (written side by side, later files may exist beside it); then the first failure.
    private static void DeleteSet(string folder, int files, bool folderToo)
    {
        var failures = new FirstFailure();
        foreach (var name in Enumerable.Range(0, files).Select(FileName).Append(ManifestName))
        {
            failures.Run(() => File.Delete(Path.Combine(folder, name)));
        }

        failures.ThrowIfAny();

        if (folderToo && Directory.Exists(folder) && !Directory.EnumerateFileSystemEntries(folder).Any())
        {
            Directory.Delete(folder);
        }
    }

    /// <summary>Deletes what this set wrote, unless it was kept or reused.</summary>
    public void Dispose()
    {
        if (_deleteFiles)
        {
            DeleteSet(Folder, Spec.Files, _deleteFolder);
        }

        _claim?.Dispose();
        _claim = null;
    }

    internal sealed record Manifest(FileSetSpec Spec, IReadOnlyList<FileSetEntry> Entries);
}

/// <summary>A file set that cannot be made as asked, such as for want of disk space; its message is one line for the user.</summary>
internal sealed class FileSetException : Exception
{
    public FileSetException(string message)
        : base(message)
    {
    }

    public FileSetException()
    {
    }

    public FileSetException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
