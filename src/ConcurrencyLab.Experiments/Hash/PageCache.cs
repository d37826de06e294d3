using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>
/// The operating system's page cache for one file: how much of it is in memory, and how to push it out, so
/// a "cold" read really goes to the device. On Linux: fsync, then posix_fadvise(DONTNEED) to drop the
/// file's clean pages, then mincore over a read-only mapping to check what stayed. Elsewhere nothing is
/// evicted and residency is unknown, and callers report that rather than claim a cold cache.
/// </summary>
internal static partial class PageCache
{
    private const int PosixFadviseDontNeed = 4;
    private const int ProtRead = 1;
    private const int MapShared = 1;

    /// <summary>Whether this system lets conclab evict and inspect a file's cached pages.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux() && Environment.Is64BitProcess;

    /// <summary>
    /// Writes out the file's dirty pages and asks the kernel to drop its cached ones. Returns null when the
    /// kernel accepted, or why it could not be done. The kernel may keep pages another process has mapped;
    /// <see cref="ResidentFraction"/> tells what stayed.
    /// </summary>
    public static string? Evict(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (!IsSupported)
        {
            return $"evicting files from the page cache is not supported on {RuntimeInformation.OSDescription}";
        }

        if (InMemory(path) is { } format)
        {
            return $"{path} is on {format}, which keeps files in memory: they cannot be read cold";
        }

        using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read);
        var fd = Descriptor(handle);
        if (Fsync(fd) != 0)
        {
            return $"fsync of {path} failed (errno {Marshal.GetLastPInvokeError()})";
        }

        // posix_fadvise returns the error number itself rather than setting errno.
        var error = PosixFadvise(fd, 0, 0, PosixFadviseDontNeed);
        return error == 0 ? null : $"posix_fadvise(DONTNEED) on {path} failed (errno {error})";
    }

    /// <summary>
    /// Evicts every file and then reads what stayed resident: the cold-cache check a trial runs before it
    /// measures. Cold means every file was evicted and, on the whole, at most 1% of their pages stayed. When
    /// more stayed and <paramref name="dropCachesFile"/> can be written (it takes root), the whole system's
    /// clean page cache is dropped too, and the files checked again.
    /// </summary>
    public static CacheState EvictAll(IReadOnlyList<string> paths, string dropCachesFile = DropCachesFile)
    {
        ArgumentNullException.ThrowIfNull(paths);
        // Every file is evicted, even after one fails; the first failure is the one reported.
        var problem = paths.Select(Evict).ToList().FirstOrDefault(p => p is not null);
        var resident = Resident(paths);
        var dropped = false;
        if (problem is null && resident is > ColdThreshold && TryDropCaches(dropCachesFile))
        {
            dropped = true;
            resident = Resident(paths);
        }

        return new CacheState(Cold: problem is null && resident is <= ColdThreshold, resident, problem) { DroppedAllCaches = dropped };
    }

    /// <summary>Reads every file through once with large reads, so its pages are in the cache: the warm case.</summary>
    public static CacheState LoadAll(IReadOnlyList<string> paths, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(paths);
        var buffer = new byte[1024 * 1024];
        foreach (var path in paths)
        {
            cancellationToken.ThrowIfCancellationRequested();
            ReadThrough(path, buffer);
        }

        return new CacheState(Cold: false, Resident(paths), null);
    }

    /// <summary>Reads <paramref name="path"/> from start to end into <paramref name="buffer"/>, keeping nothing.</summary>
    internal static void ReadThrough(string path, byte[] buffer)
    {
        using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read);
        for (long offset = 0, read; (read = RandomAccess.Read(handle, buffer, offset)) > 0; offset += read)
        {
        }
    }

    /// <summary>Where Linux lets root drop the clean page cache.</summary>
    public const string DropCachesFile = "/proc/sys/vm/drop_caches";

    private static double? Resident(IReadOnlyList<string> paths)
    {
        var fractions = paths.Select(ResidentFraction).ToList();
        return fractions.Count > 0 && fractions.All(f => f is not null) ? fractions.Average(f => f!.Value) : null;
    }

    private static bool TryDropCaches(string file)
    {
        try
        {
            // 1 drops clean page-cache pages only; dirty ones were written out by Evict's fsync.
            File.WriteAllText(file, "1");
            return true;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    private const double ColdThreshold = 0.01;

    /// <summary>The fraction of the file's pages in the page cache, from 0 to 1; null where it cannot be read.</summary>
    public static unsafe double? ResidentFraction(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (!IsSupported)
        {
            return null;
        }

        using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read);
        var length = RandomAccess.GetLength(handle);
        if (length == 0)
        {
            return 0;
        }

        var size = (nuint)length;
        var address = Mmap(IntPtr.Zero, size, ProtRead, MapShared, Descriptor(handle), 0);
        if (address == new IntPtr(-1))
        {
            return null;
        }

        try
        {
            var pageSize = Environment.SystemPageSize;
            var pages = (int)((length + pageSize - 1) / pageSize);
            var vector = new byte[pages];
            fixed (byte* v = vector)
            {
                if (Mincore(address, size, v) != 0)
                {
                    return null;
                }
            }

            var resident = 0;
            foreach (var page in vector)
            {
                resident += page & 1;
            }

            return (double)resident / pages;
        }
        finally
        {
            _ = Munmap(address, size);
        }
    }

    /// <summary>The file system's name when it keeps files in memory (tmpfs, ramfs), else null.</summary>
    public static string? InMemory(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        var format = new DriveInfo(Path.GetFullPath(path)).DriveFormat;
        return format is "tmpfs" or "ramfs" ? format : null;
    }

    private static int Descriptor(SafeFileHandle handle) => (int)handle.DangerousGetHandle();

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int Fsync(int fd);

    [LibraryImport("libc", EntryPoint = "posix_fadvise")]
    private static partial int PosixFadvise(int fd, long offset, long length, int advice);

    [LibraryImport("libc", EntryPoint = "mmap", SetLastError = true)]
    private static partial IntPtr Mmap(IntPtr address, nuint length, int protection, int flags, int fd, long offset);

    [LibraryImport("libc", EntryPoint = "munmap")]
    private static partial int Munmap(IntPtr address, nuint length);

    [LibraryImport("libc", EntryPoint = "mincore")]
    private static unsafe partial int Mincore(IntPtr address, nuint length, byte* vector);
}

/// <summary>What eviction achieved: whether the files are cold, the fraction of their pages still resident (null when
/// unknown) and, if eviction failed, why.</summary>
internal sealed record CacheState(bool Cold, double? ResidentFraction, string? Problem)
{
    /// <summary>Whether eviction file by file was not enough and the whole system's page cache was dropped.</summary>
    public bool DroppedAllCaches { get; init; }
}
