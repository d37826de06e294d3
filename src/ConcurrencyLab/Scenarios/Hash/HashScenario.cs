using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Scenarios.Hash;

/// <summary>
/// A set of files hashed with MD5 by N workers fed from a Channel, sync vs async, as published in
/// seeds/004; with the page cache emptied before every trial (or filled, for the CPU-bound case), every hash
/// checked against the set's manifest, and the two rates no variant can beat measured on the same files.
/// </summary>
public sealed class HashScenario : Scenario
{
    private static readonly (string Kind, HashMode Mode, string Description)[] Kinds =
    [
        ("sync", HashMode.Sync, "a Channel feeds N worker threads; each opens the file and hashes it with MD5.HashData, blocking reads (published)"),
        ("async", HashMode.Async, "a Channel feeds N worker threads; each opens the file with FileOptions.Asynchronous and awaits MD5.HashDataAsync (published, which opened without the option)"),
        ("foreach-async", HashMode.ForEachAsync, "Parallel.ForEachAsync over the files at degree N, each hashed as async does"),
        ("direct", HashMode.Direct, "a Channel feeds N worker threads; each reads past the page cache (O_DIRECT) in aligned 1 MiB blocks and hashes them as they come"),
    ];

    public override string Name => "hash";

    public override string Summary => "N workers hashing a set of files with MD5 from a cold (or warm) cache: sync vs async vs direct reads";

    public override string Reproduces => "sync vs async file hashing with N workers fed by a Channel (seeds/004)";

    public override IReadOnlyList<ParameterDescriptor> Parameters { get; } =
    [
        new("files", ParameterKind.WholeNumber, "512", "files in the set (the published 512)") { QuickValue = "64", Minimum = 1, Maximum = 100_000 },
        new("file-size", ParameterKind.Text, "16MiB", "size of each file, such as 16MiB, 4M or 65536 (bytes); the published 16 MiB") { QuickValue = "4MiB" },
        new("workers", ParameterKind.WholeNumberList, "16,32,64,128", "workers hashing at once; each is a variant suffix (sync@64)") { Minimum = 1, Maximum = 4096 },
        new("cache", ParameterKind.Text, "cold", "cold: the files are evicted from the page cache before each trial, and checked; warm: read into it first, the CPU-bound case"),
        new("buffer-size", ParameterKind.Text, "4KiB", "FileStream's buffer in sync, async and foreach-async (the published code kept the default 4 KiB); direct always reads 1 MiB"),
        new("dir", ParameterKind.Text, string.Empty, "folder for the file set; a matching set there is reused and left in place (default: a new temporary folder, deleted after the run)"),
        ParameterDescriptor.Switch("keep", "keep the file set after the run, to reuse it with --dir"),
    ];

    /// <summary>Checks as for a run with the default seed (42); the planner passes the run's own.</summary>
    public override IEnumerable<string> Validate(ParameterValues parameters) => Validate(parameters, seed: 42);

    public override IEnumerable<string> Validate(ParameterValues parameters, int seed)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var sizeOk = TryFileSize(parameters, out var fileSize, out var sizeProblem);
        if (!sizeOk)
        {
            yield return sizeProblem;
        }

        if (!TryBufferSize(parameters, out _, out var bufferProblem))
        {
            yield return bufferProblem;
        }

        if (parameters.GetText("cache") is not ("cold" or "warm"))
        {
            yield return $"--cache must be cold or warm, not '{parameters.GetText("cache")}'.";
        }

        var dir = Dir(parameters);
        if (dir is not null && File.Exists(dir))
        {
            yield return $"--dir {dir} is a file; give a folder.";
            yield break;
        }

        // Refused now, before any trial, rather than after the user has waited for the run to start.
        if (sizeOk && FileSet.CheckRoom(new FileSetSpec(parameters.GetInt32("files"), fileSize, seed), dir) is { } room)
        {
            yield return room + ".";
        }
    }

    public override IReadOnlyList<VariantInfo> DefaultVariants(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return
        [
            .. Kinds.Where(k => k.Mode != HashMode.Direct || DirectIo.IsSupported)
                .SelectMany(k => parameters.GetInt32List("workers").Select(n => Describe(k.Kind, n))),
        ];
    }

    public override bool TryResolveVariant(string name, ParameterValues parameters, out VariantInfo variant, out string problem)
    {
        variant = null!;
        if (!TryParse(name, out var kind, out var workers, out problem))
        {
            return false;
        }

        variant = Describe(kind.Kind, workers);
        return true;
    }

    public override string DefaultBaseline(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return $"sync@{parameters.GetInt32List("workers")[0]}";
    }

    /// <summary>Planned without measuring, so unknown (0) until the run's set-up measures the bounds on the files.</summary>
    public override IdealBound Ideal(ParameterValues parameters, int seed) =>
        new(0, "the set's size over the tighter of two rates measured on the files at the start of each run: reading with 1 MiB reads (the faster of one reader and 16), and MD5 from memory on every core");

    public override TimeSpan ExpectedTrialDuration(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return TryFileSize(parameters, out var size, out _) ? TimeSpan.FromSeconds(parameters.GetInt32("files") * (double)size / (100 << 20)) : TimeSpan.Zero;
    }

    public override IReadOnlyList<string> FlaggedChecks { get; } = ["notCold"];

    public override IReadOnlyList<ReportedCheck> ReportedChecks { get; } =
    [
        new("mibPerSec", "MiB/s", string.Empty, true),
        new("filesPerSec", "Files/s", string.Empty, true),
        new("residentPercent", "Cached %", string.Empty, null),
    ];

    public override IEnumerable<string> Notes(ParameterValues parameters, bool quick)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        if (OperatingSystem.IsLinux())
        {
            yield return "on Linux, .NET runs an async read of a regular file as a blocking read on a pool thread, with or without FileOptions.Asynchronous: async and sync make the same reads here, on different threads.";
        }

        if (TryBufferSize(parameters, out var buffer, out _) && buffer != FileHashers.DefaultBufferSize)
        {
            yield return $"FileStream's buffer was {ByteSize.Format(buffer)}, not the published default of 4 KiB.";
        }
    }

    /// <summary>
    /// Whether the published finding held here: async flat and sync falling as workers went from the fewest
    /// to the most. A rate counts as changed only when the two medians' 95% confidence intervals do not
    /// overlap and they differ by more than 5%.
    /// </summary>
    public override IEnumerable<string> Conclusions(ScenarioResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        if (!int.TryParse(result.Parameters.GetValueOrDefault("files"), NumberStyles.None, CultureInfo.InvariantCulture, out var files))
        {
            yield break;
        }

        var trends = new Dictionary<string, Trend>();
        foreach (var mode in new[] { HashMode.Sync, HashMode.Async })
        {
            var measured = result.Variants
                .Where(v => v.Summary is not null)
                .Select(v => (Parsed: TryParse(v.Name, out var kind, out var workers, out _) && kind.Mode == mode, Workers: workers, v.Summary))
                .Where(v => v.Parsed)
                .OrderBy(v => v.Workers)
                .ToList();
            if (measured.Count >= 2 && measured[0].Workers < measured[^1].Workers)
            {
                var name = mode == HashMode.Sync ? "sync" : "async";
                trends[name] = new Trend(name, measured[0].Workers, measured[0].Summary!, measured[^1].Workers, measured[^1].Summary!, files);
            }
        }

        if (trends.Count < 2)
        {
            yield break;
        }

        var sync = trends["sync"];
        var async = trends["async"];
        var holds = async.Direction == 0 && sync.Direction < 0;
        var warm = result.Parameters.GetValueOrDefault("cache") == "warm";
        var notCold = result.Variants.SelectMany(v => v.Trials).Count(t => t.Checks?.GetValueOrDefault("notCold") > 0);

        // The published claim is about a cold cache: a warm run, or one whose files would not go cold, tests
        // something else, and the line says so rather than pass judgement on the claim.
        var condition = warm
            ? "with the cache warm, where the published author found the cache hid the difference, so this is not a test of the claim"
            : notCold > 0 ? $"but {notCold} trials could not make the cache cold, so this is not a fair test of the claim" : null;
        var verdict = condition is null ? $"{(holds ? "holds" : "does not hold")} here" : $"{(holds ? "would hold" : "would not hold")} here, {condition}";
        yield return $"published finding (files of 16 MiB, cold cache: async flat at 22.2 files/s, sync falling from 22.1 to 13.4 files/s as workers went from 16 to 128): "
            + $"{verdict}. {async.Describe()}; {sync.Describe()}.";
    }

    private sealed record Trend(string Kind, int FewWorkers, VariantSummary Few, int ManyWorkers, VariantSummary Many, int Files)
    {
        private double FewRate => Files / (Few.MedianWallMs / 1000);

        private double ManyRate => Files / (Many.MedianWallMs / 1000);

        /// <summary>-1 fell, 0 flat, 1 rose.</summary>
        public int Direction
        {
            get
            {
                var overlap = Few.CiLowMs <= Many.CiHighMs && Many.CiLowMs <= Few.CiHighMs;
                var change = (ManyRate / FewRate) - 1;
                return overlap || Math.Abs(change) <= 0.05 ? 0 : Math.Sign(change);
            }
        }

        public string Describe()
        {
            var change = ((ManyRate / FewRate) - 1).ToString("+0%;-0%", CultureInfo.InvariantCulture);
            var verdict = Direction switch { < 0 => "fell", > 0 => "rose", _ => "held" };
            return $"{Kind} {verdict} from {FewRate.ToString("0.0", CultureInfo.InvariantCulture)} files/s at {FewWorkers} workers to {ManyRate.ToString("0.0", CultureInfo.InvariantCulture)} at {ManyWorkers} ({change})";
        }
    }

    public override Task<RunFixture?> PrepareRunAsync(ParameterValues parameters, int seed, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return Task.Run(() => Prepare(parameters, seed, cancellationToken), cancellationToken);
    }

    private static RunFixture? Prepare(ParameterValues parameters, int seed, CancellationToken cancellationToken)
    {
        var spec = Spec(parameters, seed);
        var keep = parameters.GetSwitch("keep");
        var cold = IsCold(parameters);
        var started = Stopwatch.GetTimestamp();
        var set = FileSet.Prepare(spec, Dir(parameters), keep, cancellationToken);
        try
        {
            var notes = new List<string>();
            var what = $"{spec.Files} files of {ByteSize.Format(spec.FileSize)} ({ByteSize.Format(spec.TotalBytes)})";
            notes.Add(set.Reused
                ? $"the file set of {what} in {set.Folder} was reused, as its manifest matched; it is left there."
                : $"the file set of {what} was written to {set.Folder} in {Stopwatch.GetElapsedTime(started).TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s; {(keep ? "it is kept (--keep)" : "it is deleted after the run")}.");
            if (cold && !PageCache.IsSupported)
            {
                notes.Add("this system gives no way to evict files from its page cache here: the trials ran on whatever it kept, and say cacheCold 0.");
            }
            else if (cold && PageCache.InMemory(set.Folder) is { } format)
            {
                notes.Add($"the files are on {format}, which keeps them in memory: the cache could not be made cold, and the trials say cacheCold 0.");
            }

            var bounds = HashBounds.Measure([.. set.Entries.Select(set.PathOf)], cold, Environment.ProcessorCount, cancellationToken);
            if (cold && !bounds.DeviceReadCold)
            {
                notes.Add("the files would not go cold for the read bound, so deviceReadMibPerSec is a rate from the cache, not the device.");
            }

            return new RunFixture(
                new Dictionary<string, string> { ["dir"] = set.Folder },
                notes,
                () =>
                {
                    set.Dispose();
                    return ValueTask.CompletedTask;
                })
            {
                Ideal = bounds.Ideal(spec.TotalBytes, cold),
                Bounds = bounds.ToDictionary(),
            };
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
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

    public override async Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (!TryParse(context.Variant, out var kind, out var workers, out var problem))
        {
            throw new ArgumentException(problem, nameof(context));
        }

        var parameters = context.Parameters;
        var spec = Spec(parameters, context.Seed);
        _ = TryBufferSize(parameters, out var bufferSize, out _);
        var folder = Dir(parameters) ?? throw new InvalidOperationException("the run gave the trial no file set (--dir)");
        using var set = FileSet.Open(folder, spec);
        var paths = set.Entries.Select(set.PathOf).ToList();

        if (context.Prime)
        {
            // A couple of files through the variant's own code, so the JIT's work is not measured; the
            // cache is set afterwards, so what these reads left behind does not count.
            _ = await FileHashers.HashAllAsync(paths.Take(2).ToList(), kind.Mode, workers, bufferSize, cancellationToken).ConfigureAwait(false);
        }

        var cold = IsCold(parameters);
        var cache = cold ? PageCache.EvictAll(paths) : PageCache.LoadAll(paths, cancellationToken);

        context.Meter.Start();
        var hashes = await FileHashers.HashAllAsync(paths, kind.Mode, workers, bufferSize, cancellationToken).ConfigureAwait(false);
        var measured = context.Meter.Stop();

        var expected = set.Entries.ToDictionary(set.PathOf, e => e.Md5, StringComparer.Ordinal);
        var wrong = hashes.Count(h => !expected.TryGetValue(h.Path, out var md5) || md5 != h.Md5);
        var missing = expected.Keys.Except(hashes.Select(h => h.Path), StringComparer.Ordinal).Count();
        var seconds = Math.Max(measured.WallMs / 1000, 1e-9);
        var checks = new Dictionary<string, double>
        {
            ["mibPerSec"] = spec.TotalBytes / (double)(1 << 20) / seconds,
            ["filesPerSec"] = hashes.Count / seconds,
            ["hashMismatches"] = wrong + missing,
            ["cacheCold"] = cache.Cold ? 1 : 0,
            ["notCold"] = cold && !cache.Cold ? 1 : 0,
            ["droppedAllCaches"] = cache.DroppedAllCaches ? 1 : 0,
        };
        if (cache.ResidentFraction is { } resident)
        {
            checks["residentPercent"] = Math.Round(resident * 100, 2);
        }

        return new TrialOutcome
        {
            ItemsPlanned = spec.Files,
            ItemsCompleted = hashes.Count,
            LatenciesMs = [.. hashes.Select(h => h.Milliseconds)],
            Checks = checks,
            WorkloadDigest = $"{spec.Files} x {spec.FileSize} bytes, seed {spec.Seed}, cache {parameters.GetText("cache")}",

            // A wrong hash is a wrong answer, whatever the speed: the trial fails and says so.
            Error = wrong + missing == 0 ? null : $"{wrong} files hashed to something other than the manifest's MD5 and {missing} were not hashed",
        };
    }

    private static bool IsCold(ParameterValues parameters) => parameters.GetText("cache") == "cold";

    private static string? Dir(ParameterValues parameters) => parameters.GetText("dir") is { Length: > 0 } dir ? Path.GetFullPath(dir) : null;

    private static FileSetSpec Spec(ParameterValues parameters, int seed)
    {
        _ = TryFileSize(parameters, out var size, out _);
        return new FileSetSpec(parameters.GetInt32("files"), size, seed);
    }

    private static bool TryFileSize(ParameterValues parameters, out long bytes, out string problem) =>
        TrySize(parameters, "file-size", 1, 64L << 30, out bytes, out problem);

    private static bool TryBufferSize(ParameterValues parameters, out int bytes, out string problem)
    {
        var ok = TrySize(parameters, "buffer-size", 1, 64L << 20, out var size, out problem);
        bytes = (int)size;
        return ok;
    }

    private static bool TrySize(ParameterValues parameters, string name, long minimum, long maximum, out long bytes, out string problem)
    {
        var text = parameters.GetText(name);
        if (ByteSize.TryParse(text, out bytes) && bytes >= minimum && bytes <= maximum)
        {
            problem = string.Empty;
            return true;
        }

        problem = $"--{name} must be a size from {ByteSize.Format(minimum)} to {ByteSize.Format(maximum)}, such as 16MiB, 512KiB or 4096, not '{text}'.";
        return false;
    }

    private static VariantInfo Describe(string kind, int workers) =>
        new($"{kind}@{workers}", $"{Kinds.First(k => k.Kind == kind).Description}; N = {workers}");

    /// <summary>Reads a variant name, <c>kind@N</c>: how files are read and how many workers read them.</summary>
    private static bool TryParse(string name, out (string Kind, HashMode Mode, string Description) kind, out int workers, out string problem)
    {
        ArgumentNullException.ThrowIfNull(name);
        var text = name.Trim().ToLowerInvariant();
        var at = text.LastIndexOf('@');
        var prefix = at < 0 ? text : text[..at];
        workers = 0;
        kind = Kinds.FirstOrDefault(k => k.Kind == prefix);
        if (kind.Kind is null)
        {
            problem = $"variant '{name}' is not a hash variant; it has {string.Join(", ", Kinds.Select(k => k.Kind))}, each with @N workers.";
            return false;
        }

        if (at < 0 || !int.TryParse(text[(at + 1)..], NumberStyles.None, CultureInfo.InvariantCulture, out workers) || workers is < 1 or > 4096)
        {
            problem = $"variant '{name}' must say how many workers hash at once, from 1 to 4096: {prefix}@16.";
            return false;
        }

        if (kind.Mode == HashMode.Direct && !DirectIo.IsSupported)
        {
            problem = $"variant '{name}' needs direct reads (O_DIRECT), which this system does not offer.";
            return false;
        }

        problem = string.Empty;
        return true;
    }
}
