using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>
/// What the file-hashing post claims, and how each claim is decided: 512 files of 16 MiB from a cold
/// cache, hashed with MD5 by 16 to 128 workers fed by a Channel, on Windows with a USB SSD read at about 374 MiB/s,
/// so that the device, not the CPU, was the limit. Its claims are about such a machine: the cold run limits the
/// device to the post's rate where the kernel allows it, and on a machine that is not well disk-bound even so, they
/// could not be judged, and the run says so with the two rates it measured.
/// </summary>
internal static class HashClaims
{
    private const string Cold = "hash";
    private const string Warm = "hash-warm";

    // 512 files at every scale, so every worker count up to 128 has 4 files each, as published; 1 MiB each under
    // --quick (512 MiB in all).
    private static readonly Dictionary<string, string> PublishedSet = new() { ["files"] = "512" };

    // The cold run on a device read as fast as the post's USB SSD, where the kernel can limit it; elsewhere the run
    // says why not, and a machine whose cores are not well ahead of its device leaves the claims unjudged.
    private static readonly Dictionary<string, string> PostsDisk = new(PublishedSet) { ["device-mibps"] = "374" };

    private static readonly Dictionary<string, string> QuickSet = new() { ["file-size"] = "1MiB" };

    private static readonly Requirement FilesPerWorker = Requirement.Of(
        "files per worker", "at least 4 at the most workers (the published 512 files for 128)", result =>
    {
        var files = result.Parameters.TryGetValue("files", out var text) ? Requirement.Parse(text) : null;
        var most = result.Variants.Select(v => v.WholeNumber("workers")).OfType<int>().DefaultIfEmpty(0).Max();
        if (files is null || most == 0)
        {
            return (false, null);
        }

        var each = files.Value / most;
        return (each >= 4, $"{Requirement.Number(each)} ({Requirement.Number(files.Value)} files, {most} workers)");
    });

    /// <summary>How much faster the cores must read and hash than the device reads for a machine to count as
    /// disk-bound: the post's was so by a factor of about ten (374 MiB/s against 16 logical cores), and a rate
    /// measured once moves by a tenth or two between runs, so a machine within the margin is neither kind.</summary>
    internal const double DiskBoundMargin = 1.5;

    /// <summary>The least share of the device's rate the run's fastest variant must read at for the device to be what
    /// held the run: the post's async hashing read 355 of the device's 374 MiB/s (0.95).</summary>
    internal const double HeldByTheDevice = 0.7;

    /// <summary>
    /// The machine kind the post's claims are about, as this run measured it: its cores read and hash at least
    /// <see cref="DiskBoundMargin"/> times what its device reads, and the device held the run, its fastest variant
    /// reading at <see cref="HeldByTheDevice"/> of the device's rate or more. A machine that misses either is not
    /// judged, and its figures say why. The device, not the cores, is what is read: a variant that spent much CPU
    /// is what the CPU claim is there to find, not a reason to leave it unjudged.
    /// </summary>
    internal static readonly Requirement DiskBound = Requirement.Machine(
        $"disk-bound: the cores read and hash at least {DiskBoundMargin.ToString("0.0", CultureInfo.InvariantCulture)}x what the device " +
            $"reads, and the fastest variant read at {Share(HeldByTheDevice)} of the device's rate or more", result =>
    {
        if (!result.Bounds.TryGetValue("deviceReadMibPerSec", out var device) || !result.Bounds.TryGetValue("cpuMibPerSec", out var cpu)
            || device <= 0)
        {
            return (false, "the run measured no bounds");
        }

        var rates = $"the device {Rate(device)} MiB/s, the cores {Rate(cpu)} MiB/s " +
            $"({(cpu / device).ToString("0.00", CultureInfo.InvariantCulture)}x)";
        if (cpu < DiskBoundMargin * device)
        {
            return (false, device < cpu ? $"too close to call: {rates}" : $"CPU-bound: {rates}");
        }

        var fastest = result.Variants
            .Select(v => (v.Name, Rate: v.Summary?.Median(HashScenario.MibPerSec)))
            .Where(v => v.Rate is > 0)
            .OrderByDescending(v => v.Rate)
            .FirstOrDefault();
        if (fastest.Rate is not { } best)
        {
            return (false, $"{rates}, but no variant recorded the rate it read at, so what held the run cannot be told");
        }

        var share = $"{fastest.Name} read {Rate(best)} MiB/s, {Share(best / device)} of the device's rate";
        // A limit the lab could have set: a file that says otherwise was not written by a run, and its figure is not repeated.
        var emulated = result.Bounds.TryGetValue("deviceLimitMibPerSec", out var limit) && limit is > 0 and <= HashScenario.MostDeviceMibPerSec
            ? $" (the device limited to {Rate(limit)} MiB/s by the lab, as a slower disk)" : string.Empty;
        return best >= HeldByTheDevice * device
            ? (true, $"disk-bound{emulated}: {rates}; {share}")
            : (false, $"{rates}, but the fastest variant, {share}: something other than the device held the run");
    });

    private static readonly string[] WarmCases = ["sync@16", "async@16"];

    // FileStream's published 4 KiB buffer: a larger one changes how many reads a file takes.
    private static readonly Requirement PublishedBuffer = Requirement.Of("buffer-size", "4 KiB", result =>
        result.Parameters.TryGetValue("buffer-size", out var text)
            ? (ByteSize.TryParse(text, out var bytes) && bytes == 4096, text)
            : (false, null));

    private static readonly Requirement[] ColdOnTheDisk = [Requirement.Is("cache", "cold"), PublishedBuffer, FilesPerWorker, DiskBound];

    public static PublishedClaims All { get; } = new(
        "sync vs async file hashing with N workers fed by a Channel (the post \"Benchmarking Async Throughput\")",
        [
            new ClaimRun { Key = Cold, Variants = ["sync@16", "sync@32", "sync@64", "sync@128", "async@16", "async@128"], Parameters = PostsDisk,
                QuickParameters = QuickSet, Repeat = 3 },
            new ClaimRun { Key = Warm, Variants = WarmCases, Parameters = new Dictionary<string, string>(PublishedSet) { ["cache"] = "warm" },
                QuickParameters = QuickSet, Repeat = 3 },
        ],
        [
            new Claim("hash-async-flat", "Async hashing keeps its rate from 16 to 128 workers", "22.17 and 22.23 files/s", [Cold], AsyncFlat)
            {
                Checked = "Figures from the post's raw-data table (async at 16 and 128 workers); the lab opens files with " +
                    "FileOptions.Asynchronous where the post's File.Open did not, skips 32 and 64 workers, and judges only on a machine it " +
                    "measures as disk-bound, as the post's USB SSD made it.",
                Rule = "`async@128`'s rate / `async@16`'s within 1/1.1-1.1x",
                Conditions = ColdOnTheDisk,
            },
            new Claim("hash-sync-falls", "Sync hashing falls by about 40% from 16 to 128 workers", "22.11 to 13.41 files/s", [Cold], SyncFalls)
            {
                Checked = "The 22.11 and 13.41 files per second are the table's first run, about 40% being the lab's summary; sync uses " +
                    "MD5.HashData over a blocking 4 KiB-buffered FileStream, as File.Open gave the post, and counts only when the run finds " +
                    "the device, not the cores, the limit.",
                Rule = "`sync@128`'s rate / `sync@16`'s within 0.45-0.8x (a fall of 20-55%, the published 39% inside)",
                Conditions = ColdOnTheDisk,
            },
            new Claim("hash-sync-progressive", "Sync hashing falls at every doubling of the workers",
                "22.11, 19.47, 16.50, 13.41 files/s at 16, 32, 64, 128", [Cold], SyncFallsEveryStep)
            {
                Checked = "All four sync rates are from the raw-data table; same blocking MD5.HashData reads as the post, each doubling " +
                    "needing at least half the post's fall at that step, and the verdict only counts on a machine the run measures as " +
                    "disk-bound with a cold cache.",
                Rule = "`sync`'s rate at each doubling (16 to 32, 32 to 64, 64 to 128) below the rate before by half the post's fall at that " +
                    "step or more (below 0.94x, 0.92x and 0.91x of it, for its 0.88x, 0.85x and 0.81x)",
                Conditions = ColdOnTheDisk,
            },
            new Claim("hash-equal-at-16", "At 16 workers sync and async hash at the same rate", "22.11 against 22.17 files/s", [Cold], EqualAt16)
            {
                Checked = "The 22.11 and 22.17 files per second are from the table; sync matches the post's call, while async opens with " +
                    "FileOptions.Asynchronous where the post did not; judged only on a cold cache on a machine found disk-bound.",
                Rule = "`sync@16`'s rate / `async@16`'s within 1/1.1-1.1x",
                Conditions = ColdOnTheDisk,
            },
            new Claim("hash-device-ceiling", "Async hashing runs at the device's limit",
                "22.2 files/s of 16 MiB, 355 MiB/s; the benchmark maxed out at around 374 MiB/s", [Cold], AtTheDevice)
            {
                Checked = "The 374 MiB/s is in the text, 22.2 files per second in the table; the lab's async opens with " +
                    "FileOptions.Asynchronous unlike the post, and it divides by the fastest read it measures at the start of the run, not " +
                    "by the post's own benchmark maximum.",
                Rule = "`async@16`'s MiB/s / the device's fastest read measured at the start of the run within 0.8-1.1x",
                Conditions = ColdOnTheDisk,
            },
            new Claim("hash-little-cpu", "Hashing at the device's rate takes little CPU",
                "2.6% of 16 logical processors at 390 MiB/s, in an image's caption: about 1.1 ms of CPU a MiB", [Cold], LittleCpu)
            {
                Checked = "The 2.6% CPU and 390.2 MiB/s are from an image caption, made CPU per MiB with 16 logical processors the lab " +
                    "infers from the i7-11700K; it reads async at 16 workers, though the screenshot's mode is unknown and Task Manager's " +
                    "percentage is not CPU time.",
                Rule = "`async@16`'s CPU per MiB hashed within 0.53-2.1 ms (half to twice the published 1.07)",
                Source = FigureSource.Image,
                Conditions = ColdOnTheDisk,
            },
            new Claim("hash-little-memory", "Hashing takes little memory", "14.6 MiB, in an image's caption",
                [Cold], _ => throw new InvalidOperationException("not comparable"))
            {
                Checked = "The 14.6 MiB is from an image caption showing Task Manager's private working set, a figure the lab does not " +
                    "read; listed, never judged.",
                Rule = "none here: Task Manager's private working set is not what the lab reads",
                Source = FigureSource.Image,
                Conditions = [Requirement.Untestable(
                    "the figure is Task Manager's memory column, the private working set; the lab reads the peak resident set, which counts " +
                        "the runtime's shared pages too, so the two are not the same figure")],
            },
            new Claim("hash-async-non-blocking", "Async file reads are non-blocking I/O, which is why async keeps its rate", "no figure", [Cold],
                AsyncReadsHoldNoThread)
            {
                Checked = "The post's results text credits non-blocking I/O, with no figure; the lab opens with FileOptions.Asynchronous, " +
                    "which gives true overlapped reads on Windows, while the post's plain File.Open would have .NET serve async reads from " +
                    "pool threads; judged only on Windows.",
                Rule = "`async@128`'s peak pool threads below the cores + 4 (Windows only)",
                Conditions = [Requirement.Is("cache", "cold"),
                    Requirement.Platform(
                        "Windows' overlapped file I/O", m => (m.Os.Contains(
                            "Windows", StringComparison.OrdinalIgnoreCase), $"{m.Os}: .NET reads a file asynchronously there by blocking a " +
                                $"pool thread for each read"))],
            },
            new Claim("hash-page-cache-cpu", "With the files in the OS page cache, hashing becomes CPU-bound", "no figure", [Warm], CachedIsCpuBound)
            {
                Checked = "The post's introduction says the page cache made its benchmark CPU-bound, with no figure; the lab runs sync and " +
                    "async at 16 workers with a warm cache (its async opening the file with FileOptions.Asynchronous, where the post's " +
                    "File.Open did not), checking the run's bounds and that most cores stay busy.",
                Rule = "the run's bounds say the CPU binds (cached reads faster than the cores read and hash), and the faster of `sync@16`, " +
                    "`async@16` keeps above 3/4 of the cores busy (of 16 at most: one a worker)",
                Conditions = [Requirement.Is("cache", "warm")],
            },
            new Claim("hash-async-slower-cpu-bound", "When the work is CPU-bound, async tends to be slower than sync",
                "no figure: the post's introduction, on why it did not use a single-threaded benchmark", [Warm], AsyncSlowerWhenCpuBound)
            {
                Checked = "A remark in the post's introduction with no figure; the lab reads it on its warm run, where the page cache leaves " +
                    "the CPU as the limit, comparing async and sync at 16 workers; its async opens the file with FileOptions.Asynchronous, " +
                    "where the post's File.Open did not.",
                Rule = "with the cache warm and the run's bounds saying the CPU binds, `async@16`'s median / `sync@16`'s above 1.1x (a " +
                    "direction with no size: a tenth)",
                Conditions = [Requirement.Is("cache", "warm")],
            },
            new Claim("hash-async-scales", "At 128 workers async hashes far more files a second than sync: why async is good for scalability",
                "22.23 against 13.41 files/s, 1.66x", [Cold], AsyncBeatsSyncAt128)
            {
                Checked = "Both rates are the post's results at 128 workers, and the conclusion is its text; the lab's async opens the file " +
                    "with FileOptions.Asynchronous where the post's File.Open did not, and the verdict needs a machine the device holds, as " +
                    "the post's USB SSD did.",
                Rule = "`async@128`'s rate / `sync@128`'s within 1.10-2.49x (2/3 to 1.5 times the published 1.66x)",
                Conditions = ColdOnTheDisk,
            },
        ]);

    /// <summary>async's rate at 128 workers over its rate at 16 within 10% either way, interval and all.</summary>
    internal static Judgement AsyncFlat(ClaimEvidence evidence)
    {
        var rate = RateRatio(evidence, "async@128", "async@16");
        return Decide.About(Quantity.Ratio("async@128's rate over async@16's"),
            rate, 22.23 / 22.17, Band.NoChange(1.1), Describe(evidence, "async", 16, 128, rate), "the rate does not depend on how many read at once");
    }

    /// <summary>sync's rate at 128 workers over its rate at 16 within 0.45-0.80 (a fall of 20-55%, the published 39%
    /// inside), interval and all.</summary>
    internal static Judgement SyncFalls(ClaimEvidence evidence)
    {
        var rate = RateRatio(evidence, "sync@128", "sync@16");
        return Decide.About(Quantity.Ratio("sync@128's rate over sync@16's"), rate, 13.41 / 22.11,
            new Band(0.45, 0.8), Describe(evidence, "sync", 16, 128, rate), "more blocking readers at once read the device no faster");
    }

    /// <summary>sync's rate at each doubling (16 to 32, 32 to 64, 64 to 128) below the rate before by half the post's fall
    /// at that step or more, interval and all.</summary>
    internal static Judgement SyncFallsEveryStep(ClaimEvidence evidence) => Decide.All(
    [
        .. new[] { (16, 32, 22.11, 19.47), (32, 64, 19.47, 16.50), (64, 128, 16.50, 13.41) }.Select(step =>
        {
            var rate = RateRatio(evidence, $"sync@{step.Item2}", $"sync@{step.Item1}");
            var published = step.Item4 / step.Item3;
            var fell = Band.HalfTheEffect(published);
            return ($"{step.Item1} to {step.Item2}", Decide.Below(
                Quantity.Ratio($"sync@{step.Item2}'s rate over sync@{step.Item1}'s"),
                rate,
                fell,
                published,
                ClaimEvidence.Times(rate),
                "more blocking readers, a lower rate",
                $"the rate did not fall to {ClaimEvidence.Multiple(fell)}x, half the post's fall to {ClaimEvidence.Multiple(published)}x"));
        }),
    ]);

    /// <summary>sync@16's rate over async@16's within 10% either way, interval and all.</summary>
    internal static Judgement EqualAt16(ClaimEvidence evidence)
    {
        var rate = RateRatio(evidence, "sync@16", "async@16");
        return Decide.About(Quantity.Ratio("sync@16's rate over async@16's"),
            rate, 22.11 / 22.17, Band.NoChange(1.1), $"{ClaimEvidence.Times(rate)} async's rate", "16 readers of either kind keep the device busy");
    }

    /// <summary>With the cache warm, async@16's time over sync@16's above 1.1, interval and all.</summary>
    internal static Judgement AsyncSlowerWhenCpuBound(ClaimEvidence evidence)
    {
        // The claim is about CPU-bound work: the warm run must have had the cores, not the cached reads, as its limit.
        var (cached, cpu) = CachedAndCpu(evidence);
        if (cached <= cpu)
        {
            return Judgement.CouldNotJudge($"cached reads {Rate(cached)} MiB/s, the cores {Rate(cpu)} MiB/s",
                "reading from the cache, not the CPU, was the limit, so this is no CPU-bound run");
        }

        var ratio = evidence.Ratio("async@16", "sync@16");
        return Decide.Above(
            Quantity.Ratio("async@16 over sync@16 with the cache warm, median wall time"),
            ratio,
            1.1,
            null,
            $"{ClaimEvidence.Times(ratio)} sync's time",
            "each read's continuation is one more hop through the pool where the CPU is already the limit",
            "async was not a tenth slower with the CPU as the limit");
    }

    /// <summary>async@128's rate over sync@128's within 2/3 to 1.5 times the published 1.66, interval and all.</summary>
    internal static Judgement AsyncBeatsSyncAt128(ClaimEvidence evidence)
    {
        var rate = RateRatio(evidence, "async@128", "sync@128");
        const double published = 22.23 / 13.41;
        return Decide.About(Quantity.Ratio("async@128's rate over sync@128's"), rate, published, Band.Around(published, 2.0 / 3, 1.5),
            $"{ClaimEvidence.Times(rate)} sync's rate at 128 workers", "128 blocking readers read the device no faster; 128 waiting ones do");
    }

    /// <summary>async@16's MiB/s over the device's fastest read measured at the start of the run within 0.8-1.1, interval and all.</summary>
    internal static Judgement AtTheDevice(ClaimEvidence evidence)
    {
        var device = evidence.Result.Bounds.TryGetValue("deviceReadMibPerSec", out var d) && d > 0 ? d
            : throw new MissingEvidenceException("the run measured no device rate");
        var rate = evidence.Metric("async@16", HashScenario.MibPerSec);
        var share = rate.Times(1 / device);
        return Decide.About(Quantity.Ratio("async@16's MiB/s over the device's fastest read"), share, 22.17 * 16 / 374,
            new Band(0.8, 1.1), $"{Rate(rate.Value)} MiB/s against the device's {Rate(device)}",
                "the reads keep the device busy and the cores keep up");
    }

    /// <summary>async@16's CPU per MiB hashed (each trial's CPU time over the MiB it hashed) within half to twice the
    /// published 1.1 ms, interval and all.</summary>
    internal static Judgement LittleCpu(ClaimEvidence evidence)
    {
        var perMib = evidence.Trials("async@16")
            .Where(
                t => t.Status == TrialStatus.Ok && t.Metrics.ContainsKey(StandardMetrics.Cpu.Id)
                    && t.Metrics.TryGetValue(HashScenario.MibPerSec.Id, out var rate) && rate > 0)
            .Select(t => t.Metrics[StandardMetrics.Cpu.Id] / (t.Metrics[HashScenario.MibPerSec.Id] * t.WallMs / 1000))
            .ToList();
        if (perMib.Count == 0)
        {
            throw new MissingEvidenceException("async@16 recorded no CPU time and rate");
        }

        var cpu = Estimate.Of(perMib);
        const double published = 0.026 * 16 * 1000 / 390;
        return Decide.About(new Quantity("async@16's CPU per MiB hashed", "ms"), cpu,
            published, Band.Around(published, 0.5, 2), $"{cpu.Value.ToString("0.00", CultureInfo.InvariantCulture)} ms of CPU a MiB",
                "MD5 is cheap beside the device's rate");
    }

    /// <summary>async@128's peak pool threads at most the cores and 4: no thread held per read (Windows only).</summary>
    internal static Judgement AsyncReadsHoldNoThread(ClaimEvidence evidence)
    {
        var pool = evidence.Metric("async@128", StandardMetrics.PeakPoolThreads);
        var cores = evidence.Metric("async@128", StandardMetrics.ProcessorCountSeen).Value;
        return Decide.Below(new Quantity("async@128's peak pool threads", "threads"), pool, cores + 4,
            null, $"pool peak {ClaimEvidence.Count(pool)}", "the reads wait without a thread", "the pool grew with the readers: reads held threads");
    }

    /// <summary>
    /// With the cache warm: the run's bounds say the CPU binds (reading from the cache is faster than the cores can
    /// read and hash), and the faster of sync@16 and async@16 keeps at least 3/4 of the cores busy, interval and all.
    /// </summary>
    internal static Judgement CachedIsCpuBound(ClaimEvidence evidence)
    {
        var (cached, cpu) = CachedAndCpu(evidence);

        // Of the cores 16 workers can keep busy: all of them on this machine, 16 of a bigger one.
        var fastest = WarmCases.MinBy(v => evidence.Wall(v).Value)!;
        var cores = Math.Min(16, evidence.Metric(fastest, StandardMetrics.ProcessorCountSeen).Value);
        var busy = evidence.Metric(fastest, StandardMetrics.CoresUsed).Times(1 / cores);
        var limit = cached > cpu
            ? Judgement.Holds($"cached reads {Rate(cached)} MiB/s, the cores {Rate(cpu)} MiB/s",
                "the cache reads faster than the cores can read and hash")
            : Judgement.DoesNotHold($"cached reads {Rate(cached)} MiB/s, the cores {Rate(cpu)} MiB/s",
                "reading from the cache is the limit, not the CPU");
        return Decide.All(
        [
            ("bounds", limit),
            ("busy", Decide.Above(Quantity.Ratio($"{fastest}'s CPU time over wall time, per core"), busy, 0.75,
                null, $"{fastest} kept {busy.Value.ToString("0%", CultureInfo.InvariantCulture)} of the cores busy",
                    "the cores, not the reads, set the pace", "the cores were not kept busy: something else sets the pace")),
        ]);
    }

    // The rate at one worker count over the rate at another: the inverse of their walls' ratio, from a cold cache
    // that really was cold.
    private static Estimate RateRatio(ClaimEvidence evidence, string over, string under)
    {
        var notCold = evidence.Result.Variants.SelectMany(v => v.Trials)
            .Count(t => t.Metrics.TryGetValue(HashScenario.NotCold.Id, out var n) && n > 0);
        if (notCold > 0)
        {
            throw new MissingEvidenceException($"{notCold} trials could not make the cache cold, so this is no test of the claims");
        }

        return evidence.Ratio(over, under).Inverse;
    }

    private static string Describe(ClaimEvidence evidence, string kind, int fewest, int most, Estimate rate)
    {
        // Files per second as the summaries recorded them, where they did.
        var rates = new[] { fewest, most }.Select(w => evidence.Variant($"{kind}@{w}").Summary?.Median(HashScenario.FilesPerSec)).ToList();
        var files = rates.All(r => r is not null)
            ? $"{rates[0]!.Value.ToString("0.0", CultureInfo.InvariantCulture)} to " +
                $"{rates[1]!.Value.ToString("0.0", CultureInfo.InvariantCulture)} files/s from {fewest} to {most} workers, "
            : $"from {fewest} to {most} workers, ";
        return $"{files}rate ratio {ClaimEvidence.Times(rate)}";
    }

    // The warm run's two rates: reading from the cache, and the cores reading and hashing.
    private static (double Cached, double Cpu) CachedAndCpu(ClaimEvidence evidence) =>
        evidence.Result.Bounds.TryGetValue("cachedReadMibPerSec", out var cached) && evidence.Result.Bounds.TryGetValue("cpuMibPerSec", out var cpu)
            ? (cached, cpu)
            : throw new MissingEvidenceException("the run measured no cached read rate");

    private static string Share(double share) => share.ToString("0%", CultureInfo.InvariantCulture);

    private static string Rate(double mibPerSec) => mibPerSec.ToString("#,0", CultureInfo.InvariantCulture);
}
