using System.Globalization;
using ConcurrencyLab.Reproduction;

namespace ConcurrencyLab.Scenarios.Scan;

/// <summary>
/// What the port-scan post (seeds/000) claims, and how each claim is decided. It ran 255 hosts on a 2-core and
/// an 8-core machine, each case once, in a fixed order, in one process; so the runs here are on 2 and 8 cores as
/// the runtime sees them, isolated and as published.
/// </summary>
internal static class ScanClaims
{
    private const string Isolated = "scan";
    private const string AsPublished = "scan-as-published";

    // The pairs the post ran in both forms.
    private static readonly string[] Schedules = ["sequential", "task-run", "parallel-for@default", "parallel-for@999"];

    private static readonly string[] Forms = ["apm", "tap"];

    // At the scenario's quick 12 hosts, nine of them silent, no schedule could be more than nine times faster than
    // one host after another: too few to show "far faster". 32 hosts at the quick 50 ms timeout still take 1.3 s.
    private static readonly Dictionary<string, string> QuickHosts = new() { ["hosts"] = "32" };

    // One host after another at full scale: 204 silent hosts x 500 ms is 102 s, close to the lab's 120 s default.
    private static readonly TimeSpan SequentialAtFullScale = TimeSpan.FromSeconds(300);

    private static readonly string[] Parallel = ["task-run-apm", "task-run-tap", "parallel-for@999-apm", "parallel-for@999-tap"];

    public static PublishedClaims All { get; } = new(
        "seeds/000: TPL vs TAP vs APM port scan of 255 addresses",
        [
            new ClaimRun
            {
                Key = Isolated,
                Variants = [.. Schedules.SelectMany(s => new[] { s + "-apm", s + "-tap" })],
                Cores = [2, 8],
                QuickParameters = QuickHosts,
                Repeat = 3,
                TrialTimeout = SequentialAtFullScale,
            },
            new ClaimRun
            {
                Key = AsPublished,
                Variants = ["sequential-apm", "sequential-tap", "task-loop-tap", "task-run-apm", "task-run-tap", "mix-and-match", "parallel-for@default-apm", "parallel-for@default-tap", "parallel-for@999-apm", "parallel-for@999-tap"],
                Cores = [2, 8],
                AsPublished = true,
                QuickParameters = QuickHosts,
                Repeat = 3,
                TrialTimeout = SequentialAtFullScale,
            },
        ],
        [
            new Claim("scan-sequential", "One host after another takes about the hosts times the timeout", "129.6 s for 255 hosts at 500 ms (2 cores), 134.4 s (8 cores)", [Isolated, AsPublished], SequentialTakesTheTimeouts),
            new Claim("scan-parallel-far-faster", "Task.Run loops and Parallel.For at 999 are far faster than one host after another", "6.3-10.1 s against 129.6 s (2 cores)", [Isolated, AsPublished], ParallelFarFaster),
            new Claim("scan-default-degree", "Parallel.For at its default degree is slower than at 999", "22.6 s against 8.6 s with APM, 16.2 against 8.7 with TAP (2 cores)", [Isolated, AsPublished], DefaultDegreeSlower),
            new Claim("scan-tap-apm", "TAP is at least as fast as APM", "130.5 against 129.6 s in turn, 6.3 against 10.1 s with Task.Run, 8.7 against 8.6 s at 999 (2 cores)", [Isolated, AsPublished], TapAsFastAsApm),
            new Claim("scan-more-cores", "The more cores, the less time", "Task.Run APM 10.1 to 7.4 s, Parallel.For default APM 22.6 to 16.0 s, from 2 to 8 cores", [Isolated, AsPublished], MoreCoresLessTime) { PerCores = false },
        ]);

    /// <summary>The sequential scan's time over the silent hosts times the timeout: between 0.9 and 1.3, interval and all.</summary>
    internal static Judgement SequentialTakesTheTimeouts(ClaimEvidence evidence)
    {
        var wall = evidence.Wall("sequential-apm");
        var silent = evidence.Metric("sequential-apm", ScanScenario.FoundSilent).Median;
        var timeout = evidence.Parameter("timeout-ms");
        if (silent <= 0)
        {
            throw new MissingEvidenceException("sequential-apm found no silent host, so there is no timeout to wait for");
        }

        var expected = silent * timeout;
        var low = wall.Low / expected;
        var high = wall.High / expected;
        var figure = $"{ClaimEvidence.Time(wall)}, {Ratio(wall.Median / expected)}x of {ClaimEvidence.Count(silent)} silent hosts x {ClaimEvidence.Count(timeout)} ms";
        return Judgement.If(
            low >= 0.9 && high <= 1.3,
            figure,
            low >= 0.9 && high <= 1.3
                ? "each silent host costs one timeout and the hosts that answer next to nothing"
                : $"the time is {Ratio(low)}-{Ratio(high)}x the timeouts, outside 0.9-1.3");
    }

    /// <summary>Every Task.Run and Parallel.For@999 variant at least 3 times faster than sequential-apm, interval and all.</summary>
    internal static Judgement ParallelFarFaster(ClaimEvidence evidence)
    {
        var speedUps = Parallel.Select(v => (Variant: v, SpeedUp: evidence.Ratio("sequential-apm", v))).ToList();
        var slowest = speedUps.MinBy(s => s.SpeedUp.Low);
        var figure = $"{string.Join(", ", speedUps.Select(s => $"{s.Variant} {s.SpeedUp.Times}"))} faster";
        return Judgement.If(
            speedUps.All(s => s.SpeedUp.Above(3)),
            figure,
            speedUps.All(s => s.SpeedUp.Above(3))
                ? $"the silent hosts' timeouts overlap; the least, {slowest.Variant}, is at least {slowest.SpeedUp.Low.ToString("0.0", CultureInfo.InvariantCulture)}x faster"
                : $"{slowest.Variant} is not shown 3x faster ({slowest.SpeedUp.Times}); {evidence.Pool(slowest.Variant)}");
    }

    /// <summary>parallel-for@default slower than parallel-for@999 in each form, interval and all; in one form only, it holds only there.</summary>
    internal static Judgement DefaultDegreeSlower(ClaimEvidence evidence)
    {
        var forms = Forms.Select(f => (Form: f, Ratio: evidence.Ratio($"parallel-for@default-{f}", $"parallel-for@999-{f}"))).ToList();
        var slower = forms.Where(f => f.Ratio.Above(1)).Select(f => f.Form.ToUpperInvariant()).ToList();
        var figure = string.Join(", ", forms.Select(f => $"{f.Form.ToUpperInvariant()} {f.Ratio.Times} of 999's time"));
        var why = $"at the default degree the pool's injection paces the blocking connects ({evidence.Pool("parallel-for@default-apm")})";
        return slower.Count switch
        {
            2 => Judgement.Holds(figure, why),
            1 => Judgement.OnlyIf($"with {slower[0]}", figure, why),
            _ => Judgement.DoesNotHold(figure, $"neither form is shown slower at the default degree ({evidence.Pool("parallel-for@default-apm")})"),
        };
    }

    /// <summary>
    /// Every schedule's TAP/APM at most 1.10, interval and all: at least as fast, within 10%. One shown more than 5%
    /// slower: does not hold. Otherwise the trials are too spread to tell.
    /// </summary>
    internal static Judgement TapAsFastAsApm(ClaimEvidence evidence)
    {
        var pairs = Schedules.Select(s => (Schedule: s, Ratio: evidence.Ratio(s + "-tap", s + "-apm"))).ToList();
        var slower = pairs.Where(p => p.Ratio.Above(1.05)).Select(p => p.Schedule).ToList();
        var figure = "TAP/APM " + string.Join(", ", pairs.Select(p => $"{p.Schedule} {p.Ratio.Times}"));
        return slower.Count > 0 ? Judgement.DoesNotHold(figure, $"TAP is slower with {string.Join(" and ", slower)}")
            : pairs.All(p => p.Ratio.High <= 1.1) ? Judgement.Holds(figure, "no schedule's TAP is more than 10% slower, interval and all")
            : throw new MissingEvidenceException($"{figure}: the trials are too spread to tell TAP from 10% slower");
    }

    /// <summary>Every parallel variant at least 5% faster with 8 cores than with 2, interval and all; some only, it holds only for those.</summary>
    internal static Judgement MoreCoresLessTime(ClaimEvidence evidence)
    {
        if (!evidence.Cores.Contains(2) || !evidence.Cores.Contains(8))
        {
            throw new MissingEvidenceException("the run did not compare 2 and 8 cores", notRun: true);
        }

        var variants = Parallel.Concat(["parallel-for@default-apm", "parallel-for@default-tap"]).ToList();
        var ratios = variants.Select(v => (Variant: v, Ratio: RatioEstimate.Of(evidence.At(8).Wall(v), evidence.At(2).Wall(v)))).ToList();
        var faster = ratios.Where(r => r.Ratio.Below(0.95)).Select(r => r.Variant).ToList();
        var figure = "8 over 2 cores: " + string.Join(", ", ratios.Select(r => $"{r.Variant} {r.Ratio.Times}"));
        var why = $"8 cores are emulated on {Environment.ProcessorCount}: the runtime's pool minimum and degrees follow the count, not the CPUs; parallel-for@default-apm {evidence.At(2).Pool("parallel-for@default-apm")} at 2, {evidence.At(8).Pool("parallel-for@default-apm")} at 8";
        return faster.Count == variants.Count ? Judgement.Holds(figure, why)
            : faster.Count > 0 ? Judgement.OnlyIf($"for {string.Join(", ", faster)}", figure, why)
            : Judgement.DoesNotHold(figure, why);
    }

    private static string Ratio(double value) => value.ToString("0.00", CultureInfo.InvariantCulture);
}
