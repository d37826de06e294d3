using Microsoft.Diagnostics.Symbols;
using Microsoft.Diagnostics.Tracing.Etlx;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Diagnostics;

/// <summary>
/// Reads the runtime's sample profiler's stacks, recorded to a file while the trial ran, into thread time by state
/// and the call sites that blocked, for the trial's region. TraceEvent names each frame from the runtime's own
/// method events (and its rundown at the end), so no symbol file is needed for names; a call site's file and line
/// come from the program's own portable PDB beside it, where there is one (local files only, nothing downloaded).
/// </summary>
internal static class ThreadSamples
{
    private const string Provider = "Microsoft-DotNETCore-SampleProfiler";

    /// <summary>The most frames read of a stack: deeper ones cannot hold the blocking call or its caller.</summary>
    private const int Depth = 64;

    /// <summary>Where the samples in <paramref name="nettrace"/> are converted to while they are read, deleted with it.</summary>
    public static string ConvertedPath(string nettrace) => Path.ChangeExtension(nettrace, ".etlx");

    /// <summary>
    /// Thread time in the region from <paramref name="start"/> to <paramref name="end"/> (Stopwatch ticks) of the
    /// samples in <paramref name="nettrace"/>, leaving out <paramref name="excluded"/> threads and telling
    /// <paramref name="caller"/> apart; null when the file holds no sample of the region. The file and its
    /// converted copy are deleted.
    /// </summary>
    public static ThreadTime? Read(string nettrace, long? start, long? end,
        IReadOnlyCollection<int> excluded, int? caller, IReadOnlyList<LockWait>? lockWaits = null) =>
        ReadEach(nettrace, [(start, end)], excluded, caller, lockWaits)[0];

    /// <summary>
    /// Thread time in each of <paramref name="regions"/> (Stopwatch ticks; a null end open, a null start from the
    /// first sample) of the samples in <paramref name="nettrace"/>, read once: a trial's region, or a load run's steps
    /// against one service process. The file and its converted copy are deleted.
    /// </summary>
    public static IReadOnlyList<ThreadTime?> ReadEach(
        string nettrace,
        IReadOnlyList<(long? Start, long? End)> regions,
        IReadOnlyCollection<int> excluded,
        int? caller = null,
        IReadOnlyList<LockWait>? lockWaits = null) => ReadEach([nettrace], regions, excluded, caller, lockWaits);

    /// <summary>
    /// As <see cref="ReadEach(string, IReadOnlyList{ValueTuple{long?, long?}}, IReadOnlyCollection{int}, int?, IReadOnlyList{LockWait})"/>,
    /// of one process's samples recorded to several files one after another (their sessions overlapping a moment: a
    /// sample two files hold, the same thread at the same instant, is read once). The files are deleted.
    /// </summary>
    public static IReadOnlyList<ThreadTime?> ReadEach(
        IReadOnlyList<string> files,
        IReadOnlyList<(long? Start, long? End)> regions,
        IReadOnlyCollection<int> excluded,
        int? caller = null,
        IReadOnlyList<LockWait>? lockWaits = null)
    {
        ArgumentNullException.ThrowIfNull(files);
        ArgumentNullException.ThrowIfNull(regions);
        if (regions.Count == 0 || files.Count == 0)
        {
            foreach (var file in files)
            {
                QuietFile.TryDelete(file);
            }

            return [.. regions.Select(_ => (ThreadTime?)null)];
        }

        var from = regions.Any(r => r.Start is null) ? null : regions.Min(r => r.Start);
        var to = regions.Any(r => r.End is null) ? null : regions.Max(r => r.End);
        var loaded = files.Select(f => Load(f, from, to, excluded, lockWaits)).ToList();
        var samples = loaded.Count == 1 ? loaded[0].Samples : [.. loaded.SelectMany(l => l.Samples).DistinctBy(x => (x.Thread, x.Ticks))];
        var cost = loaded.Select(l => l.Cost).Aggregate((a, b) => a + b);
        return [.. regions.Select(
            r => Tally(
                [.. samples.Where(x => (r.Start is not { } s || x.Ticks >= s) && (r.End is not { } e || x.Ticks <= e))], System.Diagnostics.Stopwatch.Frequency, caller, r.Start, r.End) is { } time
                    ? time with { Read = cost } : null)];
    }

    // The samples between start and end, each with its state, site and line, and a lock's owner where known.
    // What reading the file cost is timed by stage, for the account of the lab's own time (docs/method.md).
    private static (List<StackSample> Samples, StacksReadCost Cost) Load(
        string nettrace,
        long? start,
        long? end,
        IReadOnlyCollection<int> excluded,
        IReadOnlyList<LockWait>? lockWaits)
    {
        var etlx = ConvertedPath(nettrace);
        try
        {
            // A process that exited or was killed with the session open cut its stream: what arrived whole is read.
            var cut = NettraceEnd.Mend(nettrace) == NettraceEnd.Outcome.Mended;
            var bytes = new FileInfo(nettrace).Length;
            var clock = System.Diagnostics.Stopwatch.StartNew();
            TraceLog.CreateFromEventPipeDataFile(nettrace, etlx);
            var convertMs = clock.Elapsed.TotalMilliseconds;
            using var log = new TraceLog(etlx);
            var samples = new List<StackSample>();
            var sites = new List<(int Sample, TraceCodeAddress Address, bool EndsBlock)>();
            foreach (var e in log.Events)
            {
                if (e.ProviderName != Provider || excluded.Contains(e.ThreadID))
                {
                    continue;
                }

#pragma warning disable CS0618 // The raw timestamp: the trial's region is timed on the same clock, in another process.
                var ticks = e.TimeStampQPC;
#pragma warning restore CS0618
                if ((start is { } s && ticks < s) || (end is { } t && ticks > t))
                {
                    continue;
                }

                var frames = new List<string>();
                var addresses = new List<TraceCodeAddress>();
                for (var frame = e.CallStack(); frame is not null && frames.Count < Depth; frame = frame.Caller)
                {
                    var name = frame.CodeAddress.FullMethodName;
                    frames.Add(string.IsNullOrEmpty(name) ? "?" + frame.CodeAddress.ModuleName : name);
                    addresses.Add(frame.CodeAddress);
                }

                // Every sample is kept for the timing, an idle thread's too: a thread's next sample may come after it
                // has gone idle, and the profiler's interval is measured over all of them.
                // Where the thread was, whatever its state: a blocked sample's site, and for a running one the
                // frame a lock's waiters are told their lock's owner was at.
                // Cut off, the stream never got the runtime's names for its precompiled code: a stack with a frame left
                // unnamed between the code's own frame and the top cannot be read for its state, though its line can.
                var (state, api, site) = StackStates.Read(frames);
                if (cut && StackStates.Unnamed(frames, state))
                {
                    var own = StackStates.SiteFrame(frames);
                    (state, api, site) = (StackState.Unnamed, null, own >= 0 ? StackStates.Name(frames[own]) : null);
                }

                var at = state is StackState.Idle or StackState.Runtime ? -1 : StackStates.SiteFrame(frames);
                if (at >= 0)
                {
                    sites.Add((samples.Count, addresses[at], at > 0 && PdbLines.EndsBlock(StackStates.Name(frames[at - 1]))));
                }

                samples.Add(new StackSample(e.ThreadID, ticks, state, api, site)
                {
                    Here = at >= 0 ? StackStates.Name(frames[at]) : null,
                    OnPool = StackStates.OnPool(frames),
                    Generated = state is not (StackState.Idle or StackState.Runtime or StackState.Running or StackState.Unnamed)
                        && StackStates.CalledFromGenerated(frames),
                });
            }

            var walkMs = clock.Elapsed.TotalMilliseconds - convertMs;

            // A site's line, where its module's PDB is at hand: two blocking lines in one method are two sites.
            foreach (var (index, line) in Lines(sites))
            {
                samples[index] = samples[index] with { Line = line };
            }

            var linesMs = clock.Elapsed.TotalMilliseconds - convertMs - walkMs;
            Owners(samples, lockWaits ?? []);
            return (samples, new StacksReadCost(bytes, Math.Round(convertMs, 1), Math.Round(walkMs, 1), Math.Round(linesMs, 1)));
        }
        finally
        {
            QuietFile.TryDelete(nettrace);
            QuietFile.TryDelete(etlx);
        }
    }

    /// <summary>
    /// For each sample of a thread waiting to enter a lock, where the lock's owner was: the runtime names the owner
    /// of each contended lock (its OS thread id) as the wait begins, and the owner's own sample nearest in time
    /// says where it was while it held the lock.
    /// </summary>
    internal static void Owners(List<StackSample> samples, IReadOnlyList<LockWait> lockWaits)
    {
        if (lockWaits.Count == 0)
        {
            return;
        }

        var waits = lockWaits.GroupBy(w => w.Waiter).ToDictionary(g => g.Key, g => g.OrderBy(w => w.Ticks).ToArray());
        var waitTicks = waits.ToDictionary(w => w.Key, w => Array.ConvertAll(w.Value, m => m.Ticks));
        var byThread = samples.Where(s => (s.Here ?? s.Site) is not null).GroupBy(s => s.Thread)
            .ToDictionary(g => g.Key, g => g.OrderBy(s => s.Ticks).ToList());
        var ticksOf = byThread.ToDictionary(t => t.Key, t => t.Value.Select(s => s.Ticks).ToArray());
        for (var i = 0; i < samples.Count; i++)
        {
            var sample = samples[i];
            if (sample.State != StackState.Waiting || !StackStates.EntersLock(sample.Api) || !waits.TryGetValue(sample.Thread, out var mine))
            {
                continue;
            }

            // The wait this sample is in: the thread's last contention that began at or before it.
            var w = Array.BinarySearch(waitTicks[sample.Thread], sample.Ticks);
            w = w >= 0 ? w : ~w - 1;
            if (w < 0 || mine[w].Owner is var ownerThread && !byThread.TryGetValue(ownerThread, out var owner))
            {
                continue;
            }

            // The owner's last sample between the wait's start and this sample: where it held the lock then.
            var o = Array.BinarySearch(ticksOf[ownerThread], sample.Ticks);
            o = o >= 0 ? o : ~o - 1;
            if (o < 0 || owner[o].Ticks < mine[w].Ticks)
            {
                continue;
            }

            samples[i] = sample with { Owner = new OwnerSite((owner[o].Here ?? owner[o].Site)!, owner[o].Line) };
        }
    }

    /// <summary>
    /// The source file and line (<c>Worker.cs:42</c>) of each sample's site, for the samples whose site's module has
    /// a PDB beside it: a portable one read directly (<see cref="PdbLines"/>), else through the trace's symbol reader,
    /// which looks in those modules' own folders only, and downloads nothing.
    /// </summary>
    private static IEnumerable<(int Sample, SourceLine Line)> Lines(List<(int Sample, TraceCodeAddress Address, bool EndsBlock)> sites)
    {
        using var pdbs = new PdbLines();
        var found = new Dictionary<CodeAddressIndex, SourceLine?>();
        var unplaced = new List<(int Sample, TraceCodeAddress Address)>();
        foreach (var (sample, address, endsBlock) in sites)
        {
            if (!found.TryGetValue(address.CodeAddressIndex, out var line))
            {
                line = Portable(address, pdbs, endsBlock);
                found[address.CodeAddressIndex] = line;
            }

            if (line is { } known)
            {
                yield return (sample, known);
            }
            else
            {
                unplaced.Add((sample, address));
            }
        }

        var folders = unplaced
            .Select(s => s.Address.ModuleFile?.FilePath)
            .Where(p => !string.IsNullOrEmpty(p) && Path.IsPathRooted(p))
            .Select(p => Path.GetDirectoryName(p)!)
            .Distinct(StringComparer.Ordinal)

            // A folder whose name the symbol path would read as its own syntax (a list, a server) is left out.
            .Where(f => f.IndexOfAny([';', '*']) < 0)
            .Where(Directory.Exists)
            .ToList();
        if (folders.Count == 0)
        {
            yield break;
        }

        using var reader = new SymbolReader(TextWriter.Null, string.Join(';', folders)) { SecurityCheck = _ => true };
        var read = new Dictionary<CodeAddressIndex, SourceLine?>();
        foreach (var (sample, address) in unplaced)
        {
            if (!read.TryGetValue(address.CodeAddressIndex, out var line))
            {
                line = Line(address, reader);
                read[address.CodeAddressIndex] = line;
            }

            if (line is { } known)
            {
                yield return (sample, known);
            }
        }
    }

    private static SourceLine? Portable(TraceCodeAddress address, PdbLines pdbs, bool endsBlock)
    {
        try
        {
            return address.Method is { MethodToken: > 0 } method
                ? pdbs.Find(address.ModuleFile?.FilePath, method.MethodToken, address.ILOffset, endsBlock)
                : null;
        }
#pragma warning disable CA1031 // A PDB that cannot be read, whatever the reader throws, leaves the site without its line and costs nothing else.
        catch (Exception ex) when (ex is not OutOfMemoryException)
#pragma warning restore CA1031
        {
            return null;
        }
    }

    private static SourceLine? Line(TraceCodeAddress address, SymbolReader reader)
    {
        try
        {
            return address.GetSourceLine(reader) is { LineNumber: > 0 } source && source.SourceFile?.BuildTimeFilePath is { Length: > 0 } file
                ? new SourceLine(Path.GetFileName(file.Replace('\\', '/')), source.LineNumber)
                : null;
        }
#pragma warning disable CA1031 // A PDB that cannot be read, whatever the reader throws, leaves the site without its line and costs nothing else.
        catch (Exception ex) when (ex is not OutOfMemoryException)
#pragma warning restore CA1031
        {
            return null;
        }
    }

    /// <summary>
    /// The samples added up: each stands for the time until its thread's next sample (of whatever state). Where other
    /// threads were sampled in between, the thread went unsampled and its sample stands for at most four times the
    /// profiler's median interval; where nobody was, the profiler itself paused and the sample stands for the whole
    /// gap. A thread's last sample (it stopped being sampled, or the region ended) gets one interval. Samples of idle
    /// pool threads and the runtime's own time nothing but the intervals. The work's time is also spread over
    /// <see cref="ThreadTime.Bins"/> bins from <paramref name="start"/> (the first sample's time when unknown) to
    /// <paramref name="end"/> (the last sample's end when unknown).
    /// </summary>
    internal static ThreadTime? Tally(IReadOnlyList<StackSample> samples, long ticksPerSecond, int? caller, long? start = null, long? end = null)
    {
        if (!samples.Any(s => s.State is not (StackState.Idle or StackState.Runtime)))
        {
            return null;
        }

        double Ms(long ticks) => ticks * 1000.0 / ticksPerSecond;
        var threads = samples.GroupBy(s => s.Thread).Select(g => (Thread: g.Key, Samples: g.OrderBy(s => s.Ticks).ToList())).ToList();
        var gaps = threads
            .SelectMany(t => t.Samples.Zip(t.Samples.Skip(1), (a, b) => Ms(b.Ticks - a.Ticks)))
            .Where(g => g > 0)
            .Order()
            .ToList();
        var interval = gaps.Count > 0 ? gaps[gaps.Count / 2] : 1.0;

        // Every sample's time, of every thread, in order: a gap in one thread's samples in which no other thread was
        // sampled either is the profiler's own pause (a busy machine delays its thread, the runtime's suspension
        // or a collection holds it up), and the thread stayed as it was seen, so its sample stands for all of it.
        // A gap in which others were sampled is this thread's alone (its managed stack was empty, or it was gone):
        // there its sample stands for at most four intervals.
        var ticks = samples.Select(s => s.Ticks).Order().ToArray();
        var margin = (long)(interval / 2 * ticksPerSecond / 1000);
        double Weight(long from, long to)
        {
            var gap = Ms(to - from);
            if (gap <= 4 * interval)
            {
                return gap;
            }

            var next = Array.BinarySearch(ticks, from + margin + 1);
            next = next < 0 ? ~next : next;
            var othersSampled = next < ticks.Length && ticks[next] < to - margin;
            return othersSampled ? 4 * interval : gap;
        }

        var work = new double[4];
        var callers = new double[4];

        // The pool's workers apart: a thread any of whose samples starts at the pool's worker loop.
        var pool = new double[4];
        var poolThreads = threads.Where(t => t.Samples.Any(s => s.OnPool)).Select(t => t.Thread).ToHashSet();
        var origin = start ?? samples.Min(s => s.Ticks);
        var spanMs = Math.Max(interval, end is { } last ? Ms(last - origin) : Ms(samples.Max(s => s.Ticks) - origin) + interval);
        var binMs = spanMs / ThreadTime.Bins;
        var bins = new double[ThreadTime.Bins, 4];
        var sites = new Dictionary<SiteKey, (double Ms, int Samples)>();
        var owners = new Dictionary<SiteKey, Dictionary<OwnerSite, double>>();
        foreach (var (thread, ordered) in threads)
        {
            for (var i = 0; i < ordered.Count; i++)
            {
                var sample = ordered[i];
                if (sample.State is StackState.Idle or StackState.Runtime)
                {
                    continue;
                }

                var weight = i + 1 < ordered.Count ? Weight(sample.Ticks, ordered[i + 1].Ticks) : interval;

                if (sample.State == StackState.Unnamed)
                {
                    AddUnnamed(sites, sample, weight, thread != caller);
                    continue;
                }

                var slot = sample.State switch { StackState.Waiting => 1, StackState.Sleeping => 2, StackState.Io => 3, _ => 0 };
                (thread == caller ? callers : work)[slot] += weight;
                if (thread != caller && poolThreads.Contains(thread))
                {
                    pool[slot] += weight;
                }

                if (thread != caller)
                {
                    Spread(bins, binMs, slot, Ms(sample.Ticks - origin), weight);
                }

                if (slot > 0 && thread != caller)
                {
                    var key = sample.Key;
                    var (ms, count) = sites.GetValueOrDefault(key);
                    sites[key] = (ms + weight, count + 1);
                    if (sample.Owner is { } owner)
                    {
                        var held = owners.TryGetValue(key, out var known) ? known : owners[key] = [];
                        held[owner] = held.GetValueOrDefault(owner) + weight;
                    }
                }
            }
        }

        static ThreadStates States(double[] t) => new(Math.Round(t[0], 1), Math.Round(t[1], 1), Math.Round(t[2], 1), Math.Round(t[3], 1));
        return new ThreadTime
        {
            Samples = samples.Count(s => s.State is not (StackState.Idle or StackState.Runtime or StackState.Unnamed)),
            UnnamedSamples = samples.Count(s => s.State == StackState.Unnamed),
            IntervalMs = Math.Round(interval, 3),
            Work = States(work),
            Caller = caller is null ? null : States(callers),
            Pool = poolThreads.Count == 0 ? null : States(pool),
            BinMs = Math.Round(binMs, 3),
            Timeline =
            [
                .. Enumerable.Range(0, ThreadTime.Bins).Select(b => new ThreadCounts(
                    Math.Round(bins[b, 0] / binMs, 2), Math.Round(bins[b, 1] / binMs, 2), Math.Round(bins[b, 2] / binMs, 2),
                        Math.Round(bins[b, 3] / binMs, 2))),
            ],
            Sites = Sites(sites, owners),
        };
    }

    // The sites with the most time, those in code never named after the rest.
    private static List<BlockingSite> Sites(
        Dictionary<SiteKey, (double Ms, int Samples)> sites, Dictionary<SiteKey, Dictionary<OwnerSite, double>> owners) =>
    [
        .. sites.OrderBy(s => s.Key.State == StackState.Unnamed).ThenByDescending(s => s.Value.Ms).Take(ThreadTime.MaxSites)
            .Select(s => new BlockingSite(StateName(s.Key.State), s.Key.Site, s.Key.Api, Math.Round(s.Value.Ms, 1), s.Value.Samples)
            {
                File = s.Key.Line?.File,
                Line = s.Key.Line?.Line,
                Generated = s.Key.Generated,
                Owner = owners.TryGetValue(s.Key, out var held) ? Owner(held) : null,
            }),
    ];

    // A sample in code never named: no state's time, but where the code's own frame is known, a site of its own kind.
    private static void AddUnnamed(
        Dictionary<SiteKey, (double Ms, int Samples)> sites, StackSample sample, double weight, bool work)
    {
        if (sample.Site is { } at && work)
        {
            var key = new SiteKey(sample.State, at, string.Empty, sample.Line, false);
            var (ms, count) = sites.GetValueOrDefault(key);
            sites[key] = (ms + weight, count + 1);
        }
    }

    // The owner's site where the waiters spent the most time waiting for it.
    private static LockOwner Owner(Dictionary<OwnerSite, double> held)
    {
        var (site, ms) = held.MaxBy(h => h.Value);
        return new LockOwner(site.Site, site.Line?.File, site.Line?.Line, Math.Round(ms, 1));
    }

    // Adds a sample's time, from fromMs for weightMs, to the bins it overlaps, in the given state's column; time
    // outside the span is left out.
    private static void Spread(double[,] bins, double binMs, int slot, double fromMs, double weightMs)
    {
        var count = bins.GetLength(0);
        var toMs = fromMs + weightMs;
        for (var b = Math.Max(0, (int)Math.Floor(fromMs / binMs)); b < count && b * binMs < toMs; b++)
        {
            var overlap = Math.Min(toMs, (b + 1) * binMs) - Math.Max(fromMs, b * binMs);
            if (overlap > 0)
            {
                bins[b, slot] += overlap;
            }
        }
    }

    private static string StateName(StackState state) => state switch
    {
        StackState.Waiting => "waiting",
        StackState.Sleeping => "sleeping",
        StackState.Io => "io",
        StackState.Unnamed => "in unnamed code",
        _ => "running",
    };
}

/// <summary>One sampled stack read: its thread, time (Stopwatch ticks), state, blocking method, call site and the site's line.</summary>
internal readonly record struct StackSample(int Thread, long Ticks, StackState State, string? Api, string? Site, SourceLine? Line = null)
{
    /// <summary>For a wait to enter a lock, where the lock's owner was; else null.</summary>
    public OwnerSite? Owner { get; init; }

    /// <summary>The first frame of code outside the framework, whatever the state (a running sample has no
    /// <see cref="Site"/>); null when there is none.</summary>
    public string? Here { get; init; }

    /// <summary>Whether the thread is one of the pool's workers (its stack starts at the pool's worker loop).</summary>
    public bool OnPool { get; init; }

    /// <summary>What tells this sample's site from others.</summary>
    public SiteKey Key => new(State, Site ?? string.Empty, Api ?? string.Empty, Line, Generated);

    /// <summary>
    /// Whether the blocking call was made from a method generated at run time (ASP.NET's request delegate) with no frame of
    /// the code's own between: the JIT inlined the handler that made it into that method, so it is not on the stack.
    /// </summary>
    public bool Generated { get; init; }
}

/// <summary>What tells one call site from another: its state, the code's frame, the framework's call, the line, and
/// whether the caller was inlined into generated code.</summary>
internal readonly record struct SiteKey(StackState State, string Site, string Api, SourceLine? Line, bool Generated);

/// <summary>Where a lock's owner was: its site and the site's line.</summary>
internal readonly record struct OwnerSite(string Site, SourceLine? Line);

/// <summary>A contended lock's wait as the runtime began it: when, the waiting thread and the owner's (OS thread ids).</summary>
internal readonly record struct LockWait(long Ticks, int Waiter, int Owner);

/// <summary>A source file's name and a line in it.</summary>
internal readonly record struct SourceLine(string File, int Line);
