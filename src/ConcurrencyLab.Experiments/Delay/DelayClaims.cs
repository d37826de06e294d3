using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Experiments.Delay;

/// <summary>
/// What the delayed-items post claims, and how each claim is decided. It ran 100 items of 10-50 ms with
/// Task.Delay, each case once, in a fixed order, in one process; its figures are in an image, and its machine's 8
/// cores are the lab's reading of them (the default degree's 384 ms is 100 items of 30 ms about 8 at a time). So the
/// claims about its figures hold at 100 items, Task.Delay and 8 cores as the runtime sees them; the runs here are
/// isolated and as published, and once more with the Channel case last, which the post invites.
/// </summary>
internal static class DelayClaims
{
    private const string Isolated = "delay";
    private const string AsPublished = "delay-as-published";
    private const string ChannelLast = "delay-channel-last";
    private const string Builds = "delay-builds";

    // The cases the post's note compares across builds.
    private static readonly string[] BuildCases = ["channel", "foreach-async@40"];

    // The least difference of the Channel's peak threads between its positions that counts as one: the post's count went
    // from 8 at the start to 19 at the end, so a difference of a thread or none is not the effect it points to.
    private const int PositionEffect = 2;

    private static readonly string[] Published = ["channel", "parallel-for@4", "foreach-async@4", "foreach-async@40", "foreach-async@default"];

    // The published workload at every scale: at the quick 40 items, degree 40 would take every item at once.
    private static readonly Dictionary<string, string> PublishedWorkload = new() { ["items"] = "100", ["timer"] = "task-delay" };

    // The workload the figures came from: 100 items of 10-50 ms, waited for with Task.Delay.
    private static readonly Requirement[] Workload =
    [
        Requirement.Is("items", "100"), Requirement.Is("min-delay", "10"), Requirement.Is("max-delay", "50"), Requirement.Is("timer", "task-delay"),
    ];

    // ... on the machine the lab reads the figures as coming from.
    private static readonly Requirement[] OnThePublishedMachine = [.. Workload, Requirement.Cores(8)];

    public static PublishedClaims All { get; } = new(
        "Channels vs Parallel.ForEachAsync on 100 delayed items (the post \".NET Task Parallel Library vs System.Threading.Channels\", 2023)",
        [
            new ClaimRun { Key = Isolated, Variants = Published, Cores = [8], Parameters = PublishedWorkload },
            new ClaimRun { Key = AsPublished, Variants = Published, Cores = [2, 8], AsPublished = true, Parameters = PublishedWorkload },
            new ClaimRun { Key = ChannelLast, Variants = [.. Published.Skip(1), Published[0]], Cores = [2, 8], AsPublished = true,
                Parameters = PublishedWorkload },

            // The note's builds of the two cases, and the framework-dependent one they are compared with, on 8 cores.
            new ClaimRun { Key = Builds, Variants = BuildCases, Cores = [8], Parameters = PublishedWorkload,
                Builds = [ProbeBuild.Framework, ProbeBuild.AsNotedUntrimmed, ProbeBuild.AsNoted, ProbeBuild.NativeAot], Repeat = 5, QuickRepeat = 5 },
        ],
        [
            new Claim("delay-channel-12x", "The Channel is almost 12x faster than TPL at degree 4 (Parallel.For and ForEachAsync)",
                "almost 12x in the text; 68 ms against 799 (Parallel.For@4) and 754 (ForEachAsync@4) in the image (8 cores, the lab's reading)",
                    [Isolated, AsPublished], ChannelAbout12x)
            {
                Checked = "Almost 12x is in the text, 68, 799 and 754 ms in the results image; the Channel, Parallel.For with Thread.Sleep " +
                    "and ForEachAsync with Task.Delay are the post's APIs, but its 8 cores are the lab's inference, emulated on smaller " +
                    "machines, and the delays are seeded.",
                Rule = "`parallel-for@4` / `channel` and `foreach-async@4` / `channel` both within 8-18x (2/3 to 1.5 times 12x)",
                Source = FigureSource.Text,
                Conditions = OnThePublishedMachine,
            },
            new Claim("delay-foreach-async-40", "Even at degree 40, ForEachAsync is slower than the Channel", "100 ms against 68 ms (8 cores)",
                [Isolated, AsPublished], ForEachAsync40Slower)
            {
                Checked = "The direction is in the text, 100 against 68 ms in the image; ForEachAsync at degree 40 with Task.Delay is the " +
                    "post's code; the isolated run is primed and warmed up, while the as-published passes run each case once, cold, in the " +
                    "post's order.",
                Rule = "`foreach-async@40` / `channel` above 1.24x, half the post's 1.47x effect",
                Source = FigureSource.Image,
                Conditions = OnThePublishedMachine,
            },
            new Claim("delay-default-degree", "ForEachAsync's default degree is the worst of both worlds: not throttled on purpose, yet slow",
                "384 ms, against 100 ms at degree 40 (8 cores)", [Isolated, AsPublished], DefaultDegreeWorst)
            {
                Checked = "The 384 and 100 ms are from the image and the worst-of-both-worlds wording from the conclusion; ForEachAsync " +
                    "with no options matches the post, and since its default degree is the processor count, the verdict depends on the 8 " +
                    "cores the lab infers from 384 ms.",
                Rule = "`foreach-async@default` / `foreach-async@40` within 2.56-5.76x (2/3 to 1.5 times the published 3.84x); the reason names " +
                    "the degree it ran at",
                Source = FigureSource.Image,
                Conditions = OnThePublishedMachine,
            },
            new Claim("delay-threads-19", "The thread count never rises above 19, even at degree 40",
                "8 threads at the start, 19 at the end (8 cores)", [Isolated, AsPublished], ThreadsNear19)
            {
                Checked = "The 19 is in the text, the 8 at the start only in the image; all five cases use the post's APIs, but the lab " +
                    "reads the process's sampled peak of OS threads, its sampler included, where the post counted threads at each case's " +
                    "start and end.",
                Rule = "the highest median peak of OS threads among the five cases below 24 (19 and a quarter: the runtime's own threads " +
                    "differ between versions)",
                Source = FigureSource.Text,
                Conditions = OnThePublishedMachine,
            },
            new Claim("delay-channel-position", "The Channel case's thread count depends on its position in the run",
                "no figure: run it last and see", [AsPublished], ChannelPositionMatters)
            {
                Checked = "The text only invites moving the Channel case last, with no figure; the lab runs the post's order with the " +
                    "Channel first and again last, in fresh processes, comparing its peak threads, and judges 2-core and 8-core passes " +
                    "alike since no core count is required.",
                Rule = "every pass with the Channel last above every pass with it first (3 passes each: 1 in 20 under no effect), their " +
                    $"medians {PositionEffect} threads apart or more, as the threads the cases before it made would have it; every pass " +
                    "below, or the medians equal or the other way: does not hold; a smaller difference or an overlap: could not be judged",
                Source = FigureSource.Text,
                Conditions = Workload,
            },
            new Claim("delay-aot-foreach-async-40", "Built with native AOT, single file and trimmed, ForEachAsync at degree 40 beats the Channel",
                "no figure: a reader's report in the post's note", [Builds], AotForEachAsync40Wins)
            {
                Checked = "A reader's report in the post's closing note, without figures; the lab builds with the note's flags word for " +
                    "word (PublishNativeAot is no real property, so the JIT still runs) and with a real PublishAot, timing only the two " +
                    "cases, not the reader's whole program.",
                Rule = "`foreach-async@40` / `channel` below 1x in the note's build (its flags word for word: self-contained, single file, " +
                    "trimmed, and PublishNativeAot, which is no MSBuild property) and in a real native AOT build (PublishAot); in one only: " +
                    "holds only there",
                Source = FigureSource.Text,
                Conditions = OnThePublishedMachine,
            },
            new Claim("delay-trimmed-channel", "PublishTrimmed penalises the Channel", "no figure: the post's note", [Builds],
                TrimmingPenalisesTheChannel)
            {
                Checked = "The author's guess in the closing note, with no figure; on 8 cores the lab times the Channel case in the note's " +
                    "build against the same build without PublishTrimmed, so only trimming differs, but the builds run two cases, not the " +
                    "post's whole sample program.",
                Rule = "`channel` in the note's build (self-contained, single file, trimmed) / in the same build untrimmed above 1.1x",
                Source = FigureSource.Text,
                Conditions = OnThePublishedMachine,
            },
        ]);

    /// <summary>The band "almost 12x" holds in: from 2/3 to 1.5 times the published 12.</summary>
    internal static readonly Band About12x = Band.Around(12, 2.0 / 3, 1.5);

    /// <summary>Each degree-4 case over the Channel within <see cref="About12x"/>, interval and all.</summary>
    internal static Judgement ChannelAbout12x(ClaimEvidence evidence) => Decide.All(
    [
        .. new[] { ("parallel-for@4", 799.0), ("foreach-async@4", 754.0) }.Select(c =>
        {
            var ratio = evidence.Ratio(c.Item1, "channel");
            var text = $"{ClaimEvidence.Times(ratio)}: {ClaimEvidence.Time(evidence.Wall("channel"))} against " +
                $"{ClaimEvidence.Time(evidence.Wall(c.Item1))}";
            return (c.Item1, Decide.About(Quantity.Ratio($"{c.Item1} over channel, median wall time"), ratio, 12, About12x, text,
                "every item waits at once in the Channel case, four at a time at degree 4"));
        }),
    ]);

    /// <summary>foreach-async@40 over channel above half the post's effect (1.24x of its 1.47x), interval and all.</summary>
    internal static Judgement ForEachAsync40Slower(ClaimEvidence evidence)
    {
        var ratio = evidence.Ratio("foreach-async@40", "channel");
        const double published = 100.0 / 68;
        return Decide.Above(
            Quantity.Ratio("foreach-async@40 over channel, median wall time"),
            ratio,
            Band.HalfTheEffect(published),
            published,
            $"{ClaimEvidence.Times(ratio)} the Channel's time",
            "40 at a time waits in three waves where the Channel waits once",
            $"degree 40 is not {ClaimEvidence.Multiple(Band.HalfTheEffect(published))}x slower than the Channel here, half the post's " +
                $"{ClaimEvidence.Multiple(published)}x");
    }

    /// <summary>foreach-async@default over foreach-async@40 within 2/3 to 1.5 times the published 3.84x, interval and all;
    /// why, from the degree it ran at.</summary>
    internal static Judgement DefaultDegreeWorst(ClaimEvidence evidence)
    {
        var ratio = evidence.Ratio("foreach-async@default", "foreach-async@40");
        var cores = ClaimEvidence.Count(evidence.Metric("foreach-async@default", StandardMetrics.ProcessorCountSeen).Value);
        const double published = 384.0 / 100;
        return Decide.About(
            Quantity.Ratio("foreach-async@default over foreach-async@40, median wall time"),
            ratio,
            published,
            Band.Around(published, 2.0 / 3, 1.5),
            $"{ClaimEvidence.Time(evidence.Wall("foreach-async@default"))}, {ClaimEvidence.Times(ratio)} degree 40's time",
            $"the default degree is the processor count, {cores} here: items wait {cores} at a time");
    }

    /// <summary>The highest of the published cases' median peak threads below 24 (19 and a quarter: the runtime's own
    /// threads differ between versions), interval and all.</summary>
    internal static Judgement ThreadsNear19(ClaimEvidence evidence)
    {
        var top = Published.Select(v => (Variant: v, Threads: evidence.Metric(v, StandardMetrics.PeakThreads))).MaxBy(m => m.Threads.Value);
        return Decide.Below(
            new Quantity($"{top.Variant}'s peak OS threads, the most of the five", "threads"),
            top.Threads,
            24,
            19,
            $"at most {ClaimEvidence.Count(top.Threads)} threads ({top.Variant})",
            "waiting items hold no thread, and blocking ones at most the degree: far fewer threads than degree 40",
            $"{top.Variant} rose to {ClaimEvidence.Count(top.Threads)}; {evidence.Pool(top.Variant)}");
    }

    /// <summary>foreach-async@40 over channel below 1 in the note's build and in native AOT, interval and all; in one
    /// only, it holds only there.</summary>
    internal static Judgement AotForEachAsync40Wins(ClaimEvidence evidence) => Decide.Each(
        [.. new[] { (ProbeBuild.AsNoted, "the note's build"), (ProbeBuild.NativeAot, "native AOT") }.Select(b =>
        {
            var inBuild = evidence.In(b.Item1);
            var ratio = inBuild.Ratio("foreach-async@40", "channel");
            return (b.Item2, Decide.Below(
                Quantity.Ratio($"foreach-async@40 over channel in the {ProbeBuilds.Name(b.Item1)} build, median wall time"),
                ratio,
                1,
                null,
                $"{ClaimEvidence.Times(ratio)}: {ClaimEvidence.Time(inBuild.Wall("foreach-async@40"))} against " +
                    $"{ClaimEvidence.Time(inBuild.Wall("channel"))}",
                $"degree 40 finishes first: unprimed, each case pays its JIT in the region ({Jit(evidence, "channel", b.Item1)} for the " +
                    $"Channel, {Jit(evidence, "foreach-async@40", b.Item1)} for degree 40), and the Channel's PLINQ and channel code is the " +
                    $"more to compile",
                $"degree 40 waits in three waves where the Channel waits once ({Jit(evidence, "channel", b.Item1)} for the Channel, " +
                    $"{Jit(evidence, "foreach-async@40", b.Item1)} for degree 40)"));
        })],
        held => $"in {string.Join(" and ", held)}");

    /// <summary>channel in the note's build over channel in the same build untrimmed above 1.1, interval and all:
    /// PublishTrimmed the one difference.</summary>
    internal static Judgement TrimmingPenalisesTheChannel(ClaimEvidence evidence)
    {
        var trimmed = evidence.In(ProbeBuild.AsNoted).Wall("channel");
        var untrimmed = evidence.In(ProbeBuild.AsNotedUntrimmed).Wall("channel");
        var ratio = Estimate.Ratio(trimmed, untrimmed);
        return Decide.Above(
            Quantity.Ratio("channel in the note's build over the same build untrimmed, median wall time"),
            ratio,
            1.1,
            null,
            $"{ClaimEvidence.Times(ratio)}: {ClaimEvidence.Time(trimmed)} against {ClaimEvidence.Time(untrimmed)}",
            $"unprimed, the trimmed build compiles {Jit(evidence, "channel", ProbeBuild.AsNoted)} where the untrimmed one compiles " +
                $"{Jit(evidence, "channel", ProbeBuild.AsNotedUntrimmed)}: trimming rewrites the framework's assemblies without their " +
                $"ready-to-run code",
            $"trimmed, the build runs the Channel case no more than a tenth slower ({Jit(evidence, "channel", ProbeBuild.AsNoted)} against " +
                $"{Jit(evidence, "channel", ProbeBuild.AsNotedUntrimmed)} untrimmed)");
    }

    // The JIT's work in a case's region in one build, from its trials: "1,558 methods in 124 ms".
    private static string Jit(ClaimEvidence evidence, string variant, ProbeBuild build)
    {
        var methods = evidence.In(build).Values(variant, StandardMetrics.JitMethods);
        var ms = evidence.In(build).Values(variant, StandardMetrics.Jit);
        return methods.Count == 0 || ms.Count == 0
            ? "no JIT account"
            : $"{Statistics.MedianEstimate.MedianOf(methods).ToString("#,0", System.Globalization.CultureInfo.InvariantCulture)} methods in " +
                $"{ClaimEvidence.Time(Statistics.MedianEstimate.MedianOf(ms))}";
    }

    /// <summary>
    /// The Channel case's peak threads when it runs last against when it runs first, each in fresh processes: every
    /// pass with it last above every pass with it first, the medians two threads apart or more, holds (with 3 passes
    /// each, a chance of 1 in 20 under no effect); every pass with it last below, or the medians equal or the other
    /// way, does not; anything between cannot tell.
    /// </summary>
    internal static Judgement ChannelPositionMatters(ClaimEvidence evidence)
    {
        var first = evidence.Values("channel", StandardMetrics.PeakThreads);
        var lastRun = evidence.Run(ChannelLast, Workload);
        var last = lastRun.Values("channel", StandardMetrics.PeakThreads);
        if (first.Count < 3 || last.Count < 3)
        {
            return Judgement.CouldNotJudge($"{Math.Min(first.Count, last.Count)} passes in one position; a difference needs 3 in each");
        }

        var figure = $"channel first: {ClaimEvidence.Count(first.Min())}-{ClaimEvidence.Count(first.Max())} threads; last: " +
            $"{ClaimEvidence.Count(last.Min())}-{ClaimEvidence.Count(last.Max())}";
        var numbers = new ClaimFigure { Quantity = "channel's peak OS threads run last, less run first (from the closest passes to the farthest)",
            Unit = "threads", Value = last.Min() - first.Max(), Low = last.Min() - first.Max(), High = last.Max() - first.Min(),
                Trials = Math.Min(first.Count, last.Count) };
        var medians = Statistics.MedianEstimate.MedianOf(last) - Statistics.MedianEstimate.MedianOf(first);
        return last.Min() > first.Max() && medians >= PositionEffect
                ? Judgement.Holds(figure, $"run last, it inherits the threads the blocking cases made the pool add ({lastRun.Pool("channel")})")
                    .With(numbers)
            : last.Max() < first.Min()
                ? Judgement.DoesNotHold(
                    figure, "run last it has fewer threads than run first: the other way from the threads the cases before it would leave")
                    .With(numbers)
            : medians <= 0
                ? Judgement.DoesNotHold(
                    figure, medians == 0 ? "the two positions' medians are the same: no dependence on the position"
                        : "run last its median is below run first's: the other way from the threads the cases before it would leave")
                    .With(numbers)
            : last.Min() > first.Max()
                ? Judgement.CouldNotJudge(
                    figure, $"every pass with it last is above every pass with it first, but the medians are {ClaimEvidence.Count(medians)} " +
                        $"thread apart, under the {PositionEffect} a pool's thread or two of noise allows").With(numbers)
                : Judgement.CouldNotJudge(figure, "the passes in the two positions overlap: 3 of each cannot tell a small effect from none")
                    .With(numbers);
    }
}
