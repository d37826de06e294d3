using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction;

namespace ConcurrencyLab.Scenarios.Delay;

/// <summary>
/// What the delayed-items post (seeds/001) claims, and how each claim is decided. It ran 100 items on 8 cores,
/// each case once, in a fixed order, in one process, with Task.Delay; the runs here are on 2 and 8 cores as the
/// runtime sees them, isolated and as published (Task.Delay too), and once more with the Channel case last.
/// </summary>
internal static class DelayClaims
{
    private const string Isolated = "delay";
    private const string AsPublished = "delay-as-published";
    private const string ChannelLast = "delay-channel-last";

    private static readonly string[] Published = ["channel", "parallel-for@4", "foreach-async@4", "foreach-async@40", "foreach-async@default"];

    // The published 100 items at every scale: at the quick 40, degree 40 would take every item at once.
    private static readonly Dictionary<string, string> Items = new() { ["items"] = "100" };

    private static readonly Dictionary<string, string> PublishedTimer = new(Items) { ["timer"] = "task-delay" };

    public static PublishedClaims All { get; } = new(
        "seeds/001: Channels vs Parallel.ForEachAsync on 100 delayed items",
        [
            new ClaimRun { Key = Isolated, Variants = Published, Cores = [2, 8], Parameters = Items },
            new ClaimRun { Key = AsPublished, Variants = Published, Cores = [2, 8], AsPublished = true, Parameters = PublishedTimer },
            new ClaimRun { Key = ChannelLast, Variants = [.. Published.Skip(1), Published[0]], Cores = [2, 8], AsPublished = true, Parameters = PublishedTimer },
        ],
        [
            new Claim("delay-channel-12x", "A Channel is about 12x faster than Parallel.For at degree 4", "68 ms against 799 ms: 11.8x (8 cores)", [Isolated, AsPublished], ChannelAbout12x),
            new Claim("delay-foreach-async-40", "Parallel.ForEachAsync at degree 40 is slower than the Channel", "100 ms against 68 ms (8 cores)", [Isolated, AsPublished], ForEachAsync40Slower),
            new Claim("delay-default-degree", "ForEachAsync's default degree is the worst of both worlds: not throttled on purpose, yet slow", "384 ms, against 100 ms at degree 40 (8 cores)", [Isolated, AsPublished], DefaultDegreeWorst),
            new Claim("delay-threads-19", "The thread count never rises above 19", "8 threads at the start, 19 at the end (8 cores)", [Isolated, AsPublished], ThreadsNeverAbove19),
            new Claim("delay-channel-position", "The Channel case's thread count depends on its position in the run", "no figure: run it last and see (8 cores)", [AsPublished], ChannelPositionMatters),
        ]);

    /// <summary>parallel-for@4 over channel at least 6x (half the published multiple), interval and all.</summary>
    internal static Judgement ChannelAbout12x(ClaimEvidence evidence)
    {
        var ratio = evidence.Ratio("parallel-for@4", "channel");
        var figure = $"{ratio.Times}: {ClaimEvidence.Time(evidence.Wall("channel"))} against {ClaimEvidence.Time(evidence.Wall("parallel-for@4"))}";
        return ratio.Above(6) ? Judgement.Holds(figure, "every item waits at once in the Channel case, four at a time in Parallel.For@4")
            : ratio.Above(1) ? Judgement.DoesNotHold(figure, "the Channel is faster, but not by about 12x")
            : Judgement.DoesNotHold(figure, "the Channel is not shown faster");
    }

    /// <summary>foreach-async@40 slower than channel, interval and all.</summary>
    internal static Judgement ForEachAsync40Slower(ClaimEvidence evidence)
    {
        // With 40 items or fewer, degree 40 takes every item at once: no test of the claim.
        if (evidence.Result.Parameters.TryGetValue("items", out _) && evidence.Parameter("items") <= 40)
        {
            throw new MissingEvidenceException("at 40 items or fewer degree 40 takes every item at once", notRun: true);
        }

        var ratio = evidence.Ratio("foreach-async@40", "channel");
        return Judgement.If(
            ratio.Above(1),
            $"{ratio.Times} the Channel's time",
            ratio.Above(1) ? "40 at a time waits in three waves where the Channel waits once" : "not shown slower than the Channel");
    }

    /// <summary>foreach-async@default slower than foreach-async@40, interval and all; why, from the degree it ran at.</summary>
    internal static Judgement DefaultDegreeWorst(ClaimEvidence evidence)
    {
        var ratio = evidence.Ratio("foreach-async@default", "foreach-async@40");
        var cores = evidence.Metric("foreach-async@default", StandardMetrics.ProcessorCountSeen).Median;
        return Judgement.If(
            ratio.Above(1),
            $"{ClaimEvidence.Time(evidence.Wall("foreach-async@default"))}, {ratio.Times} degree 40's time",
            $"the default degree is the processor count, {ClaimEvidence.Count(cores)} here: items wait {ClaimEvidence.Count(cores)} at a time{(ratio.Above(1) ? string.Empty : ", yet it was not shown slower than degree 40")}");
    }

    /// <summary>No trial of the published variants above 19 threads.</summary>
    internal static Judgement ThreadsNeverAbove19(ClaimEvidence evidence)
    {
        var most = Published.Select(v => (Variant: v, Threads: evidence.Values(v, StandardMetrics.PeakThreads).DefaultIfEmpty(double.NaN).Max())).ToList();
        if (most.Any(m => double.IsNaN(m.Threads)))
        {
            throw new MissingEvidenceException($"{most.First(m => double.IsNaN(m.Threads)).Variant} recorded no thread count");
        }

        var top = most.MaxBy(m => m.Threads);
        return Judgement.If(
            top.Threads <= 19,
            $"at most {ClaimEvidence.Count(top.Threads)} threads ({top.Variant})",
            top.Threads <= 19 ? "waiting items hold no thread, and blocking ones at most the degree" : $"{top.Variant} rose to {ClaimEvidence.Count(top.Threads)}; {evidence.Pool(top.Variant)}");
    }

    /// <summary>
    /// The Channel case's peak threads when it runs last against when it runs first, each in fresh processes:
    /// every pass with it last above every pass with it first, the direction the post points to (with 3 passes
    /// each, a chance of 1 in 20 under no effect).
    /// </summary>
    internal static Judgement ChannelPositionMatters(ClaimEvidence evidence)
    {
        var first = evidence.Values("channel", StandardMetrics.PeakThreads);
        var last = evidence.Run(ChannelLast).Values("channel", StandardMetrics.PeakThreads);
        if (first.Count < 3 || last.Count < 3)
        {
            throw new MissingEvidenceException($"{Math.Min(first.Count, last.Count)} passes in one position; a difference needs 3 in each");
        }

        var figure = $"channel first: {ClaimEvidence.Count(first.Min())}-{ClaimEvidence.Count(first.Max())} threads; last: {ClaimEvidence.Count(last.Min())}-{ClaimEvidence.Count(last.Max())}";
        var apart = last.Min() > first.Max();
        return Judgement.If(
            apart,
            figure,
            apart ? $"run last, it inherits the threads the blocking cases made the pool add ({evidence.Run(ChannelLast).Pool("channel")})" : "not every pass with it last has more threads than every pass with it first");
    }
}
