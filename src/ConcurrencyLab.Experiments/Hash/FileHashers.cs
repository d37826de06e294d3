using System.Diagnostics;
using System.Security.Cryptography;
using System.Threading.Channels;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>How the hash experiment's workers read and hash a file.</summary>
internal enum HashMode
{
    /// <summary>A Channel feeds N workers; each opens the file plainly and hashes it with blocking reads (published).</summary>
    Sync,

    /// <summary>A Channel feeds N workers; each opens the file with FileOptions.Asynchronous and awaits HashDataAsync. The post
    /// opened it with File.Open, without the option, so its reads on Windows blocked a pool thread each.</summary>
    Async,

    /// <summary>Parallel.ForEachAsync over the files with N as its degree, each hashed as in <see cref="Async"/>.</summary>
    ForEachAsync,

    /// <summary>
    /// A Channel feeds N workers; each reads past the page cache (O_DIRECT) into an aligned buffer of
    /// <see cref="FileHashers.DirectBufferSize"/> and hashes it incrementally, with blocking reads.
    /// </summary>
    Direct,

    /// <summary>
    /// A Channel feeds N workers; each reads through the page cache in large blocks (<see cref="FileHashers.CachedBlockSize"/>),
    /// telling the kernel the file is read from start to end, and hashes each block as it comes, with blocking reads.
    /// </summary>
    Cached,
}

/// <summary>One file's result: its hash in lower-case hex, and when it was started and finished (Stopwatch timestamps).</summary>
internal sealed record FileHash(string Path, string Md5, long StartedAt, long FinishedAt)
{
    /// <summary>Whether the file was finished on a ThreadPool thread (async work is; a worker thread of its own is not).</summary>
    public bool OnPoolThread { get; init; } = Thread.CurrentThread.IsThreadPoolThread;

    /// <summary>How long the file took, from opening it to its hash.</summary>
    public double Milliseconds => Stopwatch.GetElapsedTime(StartedAt, FinishedAt).TotalMilliseconds;
}

/// <summary>
/// Hashes a list of files with MD5 in one of the <see cref="HashMode"/>s and N workers, as the published
/// experiment did. MD5 is its workload, not a security measure.
/// </summary>
internal static class FileHashers
{
    /// <summary>FileStream's default buffer, which the published code left as it was.</summary>
    public const int DefaultBufferSize = 4096;

    /// <summary>What a direct read asks for at a time: large, so each trip to the device carries much.</summary>
    public const int DirectBufferSize = 1024 * 1024;

    /// <summary>
    /// What a cached read asks for at a time: the kernel's default read-ahead window, chosen as that rather than as the
    /// measured best. At quick scale (64 files of 4 MiB, 4 workers, five trials): 128 KiB hashed a warm set in 267 ms,
    /// 1 MiB in 276 ms; cold, 1 MiB took 430 ms against 336-380 ms for 128 KiB and 325-364 ms for 64 KiB.
    /// </summary>
    public const int CachedBlockSize = 128 * 1024;

    /// <summary>
    /// Hashes every file in <paramref name="paths"/> with <paramref name="workers"/> workers; the results come
    /// in the order files finished. <paramref name="bufferSize"/> is the FileStream's buffer in the modes
    /// that use one.
    /// </summary>
    public static async Task<IReadOnlyList<FileHash>> HashAllAsync(
        IReadOnlyList<string> paths,
        HashMode mode,
        int workers,
        int bufferSize = DefaultBufferSize,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(paths);
        ArgumentOutOfRangeException.ThrowIfLessThan(workers, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(bufferSize, 1);
        var results = new System.Collections.Concurrent.ConcurrentQueue<FileHash>();
        if (mode == HashMode.ForEachAsync)
        {
            var options = new ParallelOptions { MaxDegreeOfParallelism = workers, CancellationToken = cancellationToken };
            await Parallel.ForEachAsync(paths, options,
                async (path, ct) => results.Enqueue(await HashAsync(path, bufferSize, ct).ConfigureAwait(false))).ConfigureAwait(false);
            return [.. results];
        }

        // The published shape: every path queued on a Channel up front, read by N workers as fast as they
        // can, each worker a thread of its own (the published code made its own threads, to keep the
        // ThreadPool's scheduling out of it). A sync worker holds its thread through every read; an async
        // one gives it up at each await and carries on wherever the continuation runs.
        var channel = Channel.CreateUnbounded<string>(new UnboundedChannelOptions { SingleWriter = true });
        foreach (var path in paths)
        {
            channel.Writer.TryWrite(path);
        }

        channel.Writer.Complete();
        var finished = new Task[workers];
        for (var w = 0; w < workers; w++)
        {
            var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            finished[w] = done.Task;
            var thread = new Thread(() =>
            {
                try
                {
                    if (mode == HashMode.Async)
                    {
                        WorkAsync(channel.Reader, results, bufferSize, cancellationToken).GetAwaiter().GetResult();
                    }
                    else
                    {
                        Work(channel.Reader, results, mode, bufferSize, cancellationToken);
                    }

                    done.SetResult();
                }
                catch (Exception ex)
                {
                    // Handed to the caller, never left to crash the process from a thread nobody joins.
                    done.SetException(ex);
                }
            })
            {
                IsBackground = true,
                Name = $"conclab hash worker {w}",
            };
            thread.Start();
        }

        await Task.WhenAll(finished).ConfigureAwait(false);
        return [.. results];
    }

    private static void Work(
        ChannelReader<string> files,
        System.Collections.Concurrent.ConcurrentQueue<FileHash> results,
        HashMode mode,
        int bufferSize,
        CancellationToken cancellationToken)
    {
        // Each direct worker keeps one aligned buffer for all its files.
        using var direct = mode == HashMode.Direct ? new AlignedBuffer(DirectBufferSize, DirectIo.Alignment) : null;
        var block = mode == HashMode.Cached ? new byte[CachedBlockSize] : null;
        while (files.TryRead(out var path))
        {
            cancellationToken.ThrowIfCancellationRequested();
            results.Enqueue(direct is not null ? HashDirect(path, direct) : block is not null ? HashCached(path, block) : Hash(path, bufferSize));
        }
    }

    private static async Task WorkAsync(
        ChannelReader<string> files,
        System.Collections.Concurrent.ConcurrentQueue<FileHash> results,
        int bufferSize,
        CancellationToken cancellationToken)
    {
        await foreach (var path in files.ReadAllAsync(cancellationToken).ConfigureAwait(false))
        {
            results.Enqueue(await HashAsync(path, bufferSize, cancellationToken).ConfigureAwait(false));
        }
    }

#pragma warning disable CA5351 // MD5 is the experiment's workload, as published, not a security measure.
    private static FileHash Hash(string path, int bufferSize)
    {
        var started = Stopwatch.GetTimestamp();
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize);
        var md5 = MD5.HashData(stream);
        return new FileHash(path, Convert.ToHexStringLower(md5), started, Stopwatch.GetTimestamp());
    }

    private static async Task<FileHash> HashAsync(string path, int bufferSize, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize, FileOptions.Asynchronous);
        await using (stream.ConfigureAwait(false))
        {
            var md5 = await MD5.HashDataAsync(stream, cancellationToken).ConfigureAwait(false);
            return new FileHash(path, Convert.ToHexStringLower(md5), started, Stopwatch.GetTimestamp());
        }
    }

    private static FileHash HashCached(string path, byte[] block)
    {
        var started = Stopwatch.GetTimestamp();

        // SequentialScan is posix_fadvise(SEQUENTIAL) on Linux: the kernel reads further ahead of each read.
        using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.Read, FileOptions.SequentialScan);
        return HashBlocks(path, started, handle, block);
    }

    private static FileHash HashDirect(string path, AlignedBuffer buffer)
    {
        var started = Stopwatch.GetTimestamp();
        using var handle = DirectIo.OpenRead(path);
        return HashBlocks(path, started, handle, buffer.Span);
    }

    // The file from its start, a block at a time, each hashed as it comes. Every read starts at a multiple of the
    // block's size, so a direct read stays aligned. A short read is the end of the file: past the cache, reading on
    // from its unaligned offset is what O_DIRECT refuses; through it, there is nothing more.
    private static FileHash HashBlocks(string path, long started, Microsoft.Win32.SafeHandles.SafeFileHandle handle, Span<byte> block)
    {
        using var md5 = IncrementalHash.CreateHash(HashAlgorithmName.MD5);
        long offset = 0;
        int read;
        do
        {
            read = RandomAccess.Read(handle, block, offset);
            md5.AppendData(block[..read]);
            offset += read;
        }
        while (read == block.Length);

        return new FileHash(path, Convert.ToHexStringLower(md5.GetHashAndReset()), started, Stopwatch.GetTimestamp());
    }
#pragma warning restore CA5351
}
