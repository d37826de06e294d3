using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction;

namespace ConcurrencyLab.Scenarios.Fanout;

/// <summary>
/// What the fan-out post (seeds/003) claims, and how each claim is decided. Its service made three calls to a
/// slow service (1, 1.5 and 2 s) for each of 100, then 1000, requests at once, and counted the service's threads.
/// </summary>
internal static class FanoutClaims
{
    private const string Main = "fanout";

    private static readonly string[] Published = ["waitall", "whenall-blocking", "whenall-async"];

    public static PublishedClaims All { get; } = new(
        "seeds/003: Task.WaitAll vs await Task.WhenAll vs an async client in a service calling a slow service",
        [
            new ClaimRun
            {
                Key = Main,
                Variants = [.. new[] { 100, 1000 }.SelectMany(n => Published.Select(p => $"{p}@{n}"))],
                QuickVariants = [.. Published.Select(p => $"{p}@15")],

                // The published N = 1000 took 3 min; blocking cases here can run to the 600 s request timeout.
                TrialTimeout = TimeSpan.FromSeconds(900),
                Repeat = 3,
            },
        ],
        [
            new Claim("fanout-whenall-threads", "WhenAll over blocking calls needs about half the threads of WaitAll", "63 against 121 threads at N = 100; 80 against 139 at N = 1000", [Main], WhenAllHalfTheThreads),
            new Claim("fanout-async-halves", "The async client halves the time", "21 s against 42 s at N = 100; 1:27 against 2:54 at N = 1000", [Main], AsyncHalvesTheTime),
            new Claim("fanout-largest-n", "At the largest N every pattern answers, the async client fastest and with the fewest threads", "N = 1000: WaitAll 3:08 and 139 threads, WhenAll 2:54 and 80, async client 1:27 and 53", [Main], LargestN),
        ]);

    /// <summary>whenall-blocking's service threads at most 0.65 of waitall's at each N, interval and all; at some N only, it holds only there.</summary>
    internal static Judgement WhenAllHalfTheThreads(ClaimEvidence evidence) => AtEachN(
        evidence,
        n => evidence.Ratio($"whenall-blocking@{n}", $"waitall@{n}", FanoutScenario.ServerPeakThreads),
        ratio => ratio.Below(0.65),
        n => $"{ClaimEvidence.Count(evidence.Metric($"whenall-blocking@{n}", FanoutScenario.ServerPeakThreads))} against {ClaimEvidence.Count(evidence.Metric($"waitall@{n}", FanoutScenario.ServerPeakThreads))} service threads",
        n => $"both block a pool thread per call; WaitAll also blocks the request's own (waitall@{n}: {evidence.ServicePool($"waitall@{n}")})");

    /// <summary>whenall-async's time at most 0.6 of whenall-blocking's at each N, interval and all.</summary>
    internal static Judgement AsyncHalvesTheTime(ClaimEvidence evidence) => AtEachN(
        evidence,
        n => evidence.Ratio($"whenall-async@{n}", $"whenall-blocking@{n}"),
        ratio => ratio.Below(0.6),
        n => $"{ClaimEvidence.Time(evidence.Wall($"whenall-async@{n}"))} against {ClaimEvidence.Time(evidence.Wall($"whenall-blocking@{n}"))}",
        n => $"the async calls hold no thread while they wait; the blocking ones wait for the pool to add threads ({evidence.ServicePool($"whenall-blocking@{n}")})");

    /// <summary>At the largest N: no failed request in any trial of the three, and whenall-async the fastest and the fewest service threads.</summary>
    internal static Judgement LargestN(ClaimEvidence evidence)
    {
        var n = Ns(evidence).Max();
        var rows = Published.Select(p => $"{p}@{n}").Select(v => (
            Variant: v,
            Wall: evidence.Wall(v),
            Threads: evidence.Metric(v, FanoutScenario.ServerPeakThreads).Median,
            Errors: evidence.Recorded(v, FanoutScenario.Errors).DefaultIfEmpty(0).Max())).ToList();
        var figure = $"N = {n}: " + string.Join(", ", rows.Select(r => $"{r.Variant.Split('@')[0]} {ClaimEvidence.Time(r.Wall.Median)} and {ClaimEvidence.Count(r.Threads)} threads{(r.Errors > 0 ? $", {ClaimEvidence.Count(r.Errors)} errors" : string.Empty)}"));
        var failing = rows.Where(r => r.Errors > 0).ToList();
        if (failing.Count > 0)
        {
            return Judgement.DoesNotHold(figure, $"{string.Join(" and ", failing.Select(f => f.Variant))} failed requests: {evidence.ServicePool(failing[0].Variant)} in the service");
        }

        var async = rows.Single(r => r.Variant.StartsWith("whenall-async", StringComparison.Ordinal));
        var fastest = rows.All(r => r == async || r.Wall.Low > async.Wall.High);
        var fewest = rows.All(r => r == async || r.Threads > async.Threads);
        return Judgement.If(
            fastest && fewest,
            figure,
            fastest && fewest ? "every request answered; only the async client waits without a thread" : !fastest ? "the async client is not shown the fastest" : "the async client did not use the fewest threads");
    }

    // One rule at each N the run measured: held at all, at some (named), or at none.
    private static Judgement AtEachN(ClaimEvidence evidence, Func<int, RatioEstimate> ratio, Func<RatioEstimate, bool> holds, Func<int, string> figure, Func<int, string> why)
    {
        var each = Ns(evidence).Select(n => (N: n, Ratio: ratio(n))).ToList();
        var held = each.Where(e => holds(e.Ratio)).Select(e => e.N).ToList();
        var text = string.Join("; ", each.Select(e => $"N = {e.N}: {figure(e.N)}, {e.Ratio.Times}"));
        var largest = each.Max(e => e.N);
        return held.Count == each.Count ? Judgement.Holds(text, why(largest))
            : held.Count > 0 ? Judgement.OnlyIf($"at N = {string.Join(", ", held)}", text, why(largest))
            : Judgement.DoesNotHold(text, why(largest));
    }

    // The numbers of requests the run's variants sent at once (their @N).
    private static List<int> Ns(ClaimEvidence evidence)
    {
        var ns = evidence.Result.Variants.Select(v => v.WholeNumber("requests")).OfType<int>().Distinct().Order().ToList();
        return ns.Count > 0 ? ns : throw new MissingEvidenceException("the run sent no requests", notRun: true);
    }
}
