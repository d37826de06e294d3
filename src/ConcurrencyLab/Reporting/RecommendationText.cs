using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// A <see cref="Recommendation"/> in words, the same in every report: first what to use, then each variant to avoid
/// for a reason of its own, then one line for those that are only much slower. The words are made here and only
/// here; the figures come from the recommendation, the metric names and units from the scenario.
/// </summary>
internal static class RecommendationText
{
    /// <summary>The most variants named on the line of those that are only slower.</summary>
    public const int SlowerNamed = 6;

    /// <summary>The lines of <paramref name="recommendation"/>, a recommendation of <paramref name="scenario"/>.</summary>
    public static IReadOnlyList<Statement> Lines(Recommendation recommendation, ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(recommendation);
        ArgumentNullException.ThrowIfNull(scenario);
        var group = recommendation.Group is null ? string.Empty : $"At {recommendation.Group}: ";
        var lines = new List<Statement> { Statement.Of(Tone.Use, $"{group}Use: {UseReason(recommendation)}") };
        if (scenario.DegreeSearches.FirstOrDefault(d => d.Variant == recommendation.Use) is { Tried.Count: > 0 } search)
        {
            lines.Add(Statement.Of(Tone.Use, $"{Searched(search)}"));
        }

        if (recommendation.Limit is { } limit)
        {
            lines.Add(Statement.Of(Tone.Plain, $"{Limit(limit)}"));
        }

        if (recommendation.LimitNotJudged is { } unjudged)
        {
            lines.Add(Statement.Of(Tone.Unjudged, $"{LimitNotJudged(unjudged)}"));
        }

        if (recommendation.Gap is { } gap)
        {
            lines.Add(Statement.Of(Tone.Plain, $"{Gap(gap)}"));
        }

        lines.AddRange(recommendation.Avoid.Where(a => a is not MuchSlower)
            .Select(a => Statement.Of(Tone.Avoid, $"Avoid {V(a.Variant)}: {Reason(a, recommendation, scenario)}.")));
        var slower = recommendation.Avoid.OfType<MuchSlower>().ToList();
        if (slower.Count > 0)
        {
            var named = Statement.Join(", ", slower.Take(SlowerNamed).Select(a => Statement.Of($"{V(a.Variant)}")));
            var more = slower.Count > SlowerNamed ? $" and {slower.Count - SlowerNamed} more" : string.Empty;
            lines.Add(slower.Count == 1
                ? Statement.Of(Tone.Avoid, $"Avoid {V(slower[0].Variant)}: {Reason(slower[0], recommendation, scenario)}.")
                : Statement.Of(
                    Tone.Avoid, $"Avoid, as {Piece.Fixed(Analysis.Recommender.SlowRatio, "0.##")} or more times slower than " +
                        $"{V(recommendation.Fastest)}, for reasons this run's figures do not explain: {named}{more}."));
        }

        lines.AddRange(recommendation.NotJudged.Select(u => Statement.Of(Tone.Plain, $"Not judged: {V(u.Variant)}, {Unlike(u, scenario)}.")));
        return lines;
    }

    // Why a variant was left out of the answer: "whose median item CPU was 6.15 ms against the 4 ms the run's work is
    // described as (10% either way is judged): it ran other work than the run describes, ...".
    private static Statement Unlike(UnlikeWork unlike, ScenarioResult scenario)
    {
        var metric = scenario.AllMetrics().FirstOrDefault(m => m.Id == unlike.Metric);
        Inline Value(double value) => metric is null ? Piece.Fixed(value, "0.###") : new Number(metric.Write(value), value);
        var unit = metric is { Unit.Length: > 0 } ? " " + metric.Unit : string.Empty;
        // "Item CPU" reads "item CPU": the first letter only, so that an acronym stays one.
        var name = metric is null ? Statement.Of($"{Piece.Code(unlike.Metric)}")
            : Statement.Plain(metric.DisplayName.Length == 0 ? unlike.Metric
                : char.ToLowerInvariant(metric.DisplayName[0]) + metric.DisplayName[1..]);
        return Statement.Of($"whose median {name} was {Value(unlike.Measured)}{unit} against the {Value(unlike.Expected)}{unit} the run's " +
            $"work is described as ({Piece.Fixed(100 * unlike.Tolerance, "0")}% either way is judged): it ran other work than the run " +
            $"describes, so its time is not weighed against the others'");
    }

    /// <summary>
    /// A limit inside the items, with the figures that show it: "A limit inside the items: about 3.9 made progress at
    /// once, whatever the strategy and degree. ...".
    /// </summary>
    public static Statement Limit(InsideLimit limit)
    {
        ArgumentNullException.ThrowIfNull(limit);
        var (first, last) = (limit.Witnesses[0], limit.Witnesses[^1]);
        var witnesses = limit.Witnesses.Count == 2
            ? Statement.Of($"{V(first.Variant)} with {InFlight(first.InFlight)} items in flight and {V(last.Variant)} with {InFlight(last.InFlight)}")
            : Statement.Of($"{Piece.Count(limit.Witnesses.Count)} variants with {InFlight(first.InFlight)} to " +
                $"{InFlight(last.InFlight)} items in flight ({V(first.Variant)} to {V(last.Variant)})");
        var (low, high) = (limit.Witnesses.Min(w => w.PerSecond), limit.Witnesses.Max(w => w.PerSecond));
        var (shortest, longest) = (limit.Witnesses.Min(w => w.Stretch), limit.Witnesses.Max(w => w.Stretch));
        var what = limit.LockAmongThem
            ? Statement.Of($"; threads waited for a lock {Piece.Count(limit.LockContentions)} times for {Piece.Count(limit.Items)} items, " +
                $"so a lock is among the limits")
            : Statement.Plain(" (a semaphore, a pool of connections, a lock or a service downstream: what it is, the run cannot tell)");
        return Statement.Of($"A limit inside the items: about {Piece.Fixed(limit.AtOnce, "0.0")} made progress at once, whatever the " +
            $"strategy and degree. The best rate was {Rate(limit.BestPerSecond)} items/s ({V(limit.Best)}) and an item takes " +
            $"{Piece.Ms(limit.ItemLeastMs)} ms at its least, so by Little's law {Rate(limit.BestPerSecond)}/s x " +
            $"{Piece.Ms(limit.ItemLeastMs)} ms = {Piece.Fixed(limit.AtOnce, "0.0")} at once; {witnesses} were no faster " +
            $"({Rate(low)}-{Rate(high)} items/s), each item taking {Piece.Fixed(shortest, "0.0")}-{Piece.Fixed(longest, "0.0")} times its " +
            $"least, with at most {Piece.Fixed(limit.Cores, "0.00")} of {Piece.Count(limit.ProcessorCount)} cores busy{what}.");
    }

    /// <summary>
    /// What looked like a limit inside the items on a machine other work kept busy: "A limit inside the items could not
    /// be judged: 4 variants with far more items in flight were no faster, but ...".
    /// </summary>
    public static Statement LimitNotJudged(InsideLimit limit)
    {
        ArgumentNullException.ThrowIfNull(limit);
        var idle = limit.MachineIdleShare is { } share
            ? Statement.Of($" (as little as {Piece.Fixed(100 * share, "0")}% of its core time idle in their regions)")
                : Statement.Plain(string.Empty);
        return Statement.Of($"A limit inside the items could not be judged: {Piece.Count(limit.Witnesses.Count)} variants with far more " +
            $"items in flight than {V(limit.Best)} were no faster, but other work kept the machine's cores busy{idle}, so the CPU cannot be " +
            $"ruled out.");
    }

    private static Number Rate(double perSecond) => Piece.Fixed(perSecond, perSecond >= 100 ? "0" : "0.#");

    private static Number InFlight(double mean) => new(NumberText.AtOnce(mean), mean);

    /// <summary>
    /// How the degree of a variant to use was found: "foreach-async@48's degree was searched: 2 to 128 tried in 27
    /// trials; 32 to 96 are as fast (within 5%)".
    /// </summary>
    public static Statement Searched(DegreeSearchResult search)
    {
        ArgumentNullException.ThrowIfNull(search);
        var (low, high) = (search.Tried.Min(t => t.Degree), search.Tried.Max(t => t.Degree));
        var within = search.Noise is > 0 and < 1 ? Statement.Of($" (within {Piece.Fixed(100 * search.Noise, "0")}%)") : Statement.Plain(string.Empty);
        var fast = search.AsFastFrom < search.AsFastTo
            ? Statement.Of($"{Piece.Count(search.AsFastFrom)} to {Piece.Count(search.AsFastTo)} are as fast{within}")
            : Statement.Plain("no other degree tried was as fast");
        return Statement.Of($"{V(search.Variant)}'s degree was searched: {Piece.Count(low)} to {Piece.Count(high)} tried " +
            $"({Piece.Count(search.Tried.Count)} degrees, {Piece.Count(search.Trials)} trials); {fast}.");
    }

    /// <summary>
    /// Why the best variant stayed far from the ideal, in a sentence: "Gap to the ideal: whenall reached 0.48 of it
    /// (831 ms against 400 ms); caller-side CPU explains 400 of the 431 ms: ...".
    /// </summary>
    public static Statement Gap(GapAccount gap)
    {
        ArgumentNullException.ThrowIfNull(gap);
        var head = Statement.Of($"Gap to the ideal: {V(gap.Variant)} reached {Piece.Fixed(gap.Efficiency, "0.00")} of it " +
            $"({Piece.Ms(gap.MedianMs)} ms against {Piece.Ms(gap.IdealMs)} ms)");
        var most = gap.Parts.Count > 0 ? gap.Parts[0] : null;
        var notJudged = gap.NotJudged.Count == 0
            ? Statement.Plain(string.Empty)
            : Statement.Of($" Not judged here: {string.Join(", ", gap.NotJudged.Select(LimitName))} ({NotJudgedWhy(gap.NotJudged)}).");
        if (gap.Limit == GapLimit.Unexplained || most is null)
        {
            var closest = most is not null && most.ExplainedMs >= 0.01 * gap.GapMs
                ? Statement.Of($" The most any measured limit explains: {LimitName(most.Limit)}, {Piece.Ms(most.ExplainedMs)} ms ({What(most)}).")
                : Statement.Plain(string.Empty);
            return Statement.Of($"{head}; no measured limit explains half of the " +
                $"{Piece.Ms(gap.GapMs)} ms.{closest}{notJudged}{Machine(gap.Machine)}");
        }

        var rest = gap.GapMs - most.ExplainedMs;
        var unexplained = rest > 0.1 * gap.GapMs ? Statement.Of($"; {Piece.Ms(rest)} ms unexplained") : Statement.Plain(string.Empty);
        return Statement.Of($"{head}; {LimitName(most.Limit)} explains {Piece.Ms(most.ExplainedMs)} of the {Piece.Ms(gap.GapMs)} ms: " +
            $"{What(most)}{unexplained}.{notJudged}{Machine(gap.Machine)}");
    }

    // Where the machine's cores went: what they did, not why, so it is said apart from the limits.
    private static Statement Machine(MachineShare? machine) => machine is null
        ? Statement.Plain(string.Empty)
        : Statement.Of($" The machine's core time in its trials' regions ({Whole(machine.CoreMs)} ms; medians, the machine's states read in " +
            $"ticks of 10 ms): the trial's process {Whole(machine.ProcessCpuMs)} ms, idle {Whole(machine.IdleMs)} ms, stolen by the " +
            $"hypervisor {Whole(machine.StealMs)} ms, other work {Whole(machine.OthersMs)} ms.");

    // /proc/stat counts in 10 ms ticks: a decimal would claim more than it read.
    private static Number Whole(double ms) => Piece.Count(Math.Round(ms));

    private static string LimitName(GapLimit limit) => limit switch
    {
        GapLimit.CallerSideCpu => "caller-side CPU",
        GapLimit.PoolThreadsBlocked => "pool threads blocked",
        GapLimit.SlowInjection => "slow thread injection",
        GapLimit.LockHeld => "a lock held",
        GapLimit.StartUp => "start-up",
        GapLimit.GcPause => "GC pauses",
        _ => "nothing measured",
    };

    private static string NotJudgedWhy(IReadOnlyList<GapLimit> limits) =>
        limits.Any(l => l is GapLimit.CallerSideCpu or GapLimit.StartUp)
            ? limits.Any(l => l is GapLimit.LockHeld) ? "the scenario does not time its items' calls, and the runtime's events were not read"
                : "the scenario does not time its items' calls"
            : "the runtime's events were not read";

    // What was measured for one limit, in a clause.
    private static Statement What(GapPart part) => part.Limit switch
    {
        GapLimit.CallerSideCpu
            => Statement.Of($"the calling thread spent {Piece.Ms(part.Ms)} ms inside the items it started, before each call returned (their " +
                $"work before the first await), one item after another on one core"),
        GapLimit.StartUp => Statement.Of($"the first item was called {Piece.Ms(part.Ms)} ms after the handover"),
        GapLimit.PoolThreadsBlocked
            => Statement.Of($"the pool raised its target {Count(part.Count)} times, mostly because its threads blocked on tasks, the last " +
                $"{Piece.Ms(part.Ms)} ms into the run"),
        GapLimit.SlowInjection
            => Statement.Of($"the pool added threads at the starvation monitor's pace while work waited, {Count(part.Count)} times, the " +
                $"last {Piece.Ms(part.Ms)} ms into the run"),
        GapLimit.LockHeld => Statement.Of($"threads waited {Piece.Ms(part.Ms)} ms for locks in {Count(part.Count)} contentions, summed over threads"),
        GapLimit.GcPause => Statement.Of($"the runtime paused {Piece.Ms(part.Ms)} ms for {Count(part.Count)} collections"),
        _ => Statement.Plain("nothing"),
    };

    /// <summary>Why the recommendation names the variant it does, in a sentence.</summary>
    public static Statement UseReason(Recommendation r)
    {
        ArgumentNullException.ThrowIfNull(r);
        return r.Because switch
        {
            _ when r.Use is null || r.Because == UseBecause.NoneSound => r.NotJudged.Count == 0
                ? Statement.Plain("none: every variant run failed a trial or gave wrong results.")
                : r.Avoid.Count == 0
                    ? Statement.Plain("none: every variant ran other work than the run describes (below).")
                    : Statement.Of($"none: {Count(r.NotJudged.Count)} ran other work than the run describes (below), and every other " +
                        $"variant failed a trial or gave wrong results."),
            UseBecause.Fastest => r.AsFast > 1
                ? Statement.Of($"{V(r.Use)} is the fastest, at {Piece.Ms(r.FastestMs)} ms, and no variant as fast uses fewer threads " +
                    $"({Count(r.UseThreads)}).")
                : Statement.Of($"{V(r.Use)} is the fastest, at {Piece.Ms(r.FastestMs)} ms."),
            _
                => Statement.Of($"{V(r.Use)} is as fast as {V(r.Fastest)} within the statistics ({Range(r.UseInterval)} ms against " +
                    $"{Range(r.FastestInterval)} ms) on {Count(r.UseThreads)} threads against " +
                    $"{Count(r.FastestThreads)}{(r.UseCpuMs is { } cpu && r.FastestCpuMs is { } fastestCpu ? Statement.Of($", and {Piece.Ms(cpu)} ms of CPU against {Piece.Ms(fastestCpu)}.") : Statement.Plain("."))}"),
        };
    }

    /// <summary>Why <paramref name="reason"/>'s variant is one to avoid, in a clause.</summary>
    public static Statement Reason(AvoidReason reason, Recommendation recommendation, ScenarioResult scenario)
    {
        ArgumentNullException.ThrowIfNull(reason);
        ArgumentNullException.ThrowIfNull(recommendation);
        ArgumentNullException.ThrowIfNull(scenario);
        var fastest = V(recommendation.Fastest);
        return reason switch
        {
            TrialsFailed f
                => Statement.Of($"{Piece.Count(f.Failed)} of {Piece.Count(f.Trials)} trials {(f.TimedOut ? "timed out" : "failed")}: " +
                    $"{f.FirstError.TrimEnd('.')}"),
            NoOkTrial => Statement.Plain("no trial was ok"),
            WrongResults w => w.Metrics.Count == 0
                ? Statement.Plain("wrong results")
                : Statement.Of($"wrong results: {Statement.Join(", ", w.Metrics.Select(m => Wrong(scenario, m.Key, m.Value)))}"),
            BlocksPoolThreads b
                => Statement.Of($"blocks pool threads{(b.Service is null ? string.Empty : $" in the {b.Service} service")}{At(b)}: the pool " +
                    $"raised its thread target {Statement.Join(" and ", Raises(b))}{RanOfAllowed(b.InFlight)}; {Piece.Ms(b.MedianMs)} ms " +
                    $"against {Piece.Ms(recommendation.FastestMs)} ms for {fastest}"),
            CouldNotStart n
                => Statement.Of($"its work could not start: it {RanAtOnce(n.InFlight)} though it allows " +
                    $"{Piece.Count(n.InFlight.Allowed ?? 0)}; {StartCause(n)}: {Times(n.Ratio)} the time of {fastest}"),
            CpuBound c
                => Statement.Of($"its own CPU held it: {Piece.Fixed(c.Cores, "0.00")} of {Piece.Count(c.ProcessorCount)} cores busy on " +
                    $"{Piece.Ms(c.CpuMs)} ms of CPU, {Times(c.CpuMs / c.FastestCpuMs)} the {Piece.Ms(c.FastestCpuMs)} ms {fastest} spent: " +
                    $"{Times(c.Ratio)} the time of {fastest}"),
            OneCoreBusy c
                => Statement.Of($"its CPU ran on about one core: {Piece.Fixed(c.Cores, "0.0")} of {Piece.Count(c.ProcessorCount)} cores " +
                    $"busy, where {fastest} kept {Piece.Fixed(c.FastestCores, "0.0")} busy{(c.CallerMs is { } caller ? Statement.Of($"; {CallerRan(caller)}") : Statement.Plain(string.Empty))}"),
            ManyMoreThreads t => t.AsFast
                ? Statement.Of($"as fast, but on {Count(t.Threads)} threads against {Count(t.UseThreads)} for {V(recommendation.Use)}")
                : Statement.Of($"{Times(t.Ratio)} slower than {fastest}, and on {Count(t.Threads)} threads against " +
                    $"{Count(t.UseThreads)} for {V(recommendation.Use)}"),
            BlockedWithCoresIdle i
                => Statement.Of($"it blocks its threads in the waits: {Piece.Fixed(i.Cores, "0.00")} of " +
                    $"{Piece.Count(i.ProcessorCount)} cores busy over {Piece.Ms(i.MedianMs)} ms, {Times(i.Ratio)} the time of " +
                    $"{fastest}{(i.Degree is { } d && i.PoolThreads is { } p ? Statement.Of($"; it asked for {Piece.Fixed(d, "0")} at once and the pool had at most {Piece.Count(p)} threads") : Statement.Plain(string.Empty))}"),
            HeldToItsDegree { InFlight: { } f } h
                => Statement.Of($"it ran {(h.Degree == 1 ? Statement.Plain("one item at a " +
                    "time") : Statement.Of($"{InFlight(f.Mean)} items at once on average"))}, all it allows " +
                    $"({Piece.Count(h.Degree)}){AtAllowed(f)}, where {fastest} ran {InFlight(h.FastestInFlight ?? 0)}: {Times(h.Ratio)} the " +
                    $"time of {fastest}"),
            HeldToItsDegree h
                => Statement.Of($"{Times(h.Ratio)} the time of {fastest} at a degree of {Piece.Fixed(h.Degree, "0")}; how many items it ran " +
                    $"at once was not measured"),
            MuchSlower s
                => Statement.Of($"{Times(s.Ratio)} slower than {fastest} ({Piece.Ms(s.MedianMs)} ms against " +
                    $"{Piece.Ms(recommendation.FastestMs)} ms), for reasons this run's figures do not explain"),
            _ => Statement.Plain(reason.GetType().Name),
        };
    }

    // Why the work could not start, as the figures show it.
    private static Statement StartCause(CouldNotStart n) => n.Cause switch
    {
        Results.StartCause.CallingThread => Statement.Of($"{CallerRan(n.CallerMs ?? 0)}, of the {Piece.Ms(n.MedianMs)} ms it took"),
        Results.StartCause.OneAtATime => Statement.Plain("never more than one at a time: each call ran its item to the end before the next began"),
        Results.StartCause.PoolThreadsBlocked
            => Statement.Of($"its pool threads were blocked inside the items: at most {Count(n.PoolThreads)} pool threads and " +
                $"{Piece.Count(n.InFlight.Peak)} items in flight, with {Cores(n.Cores)} of {Piece.Count(n.ProcessorCount)} cores " +
                $"busy{Queued(n.QueuePeak)}{Added(n)}"),
        _
            => Statement.Of($"what held the rest back is not explained by what this run measured ({Cores(n.Cores)} of " +
                $"{Piece.Count(n.ProcessorCount)} cores busy, at most {Count(n.PoolThreads)} pool threads)"),
    };

    // The calling thread's time inside the items, as two reasons say it.
    private static Statement CallerRan(double ms)
        => Statement.Of($"the calling thread ran {Piece.Ms(ms)} ms of the items' work itself, one item after another, before each call returned");

    private static Statement Cores(double? cores) => cores is { } c ? Statement.Of($"{Piece.Fixed(c, "0.00")}") : Statement.Plain("?");

    private static Statement Queued(double? queue) => queue switch
    {
        1 => Statement.Plain(", and a work item waited in the pool's queue"),
        > 1 and var q => Statement.Of($", and up to {Piece.Count(q)} work items waited in the pool's queue"),
        _ => Statement.Plain(string.Empty),
    };

    // "once", "2.5 times": a median count of events.
    private static Statement TimesCounted(double count) => count == 1 ? Statement.Plain("once") : Statement.Of($"{Piece.Count(count)} times");

    // The pool's raises while the items held its threads: it added threads, but at its own pace.
    private static Statement Added(CouldNotStart n) => n.Starvation + n.Blocking >= 1
        ? Statement.Of($"; the pool added threads {TimesCounted(n.Starvation + n.Blocking)} for starvation or blocking, at its own pace")
        : Statement.Plain(string.Empty);

    // ", for 93% of the region": the share at its limit, where measured.
    private static Statement AtAllowed(InFlightFigures f) => f.AtAllowedShare is >= 0 and <= 1 and var share
        ? Statement.Of($" for {Piece.Fixed(100 * share, "0")}% of the region")
        : Statement.Plain(string.Empty);

    // "ran 3.9 items at once on average (peak 5)".
    private static Statement RanAtOnce(InFlightFigures f)
        => Statement.Of($"ran {InFlight(f.Mean)} items at once on average (peak {Piece.Count(f.Peak)})");

    // "; it ran 3.9 items at once on average (peak 5) of the 128 it allows": where measured.
    private static Statement RanOfAllowed(InFlightFigures? f) => f is null
        ? Statement.Plain(string.Empty)
        : Statement.Of($"; it {RanAtOnce(f)}{(f.Allowed is { } allowed ? Statement.Of($" of the {Piece.Count(allowed)} it allows") : Statement.Plain(string.Empty))}");

    // Where the threads blocked most, when the stacks were sampled: " at Worker.Fetch (Worker.cs:42) -> Task`1.get_Result
    // (77% of the time not running)".
    private static Statement At(BlocksPoolThreads b)
    {
        if (b.At is not { } top)
        {
            return Statement.Plain(string.Empty);
        }

        var share = b.AtShare is { } s and >= 0 and <= 1 ? Statement.Of($" ({Piece.Fixed(100 * s, "0")}% of the time not running)")
            : Statement.Plain(string.Empty);
        return Statement.Of($" at {RuntimeAccountText.Where(top)}{share}");
    }

    // The pool's raises of its target, by reason: only those there were.
    private static IEnumerable<Statement> Raises(BlocksPoolThreads b)
    {
        if (b.Starvation >= 1)
        {
            yield return Statement.Of($"{TimesCounted(b.Starvation)} because queued work waited with no thread free");
        }

        if (b.Blocking >= 1)
        {
            yield return Statement.Of($"{TimesCounted(b.Blocking)} because its threads blocked on tasks");
        }
    }

    // A metric that should be 0, named and written as the scenario describes it; by its id where it does not.
    private static Statement Wrong(ScenarioResult scenario, string id, double value) =>
        scenario.AllMetrics().FirstOrDefault(m => m.Id == id) is { } metric
            ? Statement.Of($"{metric.DisplayName.ToLowerInvariant()} {new Number(metric.Write(value), value)} (should be 0)")
            : Statement.Of($"{Piece.Code(id)} {Piece.Fixed(value, "0.#")} (should be 0)");

    private static Statement Range(Interval? interval)
        => interval is { } i ? Statement.Of($"{Piece.Ms(i.Low)}-{Piece.Ms(i.High)}") : Statement.Plain("?");

    // Close to 1, two decimals: a variant 1.04 times slower (not as fast, its interval apart) read as "1.0 times slower".
    private static Statement Times(double ratio)
        => Statement.Of($"{(ratio < Analysis.Recommender.AsFastRatio ? Piece.Fixed(ratio, "0.00") : Piece.Multiple(ratio))} times");

    private static Inline Count(double? value) => value is { } v ? Piece.Count(v) : new Words("?");

    private static Inline V(string? variant) => variant is null ? new Words("?") : Piece.Variant(variant);
}
