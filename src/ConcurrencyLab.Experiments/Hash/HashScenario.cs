using ConcurrencyLab.Reproduction.Claims;
using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>
/// A set of files hashed with MD5 by N workers fed from a Channel, sync vs async, as published in
/// the post "Benchmarking Async Throughput"; with the page cache emptied before every trial (or filled, for the CPU-bound case), every hash
/// checked against the set's manifest, and the two rates no variant can beat measured on the same files.
/// </summary>
public sealed class HashScenario : Scenario, IReproducesPost
{
    private static readonly (string Kind, HashMode Mode, string Description)[] Kinds =
    [
        ("sync", HashMode.Sync, "a Channel feeds N worker threads; each opens the file and hashes it with MD5.HashData, blocking reads (published)"),
        ("async", HashMode.Async, "a Channel feeds N worker threads; each opens the file with FileOptions.Asynchronous and awaits " +
            "MD5.HashDataAsync (published, which opened without the option)"),
        ("foreach-async", HashMode.ForEachAsync, "Parallel.ForEachAsync over the files at degree N, each hashed as async does"),
        ("cached", HashMode.Cached, "a Channel feeds N worker threads; each reads through the page cache in 128 KiB blocks, the file opened " +
            "for a sequential scan so the kernel reads further ahead, and hashes them as they come"),
        ("direct", HashMode.Direct, "a Channel feeds N worker threads; each reads past the page cache (O_DIRECT) in aligned 1 MiB blocks " +
            "and hashes them as they come"),
    ];

    /// <inheritdoc/>
    public override string Name => "hash";

    /// <inheritdoc/>
    public override string Summary => "N workers hashing a set of files with MD5 from a cold (or warm) cache: sync vs async vs direct reads";

    /// <inheritdoc/>
    public override string Reproduces => "sync vs async file hashing with N workers fed by a Channel (the post \"Benchmarking Async Throughput\")";

    private static readonly Parameter<int> Files = Parameter.WholeNumber("files", 512,
        "files in the set (the published 512)", minimum: 1, maximum: 100_000, quick: 64);

    private static readonly Parameter<long> FileSize = Size("file-size", "16MiB",
        "size of each file, such as 16MiB, 4M or 65536 (bytes); the published 16 MiB", 64L << 30, quick: "4MiB");

    // The range --workers accepts, and so does a variant's own count.
    private const int MostWorkers = 4096;

    private static readonly Parameter<IReadOnlyList<int>> Workers = Parameter.WholeNumbers("workers", [16, 32, 64, 128],
        "workers hashing at once; each is a variant suffix (sync@64)", minimum: 1, maximum: MostWorkers);

    private static readonly Parameter<bool> Cold = Parameter.Choice(
        "cache", true,
            "cold: the files are evicted from the page cache before each trial, and checked; warm: read into it first, the CPU-bound case",
                ("cold", true), ("warm", false));

    private static readonly Parameter<long> BufferSize = Size(
        "buffer-size", "4KiB",
            "FileStream's buffer in sync, async and foreach-async (the published code kept the default 4 KiB); direct always reads 1 MiB", 64L << 20);

    // Empty: a new temporary folder. The run's set-up fills it in for the trials with the folder it made or found.
    private static readonly Parameter<string> Dir = Parameter.FreeText(
        "dir", string.Empty,
            "folder for the file set; a matching set there is reused and left in place (default: a new temporary folder, deleted after the run)");

    private static readonly Parameter<bool> Keep = Parameter.Switch("keep", "keep the file set after the run, to reuse it with --dir");

    /// <summary>The most MiB/s a device limit may be set to.</summary>
    internal const double MostDeviceMibPerSec = 1_000_000;

    /// <summary>A slower disk, emulated: the file set's device limited to this many MiB/s of reads (0: as it is).</summary>
    internal static readonly Parameter<double> DeviceLimit = Parameter.Number(
        "device-mibps", 0,
            "limit the file set's device to this many MiB/s of reads for the bounds and every trial, as a slower disk (the post's USB SSD " +
                "read 374); Linux's cgroup v1 blkio controller, as root; where it is missing the run reads the device as it is and says " +
                "why; 0: off", minimum: 0, maximum: MostDeviceMibPerSec);

    /// <inheritdoc/>
    public override IReadOnlyList<Parameter> Parameters { get; init; } = [Files, FileSize, Workers, Cold, BufferSize, Dir, Keep, DeviceLimit];

    /// <summary>A size as people type it (<see cref="ByteSize"/>), from 1 byte to <paramref name="maximum"/>.</summary>
    private static Parameter<long> Size(string name, string defaultValue, string description, long maximum, string? quick = null) =>
        Parameter.Of(name, defaultValue, description, text => ByteSize.TryParse(text, out var bytes) && bytes >= 1 && bytes <= maximum
            ? (bytes, (string?)null)
            : (0L, $"--{name} must be a size from {ByteSize.Format(1)} to {ByteSize.Format(maximum)}, such as 16MiB, 512KiB or 4096, not '{text}'."),
            quick);

    /// <summary>Checks as for a run with the default seed; the planner passes the run's own.</summary>
    public override IEnumerable<string> Validate(ParameterValues parameters) => Validate(parameters, DefaultSeed);

    /// <inheritdoc/>
    public override IEnumerable<string> Validate(ParameterValues parameters, int seed)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var dir = FolderOf(parameters);
        if (dir is not null && File.Exists(dir))
        {
            yield return $"--dir {dir} is a file; give a folder.";
            yield break;
        }

        // Refused now, before any trial, rather than after the user has waited for the run to start.
        if (FileSet.CheckRoom(Spec(parameters, seed), dir) is { } room)
        {
            yield return room + ".";
        }
    }

    // How files are read, by N workers at once: sync@64.
    private static readonly VariantParameter WorkersAtOnce = new("workers", "how many workers hash at once", 1,
        MostWorkers) { Describe = n => $"; N = {n}" };

    private static readonly VariantSpace Readers = new(
        "hash",
        "kind",
        [
            .. Kinds.Select(k => new VariantFamily(k.Kind, k.Description)
            {
                Parameters = [WorkersAtOnce],
                Unavailable = k.Mode == HashMode.Direct && !DirectIo.IsSupported ? "needs direct reads (O_DIRECT), which this system does not offer"
                    : null,
            }),
        ]);

    /// <inheritdoc/>
    public override VariantSpace Variants(ParameterValues parameters) => Readers;

    /// <inheritdoc/>
    public override IReadOnlyList<Variant> DefaultVariants(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return [.. Readers.Families.Where(f => f.Unavailable is null).SelectMany(f => parameters.Get(Workers).Select(n => Readers.Create(f.Id, n)))];
    }

    /// <inheritdoc/>
    public override Variant DefaultBaseline(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return Readers.Create("sync", parameters.Get(Workers)[0]);
    }

    /// <summary>Planned without measuring, so unknown (0) until the run's set-up measures the bounds on the files.</summary>
    public override IdealBound Ideal(ParameterValues parameters, int seed) =>
        new(
            0, "the set's size over the tighter of two rates measured on the files at the start of each run: reading with 1 MiB reads (the " +
                "faster of one reader and 16), and MD5 from memory on every core");

    /// <inheritdoc/>
    public override TimeSpan ExpectedTrialDuration(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        // 100 MiB/s, or the device's limit where a slower one is asked for.
        var mibPerSec = parameters.Get(DeviceLimit) is > 0 and < 100 and var limit ? limit : 100;
        return TimeSpan.FromSeconds(parameters.Get(Files) * (double)parameters.Get(FileSize) / (mibPerSec * (1 << 20)));
    }

    internal static readonly Metric MibPerSec = Metric.Rate("mibPerSec", "MiB/s") with { Visibility = MetricVisibility.Everywhere,
        Description = "MiB of the set hashed per second of the region" };

    internal static readonly Metric FilesPerSec = Metric.Rate("filesPerSec", "Files/s") with { Visibility = MetricVisibility.Everywhere,
        Description = "files hashed per second of the region" };

    internal static readonly Metric ResidentPercent = Metric.Rate("residentPercent", "Cached %") with
    {
        Direction = MetricDirection.Neither,
        Visibility = MetricVisibility.Everywhere,
        Description = "share of the set's pages in the page cache as the region began, checked with mincore",
    };

    internal static readonly Metric NotCold = Metric.Count("notCold", "Not cold") with
    {
        FlagsWhenNotZero = true,
        Description = "1 when the run asked for a cold cache and the files could not be evicted from it",
    };

    internal static readonly Metric HashMismatches = Metric.Count("hashMismatches", "Wrong hashes") with
    {
        Description = "files whose MD5 was not the manifest's, or that were not hashed (the trial fails)",
    };

    internal static readonly Metric CacheCold = Metric.Count("cacheCold", "Cache cold") with { Direction = MetricDirection.Neither,
        Description = "1 when the files were out of the page cache as the region began" };

    internal static readonly Metric DroppedAllCaches = Metric.Count("droppedAllCaches", "Dropped all caches") with
    {
        Direction = MetricDirection.Neither,
        Description = "1 when eviction fell back to dropping every cache on the machine (root, where per-file eviction left pages behind)",
    };

    /// <inheritdoc/>
    public override IReadOnlyList<Metric> Metrics { get; init; } = [MibPerSec, FilesPerSec, ResidentPercent, NotCold, HashMismatches, CacheCold,
        DroppedAllCaches];

    /// <inheritdoc/>
    public override IEnumerable<string> Notes(ParameterValues parameters, bool quick)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (OperatingSystem.IsLinux())
        {
            yield return "on Linux, .NET runs an async read of a regular file as a blocking read on a pool thread, with or without " +
                "FileOptions.Asynchronous: async and sync make the same reads here, on different threads.";
        }

        if (parameters.Get(BufferSize) is var buffer && buffer != FileHashers.DefaultBufferSize)
        {
            yield return $"FileStream's buffer was {ByteSize.Format(buffer)}, not the published default of 4 KiB.";
        }
    }

    /// <inheritdoc/>
    PublishedClaims IReproducesPost.Claims => HashClaims.All;

    /// <inheritdoc/>
    /// <remarks>sync and async at the fewest and the most workers: the published claims.</remarks>
    internal override IReadOnlyList<string> FirstLook => ["sync@16", "sync@128", "async@16", "async@128"];

    /// <inheritdoc/>
    public override Task<RunFixture?> PrepareRunAsync(ParameterValues parameters, int seed, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return Task.Run(() => Prepare(parameters, seed, cancellationToken), cancellationToken);
    }

    private static RunFixture? Prepare(ParameterValues parameters, int seed, CancellationToken cancellationToken)
    {
        var spec = Spec(parameters, seed);
        var keep = parameters.Get(Keep);
        var cold = parameters.Get(Cold);
        var started = Stopwatch.GetTimestamp();
        var set = FileSet.Prepare(spec, FolderOf(parameters), keep, cancellationToken);
        DeviceThrottle? throttle = null;
        try
        {
            var notes = new List<string>();
            var what = $"{spec.Files} files of {ByteSize.Format(spec.FileSize)} ({ByteSize.Format(spec.TotalBytes)})";
            notes.Add(set.Reused
                ? $"the file set of {what} in {set.Folder} was reused, as its manifest matched; it is left there."
                : $"the file set of {what} was written to {set.Folder} in " +
                    $"{Stopwatch.GetElapsedTime(started).TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s; {(keep ? "it is " +
                    "kept (--keep)" : "it is deleted after the run")}.");
            if (cold && !PageCache.IsSupported)
            {
                notes.Add(
                    "this system gives no way to evict files from its page cache here: the trials ran on whatever it kept, and say cacheCold 0.");
            }
            else if (cold && PageCache.InMemory(set.Folder) is { } format)
            {
                notes.Add($"the files are on {format}, which keeps them in memory: the cache could not be made cold, and the trials say " +
                    $"cacheCold 0.");
            }

            throttle = Throttle(set.Folder, parameters.Get(DeviceLimit), notes);
            var bounds = HashBounds.Measure([.. set.Entries.Select(set.PathOf)], cold, Environment.ProcessorCount, cancellationToken);
            if (cold && !bounds.DeviceReadCold)
            {
                notes.Add("the files would not go cold for the read bound, so deviceReadMibPerSec is a rate from the cache, not the device.");
            }

            var measured = new Dictionary<string, double>(bounds.ToDictionary());
            if (throttle is not null)
            {
                measured["deviceLimitMibPerSec"] = throttle.MibPerSec;
            }

            var held = throttle;
            return new RunFixture(
                new Dictionary<string, string> { [Dir.Name] = set.Folder },
                notes,
                () =>
                {
                    held?.Dispose();
                    set.Dispose();
                    return ValueTask.CompletedTask;
                })
            {
                Ideal = bounds.Ideal(spec.TotalBytes, cold),
                Bounds = measured,
            };
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            throttle?.Dispose();
            // Measuring the bounds failed: the set goes, but a failure to delete it must not hide why.
            try
            {
                set.Dispose();
            }
            catch (Exception cleanup) when (cleanup is IOException or UnauthorizedAccessException)
            {
                throw new FileSetException($"{ex.Message}; and the file set in {set.Folder} could not be deleted: {cleanup.Message}", ex);
            }

            throw;
        }
    }

    // The device limited for the run where asked and where the kernel allows it; otherwise a note says why not.
    private static DeviceThrottle? Throttle(string folder, double mibPerSec, List<string> notes)
    {
        if (mibPerSec <= 0)
        {
            return null;
        }

        var limit = mibPerSec.ToString("0.#", CultureInfo.InvariantCulture);
        DeviceThrottle throttle;
        try
        {
            // Start says why where the kernel, the user or the filesystem allows no limit.
            throttle = DeviceThrottle.Start(folder, mibPerSec);
        }
        catch (IOException ex)
        {
            notes.Add($"the device could not be limited to {limit} MiB/s ({ex.Message}): the bounds and the trials read it at its own speed.");
            return null;
        }

        notes.Add($"the device {throttle.Device} was limited to {limit} MiB/s of reads (cgroup v1 blkio) for the bounds and every trial, " +
            $"as a slower disk would read: a machine emulated, whose cores are this one's.");
        return throttle;
    }

    /// <inheritdoc/>
    public override async Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        var kind = Kinds.FirstOrDefault(k => k.Kind == context.Variant.Family);
        var workers = context.Variant.WholeNumber(WorkersAtOnce.Name) ?? 0;
        if (kind.Kind is null || workers < 1)
        {
            throw new ArgumentException($"{context.Variant} is not a hash variant.", nameof(context));
        }

        var parameters = context.Parameters;
        var spec = Spec(parameters, context.Seed);
        var bufferSize = (int)parameters.Get(BufferSize);
        var folder = FolderOf(parameters) ?? throw new InvalidOperationException("the run gave the trial no file set (--dir)");
        using var set = FileSet.Open(folder, spec);
        var paths = set.Entries.Select(set.PathOf).ToList();

        if (context.Prime)
        {
            // A couple of files through the variant's own code, so the JIT's work is not measured; the
            // cache is set afterwards, so what these reads left behind does not count.
            _ = await FileHashers.HashAllAsync(paths.Take(2).ToList(), kind.Mode, workers, bufferSize, cancellationToken).ConfigureAwait(false);
        }

        var cold = parameters.Get(Cold);
        var cache = cold ? PageCache.EvictAll(paths) : PageCache.LoadAll(paths, cancellationToken);

        context.Meter.Start();
        var hashes = await FileHashers.HashAllAsync(paths, kind.Mode, workers, bufferSize, cancellationToken).ConfigureAwait(false);
        var measured = context.Meter.Finish();

        var expected = set.Entries.ToDictionary(set.PathOf, e => e.Md5, StringComparer.Ordinal);
        var wrong = hashes.Count(h => !expected.TryGetValue(h.Path, out var md5) || md5 != h.Md5);
        var missing = expected.Keys.Except(hashes.Select(h => h.Path), StringComparer.Ordinal).Count();
        var seconds = Math.Max(measured.WallMs / 1000, 1e-9);
        var metrics = new MetricValues
        {
            [MibPerSec] = spec.TotalBytes / (double)(1 << 20) / seconds,
            [FilesPerSec] = hashes.Count / seconds,
            [HashMismatches] = wrong + missing,
            [CacheCold] = cache.Cold ? 1 : 0,
            [NotCold] = cold && !cache.Cold ? 1 : 0,
            [DroppedAllCaches] = cache.DroppedAllCaches ? 1 : 0,
        };
        if (cache.ResidentFraction is { } resident)
        {
            metrics[ResidentPercent] = Math.Round(resident * 100, 2);
        }

        return new TrialOutcome
        {
            ItemsPlanned = spec.Files,
            ItemsCompleted = hashes.Count,
            LatenciesMs = [.. hashes.Select(h => h.Milliseconds)],
            Metrics = metrics,
            WorkloadDigest = $"{spec.Files} x {spec.FileSize} bytes, seed {spec.Seed}, cache {parameters.Values[Cold.Name]}",

            // A wrong hash is a wrong answer, whatever the speed: the trial fails and says so.
            Error = wrong + missing == 0 ? null : $"{wrong} files hashed to something other than the manifest's MD5 and {missing} were not hashed",
        };
    }

    private static string? FolderOf(ParameterValues parameters) => parameters.Get(Dir) is { Length: > 0 } dir ? Path.GetFullPath(dir) : null;

    private static FileSetSpec Spec(ParameterValues parameters, int seed) => new(parameters.Get(Files), parameters.Get(FileSize), seed);
}
