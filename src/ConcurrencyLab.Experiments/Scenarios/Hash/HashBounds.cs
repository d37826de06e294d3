using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;

namespace ConcurrencyLab.Scenarios.Hash;

/// <summary>
/// The two rates no way of hashing a file set can beat on this machine, measured on the set itself at the
/// start of a run: how fast the files can be read with 1 MiB reads (from the device when the cache is cold,
/// from memory when warm), and how fast MD5 runs over bytes already in memory, on one core times the cores.
/// Each is the fastest of a few attempts, since a bound is what the machine was seen able to do. Reads are
/// timed with one reader and with <see cref="ManyReaders"/> at once: on a virtual disk one reader was far
/// from the fastest (405-1,056 MiB/s against 1,835 with 16 readers on the same files), and a bound one
/// reader sets is beaten by the variants.
/// </summary>
internal sealed record HashBounds
{
    /// <summary>How many readers read at once for the many-reader rate: enough to keep a device's queue full.</summary>
    public const int ManyReaders = 16;

    private const int Attempts = 3;
    private const int ReadAttempts = 2;
    private const int ReadBufferSize = 1024 * 1024;
    private const int HashSampleSize = 32 * 1024 * 1024;

    /// <summary>The faster of one reader and <see cref="ManyReaders"/> readers, 1 MiB reads, right after the files were evicted (MiB/s).</summary>
    public double DeviceReadMibPerSec => Math.Max(OneReaderMibPerSec, ManyReadersMibPerSec);

    /// <summary>One reader, 1 MiB reads, right after the files were evicted (MiB/s): the issue's definition of the device bound.</summary>
    public required double OneReaderMibPerSec { get; init; }

    /// <summary><see cref="ManyReaders"/> readers at once, 1 MiB reads, right after the files were evicted (MiB/s).</summary>
    public required double ManyReadersMibPerSec { get; init; }

    /// <summary>Whether the files were really out of the cache for <see cref="DeviceReadMibPerSec"/>.</summary>
    public required bool DeviceReadCold { get; init; }

    /// <summary>The faster of one reader and <see cref="ManyReaders"/>, 1 MiB reads, with every file in the cache (MiB/s); measured for warm runs only.</summary>
    public double? CachedReadMibPerSec { get; init; }

    /// <summary>MD5 over bytes in memory on one thread (MiB/s).</summary>
    public required double HashMibPerSecPerCore { get; init; }

    /// <summary>The cores the hashing could use.</summary>
    public required int Cores { get; init; }

    /// <summary>MD5 from memory on every core: one core's rate times the cores (MiB/s).</summary>
    public double HashMibPerSec => HashMibPerSecPerCore * Cores;

    /// <summary>The read rate that applies to a run with the cache <paramref name="cold"/> or warm.</summary>
    public double ReadMibPerSec(bool cold) => cold ? DeviceReadMibPerSec : CachedReadMibPerSec ?? DeviceReadMibPerSec;

    /// <summary>The tighter bound: the lower of the read rate that applies and the hash rate (MiB/s).</summary>
    public double TighterMibPerSec(bool cold) => Math.Min(ReadMibPerSec(cold), HashMibPerSec);

    /// <summary>The bounds by name, as results record them.</summary>
    public IReadOnlyDictionary<string, double> ToDictionary()
    {
        var bounds = new Dictionary<string, double>
        {
            ["deviceReadMibPerSec"] = Math.Round(DeviceReadMibPerSec, 1),
            ["deviceReadOneReaderMibPerSec"] = Math.Round(OneReaderMibPerSec, 1),
            ["deviceReadManyReadersMibPerSec"] = Math.Round(ManyReadersMibPerSec, 1),
            ["deviceReadCold"] = DeviceReadCold ? 1 : 0,
            ["hashMibPerSec"] = Math.Round(HashMibPerSec, 1),
            ["hashMibPerSecPerCore"] = Math.Round(HashMibPerSecPerCore, 1),
            ["cores"] = Cores,
        };
        if (CachedReadMibPerSec is { } cached)
        {
            bounds["cachedReadMibPerSec"] = Math.Round(cached, 1);
        }

        return bounds;
    }

    /// <summary>The ideal wall time for hashing <paramref name="totalBytes"/>, and why.</summary>
    public IdealBound Ideal(long totalBytes, bool cold)
    {
        var mib = totalBytes / (double)(1 << 20);
        var rate = TighterMibPerSec(cold);
        var read = cold
            ? $"reading from {(DeviceReadCold ? "the cold cache" : "a cache that would not go cold")} {Rate(DeviceReadMibPerSec)}, the faster of one reader and {ManyReaders}"
            : $"reading from the warm cache {Rate(ReadMibPerSec(cold))}, the faster of one reader and {ManyReaders}";
        var limit = rate == HashMibPerSec ? "hashing" : "reading";
        return new IdealBound(
            mib / rate * 1000,
            $"{mib.ToString("N0", CultureInfo.InvariantCulture)} MiB at {rate.ToString("N0", CultureInfo.InvariantCulture)} MiB/s, the tighter of MD5 from memory on {Cores} cores {Rate(HashMibPerSec)} and {read}, both measured on this machine at the start of the run ({limit} is the limit)");
    }

    private static string Rate(double mibPerSec) => $"({mibPerSec.ToString("N0", CultureInfo.InvariantCulture)} MiB/s)";

    /// <summary>Measures the bounds on <paramref name="paths"/>; the files end cached (every trial sets the cache it needs first).</summary>
    public static HashBounds Measure(IReadOnlyList<string> paths, bool cold, int cores, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(paths);
        var totalBytes = paths.Sum(p => new FileInfo(p).Length);
        double oneReader = 0, manyReaders = 0;
        var allCold = true;
        for (var attempt = 0; attempt < ReadAttempts; attempt++)
        {
            foreach (var readers in new[] { 1, ManyReaders })
            {
                cancellationToken.ThrowIfCancellationRequested();
                allCold &= PageCache.EvictAll(paths).Cold;
                var rate = ReadRate(paths, totalBytes, readers, cancellationToken);
                (oneReader, manyReaders) = readers == 1 ? (Math.Max(oneReader, rate), manyReaders) : (oneReader, Math.Max(manyReaders, rate));
            }
        }

        double? cachedRead = null;
        if (!cold)
        {
            PageCache.LoadAll(paths, cancellationToken);
            for (var attempt = 0; attempt < ReadAttempts; attempt++)
            {
                foreach (var readers in new[] { 1, ManyReaders })
                {
                    cachedRead = Math.Max(cachedRead ?? 0, ReadRate(paths, totalBytes, readers, cancellationToken));
                }
            }
        }

        return new HashBounds
        {
            OneReaderMibPerSec = oneReader,
            ManyReadersMibPerSec = manyReaders,
            DeviceReadCold = allCold,
            CachedReadMibPerSec = cachedRead,
            HashMibPerSecPerCore = HashRate(cancellationToken),
            Cores = cores,
        };
    }

    /// <summary>
    /// Reads every file once with <paramref name="readers"/> threads taking files from a shared queue. A
    /// reader's failure is thrown here, after every reader has stopped, never on a thread of its own where
    /// it would end the process; cancellation stops the readers between files.
    /// </summary>
    private static double ReadRate(IReadOnlyList<string> paths, long totalBytes, int readers, CancellationToken cancellationToken)
    {
        var queue = new System.Collections.Concurrent.ConcurrentQueue<string>(paths);
        var failures = new System.Collections.Concurrent.ConcurrentQueue<Exception>();
        var threads = Enumerable.Range(0, readers).Select(_ => new Thread(() =>
        {
            try
            {
                var buffer = new byte[ReadBufferSize];
                while (failures.IsEmpty && !cancellationToken.IsCancellationRequested && queue.TryDequeue(out var path))
                {
                    PageCache.ReadThrough(path, buffer);
                }
            }
            catch (Exception ex)
            {
                failures.Enqueue(ex);
            }
        })).ToList();
        var started = Stopwatch.GetTimestamp();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        var elapsed = Stopwatch.GetElapsedTime(started);
        cancellationToken.ThrowIfCancellationRequested();
        if (failures.TryPeek(out var failure))
        {
            throw new IOException($"reading the file set to measure its read rate failed: {failure.Message}", failure);
        }

        return MibPerSec(totalBytes, elapsed);
    }

#pragma warning disable CA5351 // MD5 is the experiment's workload, as published, not a security measure.
    private static double HashRate(CancellationToken cancellationToken)
    {
        var data = new byte[HashSampleSize];
        new Random(1).NextBytes(data);
        var best = 0.0;
        for (var attempt = 0; attempt < Attempts; attempt++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var started = Stopwatch.GetTimestamp();
            _ = MD5.HashData(data);
            best = Math.Max(best, MibPerSec(data.Length, Stopwatch.GetElapsedTime(started)));
        }

        return best;
    }
#pragma warning restore CA5351

    private static double MibPerSec(long bytes, TimeSpan elapsed) => bytes / (double)(1 << 20) / Math.Max(elapsed.TotalSeconds, 1e-9);
}
