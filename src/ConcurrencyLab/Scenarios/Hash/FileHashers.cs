using System.Diagnostics;
using System.Security.Cryptography;
using System.Threading.Channels;

namespace ConcurrencyLab.Scenarios.Hash;

/// <summary>How the hash experiment's workers read and hash a file.</summary>
public enum HashMode
{
    /// <summary>A Channel feeds N workers; each opens the file plainly and hashes it with blocking reads (published).</summary>
    Sync,

    /// <summary>A Channel feeds N workers; each opens the file with FileOptions.Asynchronous and awaits HashDataAsync (published).</summary>
    Async,

    /// <summary>Parallel.ForEachAsync over the files with N as its degree, each hashed as in <see cref="Async"/>.</summary>
    ForEachAsync,
}

/// <summary>One file's result: its hash in lower-case hex and when it was finished (a Stopwatch timestamp).</summary>
public sealed record FileHash(string Path, string Md5, long FinishedAt);

/// <summary>
/// Hashes a list of files with MD5 in one of the <see cref="HashMode"/>s and N workers, as the published
/// experiment did. MD5 is its workload, not a security measure.
/// </summary>
public static class FileHashers
{
    // What FileStream reads at a time when it buffers, and the buffer the published code left at its default.
    private const int BufferSize = 4096;

    /// <summary>Hashes every file in <paramref name="paths"/> with <paramref name="workers"/> workers; the results come in the order files finished.</summary>
    public static async Task<IReadOnlyList<FileHash>> HashAllAsync(IReadOnlyList<string> paths, HashMode mode, int workers, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(paths);
        ArgumentOutOfRangeException.ThrowIfLessThan(workers, 1);
        var results = new System.Collections.Concurrent.ConcurrentQueue<FileHash>();
        if (mode == HashMode.ForEachAsync)
        {
            var options = new ParallelOptions { MaxDegreeOfParallelism = workers, CancellationToken = cancellationToken };
            await Parallel.ForEachAsync(paths, options, async (path, ct) => results.Enqueue(await HashAsync(path, ct).ConfigureAwait(false))).ConfigureAwait(false);
            return [.. results];
        }

        // The published shape: every path queued on a Channel up front, read by N workers as fast as they can.
        var channel = Channel.CreateUnbounded<string>(new UnboundedChannelOptions { SingleWriter = true });
        foreach (var path in paths)
        {
            channel.Writer.TryWrite(path);
        }

        channel.Writer.Complete();
        var running = new Task[workers];
        for (var w = 0; w < workers; w++)
        {
            running[w] = Task.Run(
                async () =>
                {
                    await foreach (var path in channel.Reader.ReadAllAsync(cancellationToken).ConfigureAwait(false))
                    {
                        results.Enqueue(mode == HashMode.Sync ? Hash(path) : await HashAsync(path, cancellationToken).ConfigureAwait(false));
                    }
                },
                cancellationToken);
        }

        await Task.WhenAll(running).ConfigureAwait(false);
        return [.. results];
    }

#pragma warning disable CA5351 // MD5 is the experiment's workload, as published, not a security measure.
    private static FileHash Hash(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, BufferSize);
        var md5 = MD5.HashData(stream);
        return new FileHash(path, Convert.ToHexStringLower(md5), Stopwatch.GetTimestamp());
    }

    private static async Task<FileHash> HashAsync(string path, CancellationToken cancellationToken)
    {
        var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, BufferSize, FileOptions.Asynchronous);
        await using (stream.ConfigureAwait(false))
        {
            var md5 = await MD5.HashDataAsync(stream, cancellationToken).ConfigureAwait(false);
            return new FileHash(path, Convert.ToHexStringLower(md5), Stopwatch.GetTimestamp());
        }
    }
#pragma warning restore CA5351
}
