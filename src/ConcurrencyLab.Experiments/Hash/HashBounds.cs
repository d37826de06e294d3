using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>
/// The limits no way of hashing a file set can beat on this machine, measured on the set itself at the start
/// of a run: how fast the files can be read with 1 MiB reads (from the device when the cache is cold, from
/// memory when warm), and how much CPU a MiB costs to read (on a virtual disk a cold read costs CPU too) and to
/// hash with MD5, on cores that do both. Each is the best of a few attempts, since a bound is what the machine
/// was seen able to do. Reads are timed with one reader and with <see cref="ManyReaders"/> at once, and past the
/// cache where the system allows: on a virtual disk one reader was far from the fastest (405-1,056 MiB/s
/// against 1,835 with 16 readers on the same files), and a bound one reader sets is beaten by the variants.
/// </summary>
internal sealed record HashBounds
{
    /// <summary>How many readers read at once for the many-reader rate: enough to keep a device's queue full.</summary>
    public const int ManyReaders = 16;

    private const int Attempts = 3;
    private const int ReadAttempts = 2;
    private const int ReadBufferSize = 1024 * 1024;
    private const int HashSampleSize = 32 * 1024 * 1024;

    /// <summary>
    /// The fastest the device was seen to read: one reader, <see cref="ManyReaders"/> readers, and as many reading
    /// past the cache where the system can (O_DIRECT, as the <c>direct</c> variant does); 1 MiB reads, right after
    /// the files were evicted (MiB/s).
    /// </summary>
    public double DeviceReadMibPerSec => Math.Max(Math.Max(OneReaderMibPerSec, ManyReadersMibPerSec), DirectReadMibPerSec ?? 0);

    /// <summary><see cref="ManyReaders"/> readers reading past the cache (O_DIRECT) with 1 MiB reads (MiB/s); null where the system cannot.</summary>
    public double? DirectReadMibPerSec { get; init; }

    /// <summary>
    /// The least CPU time this process spent per MiB read, over every way of reading it timed (buffered from the
    /// device or the cache, direct): on a virtual disk a read costs CPU too, on the same cores that hash.
    /// </summary>
    public required double ReadCpuMsPerMib { get; init; }

    /// <summary>The CPU time MD5 needs per MiB on one core.</summary>
    public double HashCpuMsPerMib => 1000 / HashMibPerSecPerCore;

    /// <summary>
    /// What the cores can do when every MiB must be read and hashed on them: the cores over the CPU a MiB costs
    /// at the least (reading plus hashing), MiB/s.
    /// </summary>
    public double CpuMibPerSec => Cores * 1000 / (ReadCpuMsPerMib + HashCpuMsPerMib);

    /// <summary>One reader, 1 MiB reads, right after the files were evicted (MiB/s): the issue's definition of the device bound.</summary>
    public required double OneReaderMibPerSec { get; init; }

    /// <summary><see cref="ManyReaders"/> readers at once, 1 MiB reads, right after the files were evicted (MiB/s).</summary>
    public required double ManyReadersMibPerSec { get; init; }

    /// <summary>Whether the files were really out of the cache for <see cref="DeviceReadMibPerSec"/>.</summary>
    public required bool DeviceReadCold { get; init; }

    /// <summary>The faster of one reader and <see cref="ManyReaders"/>, 1 MiB reads, with every file in the cache
    /// (MiB/s); measured for warm runs only.</summary>
    public double? CachedReadMibPerSec { get; init; }

    /// <summary>MD5 over bytes in memory on one thread (MiB/s).</summary>
    public required double HashMibPerSecPerCore { get; init; }

    /// <summary>The cores the hashing could use.</summary>
    public required int Cores { get; init; }

    /// <summary>MD5 from memory on every core: one core's rate times the cores (MiB/s).</summary>
    public double HashMibPerSec => HashMibPerSecPerCore * Cores;

    /// <summary>The read rate that applies to a run with the cache <paramref name="cold"/> or warm.</summary>
    public double ReadMibPerSec(bool cold) => cold ? DeviceReadMibPerSec : CachedReadMibPerSec ?? DeviceReadMibPerSec;

    /// <summary>The tighter bound: the lower of the read rate that applies and what the cores can read and hash (MiB/s).</summary>
    public double TighterMibPerSec(bool cold) => Math.Min(ReadMibPerSec(cold), CpuMibPerSec);

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
            ["readCpuMsPerMib"] = Math.Round(ReadCpuMsPerMib, 3),
            ["hashCpuMsPerMib"] = Math.Round(HashCpuMsPerMib, 3),
            ["cpuMibPerSec"] = Math.Round(CpuMibPerSec, 1),
            ["cores"] = Cores,
        };
        if (DirectReadMibPerSec is { } direct)
        {
            bounds["deviceReadDirectMibPerSec"] = Math.Round(direct, 1);
        }

        if (CachedReadMibPerSec is { } cached)
        {
            bounds["cachedReadMibPerSec"] = Math.Round(cached, 1);
        }

        return bounds;
    }

    /// <summary>
    /// The ideal wall time for hashing <paramref name="totalBytes"/>, and why: the longer of reading it at the
    /// fastest rate seen and reading and hashing it on every core at the least CPU per MiB seen. Both limits
    /// hold for any variant, so none can beat it.
    /// </summary>
    public IdealBound Ideal(long totalBytes, bool cold)
    {
        var mib = totalBytes / (double)(1 << 20);
        var read = ReadMibPerSec(cold);
        var rate = TighterMibPerSec(cold);
        var source = cold
            ? $"the {(DeviceReadCold ? "cold" : "not cold")} files read at {Rate(DeviceReadMibPerSec)}, the fastest of one reader, " +
                $"{ManyReaders}{(DirectReadMibPerSec is null ? string.Empty : $" and {ManyReaders} reading past the cache")}"
            : $"the cached files read at {Rate(read)}, the faster of one reader and {ManyReaders}";
        var cpu = $"{Cores} cores reading and hashing at {Rate(CpuMibPerSec)}: a MiB costs {Ms(ReadCpuMsPerMib)} ms of CPU to read at the " +
            $"least and {Ms(HashCpuMsPerMib)} ms to hash with MD5";
        var binds = rate == CpuMibPerSec ? "the CPU that reading and hashing share binds"
            : cold ? "the device binds" : "reading from the cache binds";
        return new IdealBound(
            mib / rate * 1000,
            $"{mib.ToString("N0", CultureInfo.InvariantCulture)} MiB at {rate.ToString("N0", CultureInfo.InvariantCulture)} MiB/s, the " +
                $"slower of {cpu}, and {source}, all measured on this machine at the start of the run ({binds}; memory bandwidth is not " +
                $"measured apart)");
    }

    private static string Ms(double value) => value.ToString("0.00", CultureInfo.InvariantCulture);

    private static string Rate(double mibPerSec) => $"{mibPerSec.ToString("N0", CultureInfo.InvariantCulture)} MiB/s";

    /// <summary>Measures the bounds on <paramref name="paths"/>; the files end cached (every trial sets the cache it needs first).</summary>
    public static HashBounds Measure(IReadOnlyList<string> paths, bool cold, int cores, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(paths);
        var totalBytes = paths.Sum(p => new FileInfo(p).Length);
        double oneReader = 0, manyReaders = 0, readCpu = double.PositiveInfinity;
        double? direct = null;
        var allCold = true;
        var canReadDirect = DirectIo.IsSupported && DirectReadable(paths);
        for (var attempt = 0; attempt < ReadAttempts; attempt++)
        {
            foreach (var readers in new[] { 1, ManyReaders })
            {
                cancellationToken.ThrowIfCancellationRequested();
                allCold &= PageCache.EvictAll(paths).Cold;
                var (rate, cpu) = ReadRate(paths, totalBytes, readers, direct: false, cancellationToken);
                (oneReader, manyReaders) = readers == 1 ? (Math.Max(oneReader, rate), manyReaders) : (oneReader, Math.Max(manyReaders, rate));
                readCpu = Math.Min(readCpu, cpu);
            }

            // Reading past the cache costs the least CPU (no copy out of the page cache): the direct variant's way,
            // so the bound must allow for it.
            if (canReadDirect)
            {
                var (rate, cpu) = ReadRate(paths, totalBytes, ManyReaders, direct: true, cancellationToken);
                direct = Math.Max(direct ?? 0, rate);
                readCpu = Math.Min(readCpu, cpu);
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
                    var (rate, cpu) = ReadRate(paths, totalBytes, readers, direct: false, cancellationToken);
                    cachedRead = Math.Max(cachedRead ?? 0, rate);
                    readCpu = Math.Min(readCpu, cpu);
                }
            }
        }

        return new HashBounds
        {
            OneReaderMibPerSec = oneReader,
            ManyReadersMibPerSec = manyReaders,
            DirectReadMibPerSec = direct,
            DeviceReadCold = allCold,
            CachedReadMibPerSec = cachedRead,
            ReadCpuMsPerMib = double.IsFinite(readCpu) ? readCpu : 0,
            HashMibPerSecPerCore = HashRate(cancellationToken),
            Cores = cores,
        };
    }

    // Whether the file system takes direct reads (tmpfs, for one, refuses them).
    private static bool DirectReadable(IReadOnlyList<string> paths)
    {
        try
        {
            using var handle = DirectIo.OpenRead(paths[0]);
            return true;
        }
        catch (IOException)
        {
            return false;
        }
    }

    /// <summary>
    /// Reads every file once with <paramref name="readers"/> threads taking files from a shared queue, through the
    /// cache or past it (<paramref name="direct"/>); returns the rate and the CPU time this process spent per MiB.
    /// A reader's failure is thrown here, after every reader has stopped, never on a thread of its own where it
    /// would end the process; cancellation stops the readers between files.
    /// </summary>
    private static (double MibPerSec, double CpuMsPerMib) ReadRate(
        IReadOnlyList<string> paths,
        long totalBytes,
        int readers,
        bool direct,
        CancellationToken cancellationToken)
    {
        var queue = new System.Collections.Concurrent.ConcurrentQueue<string>(paths);
        var failures = new System.Collections.Concurrent.ConcurrentQueue<Exception>();
        var threads = Enumerable.Range(0, readers).Select(_ => new Thread(() =>
        {
            try
            {
                var buffer = direct ? null : new byte[ReadBufferSize];
                using var aligned = direct ? new AlignedBuffer(ReadBufferSize, DirectIo.Alignment) : null;
                while (failures.IsEmpty && !cancellationToken.IsCancellationRequested && queue.TryDequeue(out var path))
                {
                    if (aligned is null)
                    {
                        PageCache.ReadThrough(path, buffer!);
                    }
                    else
                    {
                        ReadDirect(path, aligned);
                    }
                }
            }
            catch (Exception ex)
            {
                failures.Enqueue(ex);
            }
        })).ToList();
        using var process = Process.GetCurrentProcess();
        var cpuBefore = process.TotalProcessorTime;
        var started = Stopwatch.GetTimestamp();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        var elapsed = Stopwatch.GetElapsedTime(started);
        process.Refresh();
        var cpu = process.TotalProcessorTime - cpuBefore;
        cancellationToken.ThrowIfCancellationRequested();
        if (failures.TryPeek(out var failure))
        {
            throw new IOException($"reading the file set to measure its read rate failed: {failure.Message}", failure);
        }

        var mib = totalBytes / (double)(1 << 20);
        return (MibPerSec(totalBytes, elapsed), cpu.TotalMilliseconds / Math.Max(mib, 1e-9));
    }

    // Every byte of a file past the cache, 1 MiB at a time, from aligned offsets; a short read is its end.
    private static void ReadDirect(string path, AlignedBuffer buffer)
    {
        using var handle = DirectIo.OpenRead(path);
        long offset = 0;
        int read;
        do
        {
            read = RandomAccess.Read(handle, buffer.Span, offset);
            offset += read;
        }
        while (read == buffer.Length);
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
