using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Analysis;

/// <summary>
/// Computes a scenario's <see cref="Recommendation"/>s from its results alone, so the same results always give the
/// same answer: once when a run is summarised (and stored in <c>results.json</c>), and again only for a file written
/// before answers were stored.
/// </summary>
internal static class Recommender
{
    /// <summary>A variant this many times slower than the fastest, with no other reason, is listed as slow.</summary>
    public const double SlowRatio = 2;

    /// <summary>As fast, but this many times the threads of the one to use (and at least <see cref="ExtraThreads"/>
    /// more) is a cost to avoid.</summary>
    public const double ThreadsRatio = 2;

    /// <summary>See <see cref="ThreadsRatio"/>.</summary>
    public const int ExtraThreads = 8;

    /// <summary>Fewer cores busy than this, on average, while much slower than the fastest: the threads were blocked, not working.</summary>
    public const double IdleCores = 0.25;

    /// <summary>
    /// A variant with at most this share of the items in flight it allows, on average, could not start its work, even
    /// where no figure says why; where one does, fewer than it allows on average is enough (and it was not held to
    /// them, <see cref="AtLimitShare"/>).
    /// </summary>
    public const double StartShare = 0.5;

    /// <summary>At least this share of the machine's cores busy, on average: the CPU was what the variant ran on, all of it.</summary>
    public const double BusyCoresShare = 0.8;

    /// <summary>At most this share of the machine's cores busy, on average, while every pool thread was inside an item:
    /// the items blocked their threads.</summary>
    public const double IdleCoresShare = 0.5;

    /// <summary>A variant at least this many times the fastest's CPU, with the cores busy, was held by its own extra CPU.</summary>
    public const double MoreCpuRatio = 1.5;

    /// <summary>A variant with as many items in flight as it allows for at least this share of the region was held to them.</summary>
    public const double AtLimitShare = 0.5;

    /// <summary>
    /// The recommendations <paramref name="scenario"/> holds, or, for a file written before they were stored, the
    /// ones its results give on a machine of <paramref name="processorCount"/> cores.
    /// </summary>
    public static IReadOnlyList<Recommendation> Of(ScenarioResult scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);

        // A file from before items in flight were measured may hold a reason that said more than its figures did
        // ("it ran at most 128 items at once" from the degree alone): its answer is made again from its results,
        // which then gives no reason that needs figures the file does not have.
        return scenario.Recommendations is { } stored && !stored.Any(r => r.Avoid.Any(a => a is HeldToItsDegree { InFlight: null }))
            ? stored
            : AllFor(scenario, processorCount);
    }

    /// <summary>
    /// A recommendation for each set of values of the scenario's work parameters (one when it has none), in the
    /// order of the values: variants that run different work are not weighed against each other.
    /// </summary>
    public static IReadOnlyList<Recommendation> AllFor(ScenarioResult scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (scenario.WorkParameters.Count == 0)
        {
            return For(scenario, processorCount) is { } only ? [only] : [];
        }

        return
        [
            .. scenario.Variants
                .GroupBy(v => VariantValues.WorkGroup(scenario.WorkParameters, v.Parameters))
                .OrderBy(g => g.Max(v => scenario.WorkParameters.Select(p => v.WholeNumber(p) ?? 0).DefaultIfEmpty().Sum()))
                .ThenBy(g => g.Key, StringComparer.Ordinal)
                .Select(g => For(scenario with { Variants = [.. g] }, processorCount) is { } r ? r with { Group = g.Key } : null)
                .OfType<Recommendation>(),
        ];
    }

    /// <summary>How far above the fastest's median another's may be and still count as as fast (with the intervals overlapping).</summary>
    public const double AsFastRatio = 1.1;

    /// <summary>The recommendation for <paramref name="scenario"/>, or null when no variant had an ok trial.</summary>
    public static Recommendation? For(ScenarioResult scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var ok = scenario.Variants.Where(v => v.Summary is not null).OrderBy(v => v.Summary!.MedianWallMs).ToList();
        if (ok.Count == 0)
        {
            return null;
        }

        // Only a variant whose every trial was ok and whose results were right can be recommended; one whose trials did
        // other work than the run describes is not weighed at all, neither to use nor to avoid.
        var unlike = Unlike(scenario);
        var unlikeNames = unlike.Select(u => u.Variant).ToHashSet(StringComparer.Ordinal);
        var judged = scenario.Variants.Where(v => !unlikeNames.Contains(v.Name)).ToList();
        var sound = ok.Where(v => v.Trials.All(t => t.Status == TrialStatus.Ok) && scenario.WrongMetrics(v).Count == 0
            && !unlikeNames.Contains(v.Name)).ToList();
        var fastest = sound.Count > 0 ? sound[0] : ok.FirstOrDefault(v => !unlikeNames.Contains(v.Name)) ?? ok[0];
        var best = fastest.Summary!;
        if (sound.Count == 0)
        {
            return new Recommendation
            {
                Fastest = fastest.Name,
                FastestMs = best.MedianWallMs,
                Because = UseBecause.NoneSound,
                FastestInterval = new Interval(best.CiLowMs, best.CiHighMs),
                FastestThreads = Threads(fastest),
                FastestCpuMs = Cpu(fastest),
                Avoid = Ranked(judged.Select(v => ReasonToAvoid(scenario, v, fastest, fastest, false, processorCount))),
                NotJudged = unlike,
            };
        }

        // As fast as the fastest: the intervals of the two medians overlap, and its median is within 10% of the
        // fastest's. Overlap alone is only a failure to tell them apart: a variant of three trials, one of them fast,
        // has an interval wide enough to overlap anything, and its median may be twice the fastest's.
        var tied = sound.Where(v => v == fastest
            || (v.Summary!.CiLowMs <= best.CiHighMs && v.Summary.MedianWallMs <= AsFastRatio * best.MedianWallMs)).ToList();
        var limit = LimitInside.Of(scenario, sound, processorCount);
        var use = tied.OrderBy(v => Threads(v) ?? double.MaxValue).ThenBy(v => Cpu(v) ?? double.MaxValue).ThenBy(v => v.Summary!.MedianWallMs)
            .First();
        return new Recommendation
        {
            Fastest = fastest.Name,
            FastestMs = best.MedianWallMs,
            Use = use.Name,
            Because = use == fastest ? UseBecause.Fastest : UseBecause.AsFastAndCheaper,
            AsFast = tied.Count,
            UseInterval = new Interval(use.Summary!.CiLowMs, use.Summary.CiHighMs),
            FastestInterval = new Interval(best.CiLowMs, best.CiHighMs),
            UseThreads = Threads(use),
            FastestThreads = Threads(fastest),
            UseCpuMs = Cpu(use),
            FastestCpuMs = Cpu(fastest),
            Avoid = Ranked(judged.Where(v => v.Name != use.Name)
                .Select(v => ReasonToAvoid(scenario, v, use, fastest, tied.Contains(v), processorCount))),
            Gap = GapOf(scenario, fastest, processorCount),
            Limit = limit is { MachineBusy: false } ? limit : null,
            LimitNotJudged = limit is { MachineBusy: true } ? limit : null,
            NotJudged = unlike,
        };
    }

    /// <summary>Whether <paramref name="variant"/> was left out of any of <paramref name="recommendations"/> for running other work.</summary>
    internal static bool LeftOut(IEnumerable<Recommendation> recommendations, string variant) =>
        recommendations.Any(r => r.NotJudged.Any(u => u.Variant == variant));

    /// <summary>
    /// The variants whose median of a metric the scenario expects a value of (<see cref="ScenarioResult.Expectations"/>)
    /// strayed beyond its tolerance, each once (its first expectation to fail), in the order of the variants. A variant
    /// whose trials did not record the metric is not among them: nothing says it strayed.
    /// </summary>
    internal static IReadOnlyList<UnlikeWork> Unlike(ScenarioResult scenario)
    {
        var expectations = scenario.Expectations.Where(e => e.IsWeighable(scenario)).ToList();
        if (expectations.Count == 0)
        {
            return [];
        }

        var unlike = new List<UnlikeWork>();
        foreach (var variant in scenario.Variants)
        {
            foreach (var expected in expectations)
            {
                if (variant.Summary?.Medians.TryGetValue(expected.Metric, out var median) == true && double.IsFinite(median)
                    && !expected.Holds(median))
                {
                    unlike.Add(
                        new UnlikeWork { Variant = variant.Name, Metric = expected.Metric, Expected = expected.Value, Measured = median,
                            Tolerance = expected.Tolerance });
                    break;
                }
            }
        }

        return unlike;
    }

    /// <summary>
    /// Why <paramref name="best"/> stayed far from the ideal: each limit its trials measured, as the milliseconds of
    /// the gap it accounts for (each from 0 to the gap, never summed: they may overlap); null when its efficiency is
    /// at least <see cref="GapAccount.Threshold"/> or unknown.
    /// </summary>
    internal static GapAccount? GapOf(ScenarioResult scenario, VariantResult best, int processorCount)
    {
        if (best.Summary is not { ShownEfficiency: { } efficiency and < GapAccount.Threshold } summary || (summary.IdealMs ?? scenario.IdealMs) <= 0)
        {
            return null;
        }

        // The variant's own ideal: the scenario's, or with --grow the one at its size.
        var idealMs = summary.IdealMs ?? scenario.IdealMs;

        var gap = Math.Max(0, summary.MedianWallMs - idealMs);
        double Part(double ms) => Math.Clamp(ms, 0, gap);
        var parts = new List<GapPart>();
        var notJudged = new List<GapLimit>();

        // Measured by the batch itself, in every trial of a workload scenario.
        if (summary.Median(StandardMetrics.CallerTime) is { } caller)
        {
            parts.Add(new GapPart { Limit = GapLimit.CallerSideCpu, Ms = caller, ExplainedMs = Part(caller - idealMs) });
        }
        else
        {
            notJudged.Add(GapLimit.CallerSideCpu);
        }

        if (summary.Median(StandardMetrics.FirstItem) is { } first)
        {
            parts.Add(new GapPart { Limit = GapLimit.StartUp, Ms = first, ExplainedMs = Part(first) });
        }
        else
        {
            notJudged.Add(GapLimit.StartUp);
        }

        // Told by the runtime, in the median trial's account.
        var account = Accounts.Of(variant: best);
        var runtime = account is null ? null : best.Trials.ElementAtOrDefault(account.Trial)?.Runtime;
        if (account is null || runtime is null)
        {
            notJudged.AddRange([GapLimit.PoolThreadsBlocked, GapLimit.LockHeld, GapLimit.GcPause]);
        }
        else
        {
            // Raises only (the pool also lowers its target for blocking when the blocking ends), counted as the
            // account counts them.
            var (starved, blocking) = (account.Process.StarvationRaises, account.Process.BlockingRaises);
            if (starved + blocking > 0)
            {
                var last = runtime.Raises().Where(a => a.Reason is PoolAdjustmentReason.Starvation or PoolAdjustmentReason.CooperativeBlocking)
                    .Max(a => a.TimeMs);
                parts.Add(
                    new GapPart { Limit = blocking >= starved ? GapLimit.PoolThreadsBlocked : GapLimit.SlowInjection, Ms = last, Count = starved
                        + blocking, ExplainedMs = Part(last) });
            }

            if (account.Process.LockContentions is { Count: > 0 } locks)
            {
                var threads = Math.Max(1, summary.Median(StandardMetrics.PeakPoolThreads) ?? 1);
                parts.Add(
                    new GapPart { Limit = GapLimit.LockHeld, Ms = locks.TotalMs, Count = locks.Count, ExplainedMs = Part(locks.TotalMs / threads) });
            }

            if (account.Process.GcPauses is { Count: > 0 } pauses)
            {
                parts.Add(
                    new GapPart { Limit = GapLimit.GcPause, Ms = pauses.TotalMs, Count = account.Process.GcCollections,
                        ExplainedMs = Part(pauses.TotalMs) });
            }
        }

        var ranked = parts.OrderByDescending(p => p.ExplainedMs).ThenBy(p => p.Limit).ToList();
        var most = ranked.FirstOrDefault();
        return new GapAccount
        {
            Variant = best.Name,
            MedianMs = summary.MedianWallMs,
            IdealMs = idealMs,
            Efficiency = efficiency,
            Limit = most is not null && gap > 0 && most.ExplainedMs >= GapAccount.ExplainsShare * gap ? most.Limit : GapLimit.Unexplained,
            Parts = ranked,
            NotJudged = notJudged,
            Machine = MachineOf(summary, processorCount),
        };
    }

    // The medians of the variant's trials, where every one of them was read, and only where the parts come to about the
    // core time the run's cores had: /proc/stat counts every core of the machine, which a container's quota or
    // DOTNET_PROCESSOR_COUNT does not lower, and then its parts are not shares of the run's cores.
    private static MachineShare? MachineOf(VariantSummary summary, int processorCount)
    {
        if (summary.Median(StandardMetrics.MachineIdle) is not { } idle
            || summary.Median(StandardMetrics.MachineSteal) is not { } steal
            || summary.Median(StandardMetrics.OthersCpu) is not { } others
            || summary.Median(StandardMetrics.Cpu) is not { } cpu
            || processorCount <= 0)
        {
            return null;
        }

        var coreMs = processorCount * summary.MedianWallMs;
        var parts = cpu + idle + steal + others;
        return parts >= 0.75 * coreMs && parts <= 1.33 * coreMs
            ? new MachineShare { CoreMs = coreMs, ProcessCpuMs = cpu, IdleMs = idle, StealMs = steal, OthersMs = others }
            : null;
    }

    // The machine's idle cores had I/O outstanding for at least half their idle time in the variant's regions: then the
    // cores it left idle may have waited for a device, and its low core count says nothing sure of how many items ran
    // at once (hash's direct@4 on 28 November: 1.2 cores busy with four workers, 250 ms of core time idle, 230 of it
    // with I/O outstanding). iowait is the machine's, not the variant's, so this only withholds the reason.
    private static bool WaitedForIo(VariantSummary summary) =>
        summary.Median(StandardMetrics.MachineIoWait) is { } ioWait && summary.Median(StandardMetrics.MachineIdle) is > 0 and var idle
            && ioWait >= 0.5 * idle;

    private static AvoidReason[] Ranked(IEnumerable<AvoidReason?> reasons) =>
        [.. reasons.OfType<AvoidReason>().OrderBy(a => a.Rank).ThenBy(a => a.Variant, StringComparer.Ordinal)];

    // The first rule that fires, in the order a performance engineer would check: wrong answers; then, for a variant
    // much slower than the fastest, its work that could not start, the CPU it spent, the limit it set itself; the pool
    // pushed; then a figure of waste. Every rule fires only on figures the run measured, and a reason carries them; a
    // variant much slower for no measured cause is said to be so, and nothing more.
    private static AvoidReason? ReasonToAvoid(
        ScenarioResult scenario,
        VariantResult variant,
        VariantResult use,
        VariantResult fastest,
        bool asFast,
        int processorCount)
    {
        var failed = variant.Trials.Where(t => t.Status != TrialStatus.Ok).ToList();
        if (failed.Count > 0)
        {
            return new TrialsFailed
            {
                Variant = variant.Name,
                Failed = failed.Count,
                Trials = variant.Trials.Count,
                TimedOut = failed.All(t => t.Status == TrialStatus.Timeout),
                FirstError = failed[0].Error ?? failed[0].Status.ToText(),
            };
        }

        if (variant.Summary is not { } summary)
        {
            return new NoOkTrial { Variant = variant.Name };
        }

        var wrong = scenario.WrongMetrics(variant);
        if (wrong.Count > 0)
        {
            return new WrongResults { Variant = variant.Name,
                Metrics = wrong.ToDictionary(m => m.Id, m => summary.Median(m)!.Value, StringComparer.Ordinal) };
        }

        // A median of 0 (no measurable time) gives no ratio a file could hold: then no rule of slowness fires.
        var ratio = fastest.Summary!.MedianWallMs > 0 ? summary.MedianWallMs / fastest.Summary.MedianWallMs : 1;
        var slow = ratio >= SlowRatio;
        var cores = summary.Median(StandardMetrics.CoresUsed);
        var coresBusy = processorCount >= 1 && cores >= BusyCoresShare * processorCount;
        var inFlight = InFlightOf(summary);

        // Much slower, with its items in flight counted: what held them, in the order an engineer checks it. The
        // pool's raises are part of the first account; where the items ran as many at once as allowed, the degree is.
        if (slow && inFlight is not null)
        {
            var cause = (AvoidReason?)CouldNotStart(variant, summary, inFlight, ratio, processorCount)
                ?? (AvoidReason?)CpuBoundOf(variant, summary, fastest, ratio, coresBusy, processorCount)
                ?? HeldOf(variant, inFlight, fastest, ratio);
            if (cause is not null)
            {
                return cause;
            }
        }

        // The pool's injections, in the trial's process or in the service it drove (fanout's product service).
        foreach (var (service, starved, blocking) in new[]
        {
            ((string?)null, summary.Median(StandardMetrics.StarvationInjections) ?? 0, summary.Median(StandardMetrics.BlockingInjections) ?? 0),
            (variant.Trials.Select(t => t.Service?.Name)
                .FirstOrDefault(n => n is not null), ServiceMedian(variant, StandardMetrics.StarvationInjections), ServiceMedian(
                    variant, StandardMetrics.BlockingInjections)),
        })
        {
            // Threads added for starvation alone while every core was busy say that long items held the pool's
            // threads running, not blocked: no sign of blocking.
            if (starved + blocking < 1 || (service is null && blocking < 1 && coresBusy))
            {
                continue;
            }

            // Where, when the stacks were sampled: the top call site of the process the pool was pushed in.
            var account = Accounts.Of(variant);
            var sampled = service is null ? account?.Process.Threads : account?.Service?.Threads;
            var top = sampled is { Sites.Count: > 0 } ? sampled.Sites[0] : null;
            return new BlocksPoolThreads
            {
                Variant = variant.Name, Service = service, Starvation = starved, Blocking = blocking, MedianMs = summary.MedianWallMs,
                At = top, AtShare = sampled?.Top is var (_, share) ? Math.Round(share, 3) : null,
                InFlight = service is null ? inFlight : null,
            };
        }

        // About one core busy where the fastest kept more: a figure, not a cause; the calling thread is named as its
        // cause where it ran the items' work for half the region or more.
        var fastestCores = fastest.Summary.Median(StandardMetrics.CoresUsed);
        if (processorCount >= 2 && cores is >= 0.8 and <= 1.2 && fastestCores >= 1.5 && !asFast && !WaitedForIo(summary))
        {
            var caller = summary.Median(StandardMetrics.CallerTime);
            return new OneCoreBusy
            {
                Variant = variant.Name, Cores = cores.Value, FastestCores = fastestCores.Value, ProcessorCount = processorCount,
                CallerMs = caller >= 0.5 * summary.MedianWallMs ? caller : null,
            };
        }

        if (Threads(variant) is { } threads && Threads(use) is { } fewest && threads >= ThreadsRatio * fewest && threads >= fewest + ExtraThreads)
        {
            return new ManyMoreThreads { Variant = variant.Name, Threads = threads, UseThreads = fewest, AsFast = asFast, Ratio = ratio };
        }

        // Where the items in flight were not measured (a scenario that does not time its items): much slower, calling
        // blocking code, with the cores idle, and never given the threads its degree asked for (the calling thread
        // counts as one, as Parallel.For uses it): its threads sat blocked in the waits.
        var degree = variant.WholeNumber(Scenarios.BatchVariant.DegreeName);
        var poolThreads = summary.Median(StandardMetrics.PeakPoolThreads);
        if (slow && inFlight is null && variant.Form == Workloads.WorkForm.Sync && cores is { } idle && idle < IdleCores
            && (degree is null || poolThreads + 1 < degree))
        {
            return new BlockedWithCoresIdle { Variant = variant.Name, Cores = idle, ProcessorCount = processorCount,
                MedianMs = summary.MedianWallMs, Ratio = ratio, Degree = degree, PoolThreads = poolThreads };
        }

        return slow ? new MuchSlower { Variant = variant.Name, Ratio = ratio, MedianMs = summary.MedianWallMs } : null;
    }

    /// <summary>The medians of a variant's items in flight; null where its trials did not count them.</summary>
    internal static InFlightFigures? InFlightOf(VariantSummary summary) =>
        summary.Median(StandardMetrics.InFlightMean) is { } mean && summary.Median(StandardMetrics.InFlightPeak) is { } peak
            ? new InFlightFigures
            {
                Mean = mean,
                Peak = peak,
                Allowed = summary.Median(StandardMetrics.AllowedAtOnce),
                AtAllowedShare = summary.Median(StandardMetrics.AtAllowedShare),
            }
            : null;

    // Fewer items in flight than the strategy allows, and not held at that many for half the region: its work could
    // not start. Why, in the order the figures can tell it: the calling thread ran the items itself; never more than
    // one at a time; the pool's threads all inside items with the cores idle. A cause the figures show is named
    // whenever fewer ran than allowed; with none shown, only far below (half or less) is it said, as not explained.
    // With the cores busy the CPU is the account (CpuBoundOf), not this one.
    private static CouldNotStart? CouldNotStart(
        VariantResult variant,
        VariantSummary summary,
        InFlightFigures inFlight,
        double ratio,
        int processorCount)
    {
        if (inFlight is not { Allowed: >= 2 and var allowed } || inFlight.Mean >= allowed || inFlight.AtAllowedShare >= AtLimitShare)
        {
            return null;
        }

        var cores = summary.Median(StandardMetrics.CoresUsed);
        var poolThreads = summary.Median(StandardMetrics.PeakPoolThreads);
        var caller = summary.Median(StandardMetrics.CallerTime);
        StartCause cause;
        if (caller >= 0.5 * summary.MedianWallMs)
        {
            cause = StartCause.CallingThread;
        }
        else if (inFlight.Peak <= 1)
        {
            cause = StartCause.OneAtATime;
        }
        else if (cores is { } c && c <= IdleCoresShare * processorCount && poolThreads is > 0 and var pool && inFlight.Mean <= pool + 1
            && inFlight.Peak >= pool - 1)
        {
            cause = StartCause.PoolThreadsBlocked;
        }
        else if (cores >= BusyCoresShare * processorCount || inFlight.Mean > StartShare * allowed)
        {
            return null;
        }
        else
        {
            cause = StartCause.Unexplained;
        }

        return new CouldNotStart
        {
            Variant = variant.Name,
            InFlight = inFlight,
            Cause = cause,
            Cores = cores,
            ProcessorCount = processorCount,
            PoolThreads = poolThreads,
            QueuePeak = summary.Median(StandardMetrics.PeakQueueLength),
            Starvation = summary.Median(StandardMetrics.StarvationInjections) ?? 0,
            Blocking = summary.Median(StandardMetrics.BlockingInjections) ?? 0,
            CallerMs = caller,
            MedianMs = summary.MedianWallMs,
            Ratio = ratio,
        };
    }

    // Every core busy, on much more CPU than the fastest spent on the same work: its own CPU held it.
    private static CpuBound? CpuBoundOf(VariantResult variant, VariantSummary summary, VariantResult fastest, double ratio, bool coresBusy,
        int processorCount) =>
        coresBusy && summary.Median(StandardMetrics.Cpu) is { } cpu && fastest.Summary?.Median(StandardMetrics.Cpu) is > 0 and var fastestCpu
            && cpu >= MoreCpuRatio * fastestCpu
            ? new CpuBound { Variant = variant.Name, Cores = summary.Median(StandardMetrics.CoresUsed)!.Value, ProcessorCount = processorCount,
                CpuMs = cpu, FastestCpuMs = fastestCpu, Ratio = ratio }
            : null;

    // As many items in flight as it allows for at least half the region, where the fastest ran far more on average:
    // its degree (or its loop) held it.
    private static HeldToItsDegree? HeldOf(VariantResult variant, InFlightFigures inFlight, VariantResult fastest, double ratio)
    {
        if (inFlight.Allowed is not { } allowed || fastest.Summary is null || InFlightOf(fastest.Summary) is not { } fastestInFlight)
        {
            return null;
        }

        return inFlight.AtAllowedShare >= AtLimitShare && allowed >= 1 && fastestInFlight.Mean >= 1.5 * inFlight.Mean
            ? new HeldToItsDegree { Variant = variant.Name, Degree = (int)Math.Round(allowed), Ratio = ratio, InFlight = inFlight,
                FastestInFlight = fastestInFlight.Mean }
            : null;
    }

    // The median over the ok trials of a metric of the service the trial drove; 0 where none recorded it.
    private static double ServiceMedian(VariantResult variant, Metric metric) =>
        Statistics.MedianEstimate.MedianOf(variant.Trials.Where(t => t.Status == TrialStatus.Ok).Select(t => t.Service?.Value(metric))
            .OfType<double>());

    private static double? Threads(VariantResult variant)
        => variant.Summary?.Median(StandardMetrics.PeakThreads) is >= 0 and var threads ? threads : null;

    private static double? Cpu(VariantResult variant) => variant.Summary?.Median(StandardMetrics.Cpu);
}
