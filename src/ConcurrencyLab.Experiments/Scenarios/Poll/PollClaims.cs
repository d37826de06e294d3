using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Statistics;

namespace ConcurrencyLab.Scenarios.Poll;

/// <summary>
/// What the polled-connections post (seeds/002) claims, and how each claim is decided. It polled 500 in-memory
/// objects every 50 ms on .NET Framework 4.5, and in two supplements made each hit cost 100 ms and 500 ms.
/// </summary>
internal static class PollClaims
{
    private const string Main = "poll";
    private const string Work100 = "poll-work-100";
    private const string Work500 = "poll-work-500";

    private static readonly string[] Published = ["threads", "threadpool", "task", "await", "parallel"];

    public static PublishedClaims All { get; } = new(
        "seeds/002: threads vs ThreadPool vs Task vs await vs Parallel polling 500 connections",
        [
            new ClaimRun { Key = Main, Variants = Published },
            new ClaimRun
            {
                Key = Work100,
                Variants = ["threadpool"],
                Parameters = new Dictionary<string, string> { ["work-ms"] = "100", ["duration"] = "30" },
                QuickParameters = new Dictionary<string, string> { ["duration"] = "12" },
                Repeat = 3,
                QuickRepeat = 1,
            },
            new ClaimRun
            {
                Key = Work500,
                Variants = ["threadpool"],
                Parameters = new Dictionary<string, string> { ["work-ms"] = "500", ["duration"] = "180" },

                // 180 s of sending and up to the 30 s drain, past the lab's 120 s default.
                TrialTimeout = TimeSpan.FromSeconds(300),
                QuickParameters = new Dictionary<string, string> { ["duration"] = "8", ["drain"] = "3" },
                Repeat = 1,
                QuickRepeat = 1,
            },
        ],
        [
            new Claim("poll-threads", "A dedicated thread per connection takes about 530 threads and the most memory", "530 threads, about 109 MB", [Main], ThreadsTakeMost),
            new Claim("poll-pool-most-polls", "Polling through the ThreadPool makes the most polls per second", "9,529/s against 8,654 (threads), 9,322 (Task), 9,387 (Parallel), 4,150 (await)", [Main], PoolPollsMost),
            new Claim("poll-await-half", "await makes about half the polls per second of the others", "4,150/s against about 9,300-9,500", [Main], AwaitAboutHalf),
            new Claim("poll-catch-up-100", "With 100 ms of work per message, the pool catches up after about 12 s with 54 threads", "12 s, 54 threads", [Work100], r => CatchesUp(r, publishedSeconds: 12)),
            new Claim("poll-catch-up-500", "With 500 ms of work per message, the pool catches up after about 150 s with 97 threads", "150 s, 97 threads", [Work500], r => CatchesUp(r, publishedSeconds: 150)),
        ]);

    /// <summary>The threads variant at no fewer threads than 90% of the connections, and the highest peak working set of the five.</summary>
    internal static Judgement ThreadsTakeMost(ClaimEvidence evidence)
    {
        var threads = evidence.Metric("threads", StandardMetrics.PeakThreads);
        var connections = evidence.Parameter("connections");
        var memory = Published.Select(v => (Variant: v, Bytes: evidence.Metric(v, StandardMetrics.PeakWorkingSet).Median)).ToList();
        var most = memory.MaxBy(m => m.Bytes);
        var figure = $"{ClaimEvidence.Count(threads)} threads, {Mb(memory.First(m => m.Variant == "threads").Bytes)} MB (next: {Mb(memory.Where(m => m.Variant != "threads").Max(m => m.Bytes))} MB)";
        var many = threads.Median >= 0.9 * connections;
        return Judgement.If(
            many && most.Variant == "threads",
            figure,
            !many ? $"fewer threads than the {ClaimEvidence.Count(connections)} connections"
                : most.Variant == "threads" ? $"one thread, and its stack, per connection" : $"{most.Variant} used more memory ({Mb(most.Bytes)} MB)");
    }

    /// <summary>
    /// The threadpool variant's polls per second above every other's, interval and all; another above it, or a tie
    /// within the intervals, does not make it the most.
    /// </summary>
    internal static Judgement PoolPollsMost(ClaimEvidence evidence)
    {
        var rates = Published.Select(v => (Variant: v, Rate: evidence.Metric(v, PollScenario.PollsPerSec))).ToList();
        var pool = rates.First(r => r.Variant == "threadpool").Rate;
        var others = rates.Where(r => r.Variant != "threadpool").ToList();
        var figure = string.Join(", ", rates.Select(r => $"{r.Variant} {Rate(r.Rate.Median)}"));
        var ceiling = 1000 / evidence.Parameter("interval-ms") * evidence.Parameter("connections");
        var atCeiling = $"every polling variant that keeps the interval sits near the ceiling of {Rate(ceiling)}/s ({ClaimEvidence.Count(evidence.Parameter("connections"))} connections every {ClaimEvidence.Count(evidence.Parameter("interval-ms"))} ms)";
        if (others.FirstOrDefault(o => o.Rate.Low > pool.High) is { Variant: { } above })
        {
            return Judgement.DoesNotHold(figure, $"{above} polled more, clear of the intervals");
        }

        var tied = others.Where(o => o.Rate.High >= pool.Low).Select(o => o.Variant).ToList();
        return tied.Count == 0
            ? Judgement.Holds(figure, atCeiling)
            : Judgement.DoesNotHold(figure, $"a tie with {string.Join(", ", tied)} within the intervals: {atCeiling}");
    }

    /// <summary>await's polls per second at most 0.6 of the threadpool variant's, interval and all.</summary>
    internal static Judgement AwaitAboutHalf(ClaimEvidence evidence)
    {
        var ratio = evidence.Ratio("await", "threadpool", PollScenario.PollsPerSec);
        return Judgement.If(
            ratio.Below(0.6),
            $"{Rate(evidence.Metric("await", PollScenario.PollsPerSec).Median)}/s, {ratio.Times} of threadpool's",
            ratio.Below(0.6) ? "each poll's continuation waits its turn in the pool's queue" : "await keeps up with the other polling variants here; the driver's yield costs it no round");
    }

    /// <summary>
    /// The threadpool variant reaching a steady state (received as fast as sent) in its median trial: holds; never,
    /// in a run that sent for at least the published catch-up time: does not; never in a shorter run: cannot tell.
    /// </summary>
    internal static Judgement CatchesUp(ClaimEvidence evidence, double publishedSeconds)
    {
        // A trial that lost messages failed, yet it measured what the claim is about: it did not catch up.
        var steady = evidence.Recorded("threadpool", PollScenario.SteadyStateMs);
        var pool = evidence.Recorded("threadpool", StandardMetrics.PeakPoolThreads) is { Count: > 0 } peaks ? MedianEstimate.Of(peaks) : throw new MissingEvidenceException("threadpool recorded no pool threads");
        if (steady.Count == 0)
        {
            throw new MissingEvidenceException("threadpool recorded no steady state");
        }

        var caughtUp = steady.Count(s => s >= 0);
        var sentFor = evidence.Parameter("duration");
        if (caughtUp * 2 > steady.Count)
        {
            var at = steady.Where(s => s >= 0).Order().ElementAt(caughtUp / 2);
            return Judgement.Holds($"after {Seconds(at)} s with pool peak {ClaimEvidence.Count(pool)}", "the pool added threads until the blocked work kept pace with the sends; when and with how many threads depends on the machine, and is the figure here");
        }

        var figure = $"not within {ClaimEvidence.Count(sentFor)} s in {steady.Count - caughtUp} of {steady.Count} trials; pool peak {ClaimEvidence.Count(pool)}";
        if (sentFor < publishedSeconds * 1.2)
        {
            throw new MissingEvidenceException($"{figure}; the run sent for {ClaimEvidence.Count(sentFor)} s, too short for a catch-up published at {ClaimEvidence.Count(publishedSeconds)} s");
        }

        var starved = evidence.Recorded("threadpool", StandardMetrics.StarvationInjections);
        return Judgement.DoesNotHold(figure, $"the pool grew too slowly for the blocked work{(starved.Count > 0 ? $": {ClaimEvidence.Count(MedianEstimate.MedianOf(starved))} starvation adds" : string.Empty)}");
    }

    private static string Mb(double bytes) => (bytes / (1024 * 1024)).ToString("0", CultureInfo.InvariantCulture);

    private static string Rate(double perSecond) => perSecond.ToString("#,0", CultureInfo.InvariantCulture);

    private static string Seconds(double ms) => (ms / 1000).ToString("0.0", CultureInfo.InvariantCulture);
}
