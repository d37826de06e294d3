using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Experiments.Scan;

/// <summary>
/// What the port-scan post claims, and how each claim is decided. It scanned 255 addresses with a 500 ms
/// connect timeout (from its code) on a 2-core and an 8-core machine, each case once, in a fixed order, in one
/// process. How long a parallel case takes depends on how fast the pool adds threads against that timeout and on how
/// many hosts there are, so the claims about those cases hold at the published 255 hosts and 500 ms only, on 2 and 8
/// cores as the runtime sees them. One host after another is the hosts' timeouts at any scale, so the claims about
/// the one-at-a-time cases are tested at the quick scale too.
/// </summary>
internal static class ScanClaims
{
    private const string OneAtATime = "scan-sequential";
    private const string Isolated = "scan";
    private const string AsPublished = "scan-as-published";

    // The pairs the post ran in both forms.
    private static readonly string[] Schedules = ["task-run", "parallel-for@default", "parallel-for@999"];

    private static readonly string[] Forms = ["apm", "tap"];

    private static readonly string[] Parallel = ["task-run-apm", "task-run-tap", "parallel-for@999-apm", "parallel-for@999-tap"];

    // One host after another at the published scale: 255 silent hosts x 500 ms is 128 s, past the lab's 120 s default.
    private static readonly TimeSpan SequentialAtFullScale = TimeSpan.FromSeconds(300);

    // The post's fleet: its one host after another took 129.6 s, about 259 timeouts of 500 ms for 256 addresses, so
    // every host it scanned waited out the timeout. The claims' runs scan a fleet as silent; the lab's default (80%
    // silent, 15% refusing at once) would shorten one host after another by a fifth and every speed-up against it.
    private static readonly Dictionary<string, string> SilentFleet = new() { ["open"] = "0", ["closed"] = "0", ["silent"] = "1" };

    // At the scenario's quick 12 hosts the cases one at a time take under a second; 32 silent hosts at the quick
    // 50 ms timeout take 1.6 s.
    private static readonly Dictionary<string, string> QuickHosts = new(SilentFleet) { ["hosts"] = "32" };

    private static readonly Requirement AsSilentAsThePost = Requirement.AtLeast("silent", 0.99);

    // The published sweep: what the parallel cases' times depend on.
    private static readonly Requirement[] PublishedScale = [Requirement.Is("hosts", "255"), Requirement.Is("timeout-ms", "500"),
        AsSilentAsThePost];

    // One host after another over every host as silent as the post's: its 129.57 s over 256 addresses x 500 ms, and
    // 134.38 s on 8 cores.
    private const double SequentialPerTimeout = 129.57 / (256 * 0.5);

    private static readonly Requirement[] OnThePublishedMachines = [.. PublishedScale, Requirement.Cores(2, 8)];

    // The published seconds, by case and by cores (2, 8).
    private static readonly Dictionary<string, (double Two, double Eight)> Seconds = new()
    {
        ["sequential-apm"] = (129.57, 134.38),
        ["sequential-tap"] = (130.48, 131.42),
        ["task-loop-tap"] = (131.33, 130.27),
        ["task-run-apm"] = (10.13, 7.39),
        ["task-run-tap"] = (6.26, 7.62),
        ["mix-and-match"] = (8.07, 6.32),
        ["parallel-for@default-apm"] = (22.58, 16.03),
        ["parallel-for@default-tap"] = (16.20, 15.30),
        ["parallel-for@999-apm"] = (8.6, 7.11),
        ["parallel-for@999-tap"] = (8.7, 7.16),
    };

    // The post's table: 5 of its 6 parallel cases were at least 5% faster on 8 cores (Task.Run with TAP was slower).
    private const int MoreCoresCases = 5;

    // A claim about more cores needs them: with DOTNET_PROCESSOR_COUNT the pool's sizing and the default degrees follow
    // the count, but the work still has the machine's own CPUs.
    private static readonly Requirement EightRealCores = Requirement.Platform(
        "8 processors or more, as the post's second machine had", m => (m.ProcessorCount >= 8,
            $"{m.ProcessorCount} processors: the runs at 8 are emulated (DOTNET_PROCESSOR_COUNT), which sizes the pool and the degrees " +
                $"as 8 cores would, not the CPUs"));

    public static PublishedClaims All { get; } = new(
        "TPL vs TAP vs APM port scan of 255 addresses (the post \"Task Parallel Library (TPL) vs Task-based Async Pattern (TAP) vs Async " +
            "Programming Model (APM)\", 2014)",
        [
            // The one-at-a-time cases alone, quick only: at full scale the as-published passes run each of them
            // (128 s a time), and running them again isolated would add 20 minutes for figures already measured.
            new ClaimRun
            {
                Key = OneAtATime,
                Variants = ["sequential-apm", "sequential-tap", "task-loop-tap"],
                QuickParameters = QuickHosts,
                Scale = RunScale.QuickOnly,
            },
            new ClaimRun
            {
                Key = Isolated,
                Variants = [.. Schedules.SelectMany(s => Forms.Select(f => $"{s}-{f}")), "mix-and-match"],
                Parameters = SilentFleet,
                Cores = [2, 8],
                Repeat = 3,
                Warmup = 0,
                Scale = RunScale.FullOnly,
            },
            new ClaimRun
            {
                Key = AsPublished,
                // In the order the post's program ran them: its test classes sorted by name (NormalControl..., Parallel...,
                // TAP...), not the order of its table, so the Parallel.For cases grew the pool before Task.Run's.
                Variants = ["sequential-apm", "sequential-tap", "parallel-for@default-apm", "parallel-for@default-tap", "parallel-for@999-apm",
                    "parallel-for@999-tap", "task-run-apm", "task-run-tap", "mix-and-match", "task-loop-tap"],
                Parameters = SilentFleet,
                Cores = [2, 8],
                AsPublished = true,
                Repeat = 3,
                TrialTimeout = SequentialAtFullScale,
                Scale = RunScale.FullOnly,
            },
        ],
        [
            new Claim("scan-sequential", "One host after another takes about the hosts times the timeout",
                "129.6 s (2 cores) and 134.4 s (8 cores) for 256 addresses with the code's 500 ms timeout: 1.01x and 1.05x of hosts x " +
                    "timeout, the lab's reading", [OneAtATime, AsPublished], SequentialTakesTheTimeouts)
            {
                Checked = "The 129.57 and 134.38 s are the table's Normal APM row and the 500 ms timeout is from the original program; " +
                    "sequential-apm blocks on BeginConnect's handle like that code, over a fleet as silent as the post's, so the rule " +
                    "compares it with all hosts times the timeout.",
                Rule = "`sequential-apm`'s median over (hosts x the run's timeout) within 0.9-1.2x of the post's 1.01x, interval and all, on a " +
                    "fleet as silent as the post's",
                Source = FigureSource.LabReading,

                // Any timeout and any number of hosts: the rule reads the run's own.
                Conditions = [Requirement.AtLeast("hosts", 1), Requirement.AtLeast("timeout-ms", 1), AsSilentAsThePost],
            },
            new Claim("scan-sequential-tap", "One host after another with TAP takes as long as with APM",
                "130.5 against 129.6 s (2 cores), 131.4 against 134.4 s (8 cores)", [OneAtATime, AsPublished], SequentialTapAsApm)
            {
                Checked = "Both times are the table's Normal rows; the original blocked on ConnectAsync().Wait(500) in a loop, the lab's " +
                    "sequential-tap awaits ConnectAsync with a CancelAfter timeout; either waits one timeout per silent host, and any host " +
                    "count or timeout is accepted, quick scale included.",
                Rule = "`sequential-tap` / `sequential-apm` within 1/1.1-1.1x",
                Source = FigureSource.Text,
            },
            new Claim("scan-task-loop", "A loop that waits for each host's task in turn takes as long as one host after another",
                "131.3 against 130.5 s (2 cores), 130.3 against 131.4 s (8 cores)", [OneAtATime, AsPublished], TaskLoopIsSequential)
            {
                Checked = "Figures from the table's Task-Based Loop and Normal TAP rows; the lab's task-loop-tap starts a Task.Run per host " +
                    "and waits on it, a shape the lab inferred from the timings rather than took from the original code, and it is compared " +
                    "with the lab's awaiting sequential-tap.",
                Rule = "`task-loop-tap` / `sequential-tap` within 1/1.1-1.1x",
                Source = FigureSource.Text,
            },
            new Claim("scan-parallel-far-faster", "Task.Run loops and Parallel.For at 999 are far faster than one host after another",
                "6.3-10.1 s against 129.6 s (2 cores), 7.1-7.6 s against 134.4 s (8 cores): 12.8-20.7x and 17.6-18.9x; 'far' is the lab's " +
                    "reading", [Isolated, AsPublished], ParallelFarFaster)
            {
                Checked = "Figures from the post's table (2 and 8 cores); the lab runs Task.Run with WaitAll and Parallel.For at 999 over " +
                    "blocking APM and TAP connects as the original did, on a fleet as silent as the post's, and needs half the post's own " +
                    "speed-up for each case.",
                Rule = "`sequential-apm` / each of `task-run-apm`, `task-run-tap`, `parallel-for@999-apm`, `parallel-for@999-tap` above half " +
                    "the post's own speed-up for that case on those cores (6.4-10.3x on 2, 8.8-9.5x on 8); any one at or below it does not hold",
                Source = FigureSource.LabReading,
                Conditions = OnThePublishedMachines,
            },
            new Claim("scan-mix-and-match", "Mix and match (4 runner tasks with sub-task runners, TAP) is far faster than one host after another",
                "8.07 s (2 cores), 6.32 s (8 cores): 16.1x and 21.3x faster; 'far' is the lab's reading", [Isolated, AsPublished],
                    MixAndMatchFarFaster)
            {
                Checked = "The 8.07 and 6.32 s are from the table, set against its Normal APM row; unlike the original, each of the lab's " +
                    "four runners waits for its own sub-tasks over a non-overlapping quarter, which the verdict depends on.",
                Rule = "`sequential-apm` / `mix-and-match` above half the post's own speed-up on those cores (8.0x on 2, 10.6x on 8)",
                Source = FigureSource.LabReading,
                Conditions = OnThePublishedMachines,
            },
            new Claim("scan-default-degree", "Parallel.For at its default degree is slower than at 999",
                "22.6 against 8.6 s with APM, 16.2 against 8.7 with TAP (2 cores); 16.0 against 7.1 and 15.3 against 7.2 (8 cores)",
                    [Isolated, AsPublished], DefaultDegreeSlower)
            {
                Checked = "Figures from the table's Parallel.For rows (labelled For Each); the lab runs Parallel.For at the default degree " +
                    "and at 999 over blocking connects like the original, and its as-published passes run in the original's order (its " +
                    "test classes by name), where the default degree came straight after one host at a time.",
                Rule = "`parallel-for@default-X` / `parallel-for@999-X` above half the post's own slowdown for that form on those cores (1.81x " +
                    "and 1.43x on 2 for APM and TAP, 1.63x and 1.57x on 8), for both forms: the post shows both slower on both machines",
                Source = FigureSource.Text,
                Conditions = OnThePublishedMachines,
            },
            new Claim("scan-tap-apm", "TAP is at least as fast as APM in every parallel schedule",
                "Task.Run 6.3 against 10.1 s, Parallel.For@999 8.7 against 8.6 s (2 cores): 'at least as fast' is the lab's reading of the table",
                    [Isolated, AsPublished], TapAsFastAsApm)
            {
                Checked = "A lab reading of the table's TAP and APM pairs; both forms block as the original did (Task.Wait with a timeout, " +
                    "or a wait on BeginConnect's handle), but .NET 10 on Linux adds pool threads fast for a blocked Task.Wait, not WaitOne, " +
                    "so TAP can win by far.",
                Rule = "every schedule's (Task.Run, Parallel.For default, 999) TAP / APM from half the post's most favourable TAP / APM for " +
                    "it (0.309x, 0.359x, 0.504x, half its 0.618x, 0.717x, 1.007x) to 1.1x: no more than a tenth slower, and not faster by far " +
                    "more than the post saw; any outside does not hold",
                Source = FigureSource.LabReading,
                Conditions = OnThePublishedMachines,
            },
            new Claim("scan-more-cores", "The more cores, the less time",
                "Task.Run APM 10.1 to 7.4 s, Parallel.For default APM 22.6 to 16.0 s, from 2 to 8 cores; yet Task.Run TAP 6.3 to 7.6 s",
                    [Isolated, AsPublished], MoreCoresLessTime)
            {
                Checked = "The sentence is in the post's text, backed by both table columns; same APIs as the original, but it needs at " +
                    "least 8 real processors, since DOTNET_PROCESSOR_COUNT only resizes the pool and default degrees; the post's two " +
                    "machines also differed in CPU and memory.",
                Rule = $"at least {MoreCoresCases} of the 6 parallel cases' median at 8 cores / at 2 below half the post's own speed-up for " +
                    "the case (0.865x, 0.913x, 0.912x, 0.855x and 0.972x; Task.Run with TAP, slower in the post, a tenth: 0.909x), as in " +
                    "the post's table; fewer: does not hold",
                Source = FigureSource.Text,
                Conditions = [.. PublishedScale, Requirement.Cores(2, 8), EightRealCores],
                PerCores = false,
            },
            new Claim("scan-avoid-apm", "Prefer TPL or TAP to APM, which will be phased out", "no figure",
                [OneAtATime, AsPublished], _ => throw new InvalidOperationException("not a measurable claim"))
            {
                Checked = "A recommendation in the post's closing text about the APIs' future, with no figure; no run can measure it, so it " +
                    "is listed and never judged.",
                Rule = "none: no run measures an API's future support",
                Source = FigureSource.Text,
                Conditions = [Requirement.Untestable(
                    "it is about the APIs' future support, which no run measures; their speed is the other claims'")],
            },
        ]);

    /// <summary>The published seconds of <paramref name="variant"/> on the machine of the slice's cores (8 when the
    /// slice is at 8, 2 otherwise).</summary>
    private static double PublishedSeconds(ClaimEvidence evidence, string variant) =>
        evidence.SliceCores == 8 ? Seconds[variant].Eight : Seconds[variant].Two;

    // One host after another, from this run, or else from the as-published run at the same processor count: one
    // connect at a time does not depend on the pool the cases before it grew.
    private static ClaimEvidence WithSequential(ClaimEvidence evidence) =>
        evidence.Has("sequential-apm") ? evidence : evidence.Run(AsPublished, PublishedScale);

    /// <summary>The sequential scan's time over the hosts times the timeout within 0.9-1.2 of the post's, interval and all.</summary>
    internal static Judgement SequentialTakesTheTimeouts(ClaimEvidence evidence)
    {
        var wall = evidence.Wall("sequential-apm");
        var hosts = evidence.Parameter("hosts");
        var timeout = evidence.Parameter("timeout-ms");
        var ratio = wall.Times(1 / (hosts * timeout));
        return Decide.About(
            Quantity.Ratio("sequential-apm's median wall time over hosts x timeout"),
            ratio,
            SequentialPerTimeout,
            Band.Around(SequentialPerTimeout, 0.9, 1.2),
            $"{ClaimEvidence.Time(wall)}, {ClaimEvidence.Times(ratio)} of {ClaimEvidence.Count(hosts)} hosts x {ClaimEvidence.Count(timeout)} ms",
            "every silent host costs one timeout, one after another");
    }

    /// <summary>sequential-tap over sequential-apm within 10% either way, interval and all.</summary>
    internal static Judgement SequentialTapAsApm(ClaimEvidence evidence)
    {
        var ratio = evidence.Ratio("sequential-tap", "sequential-apm");
        return Decide.About(Quantity.Ratio("sequential-tap over sequential-apm, median wall time"), ratio,
            1, Band.NoChange(1.1), $"TAP/APM {ClaimEvidence.Times(ratio)}", "one connect at a time waits out the same timeouts in either form");
    }

    /// <summary>task-loop-tap over sequential-tap within 10% either way, interval and all.</summary>
    internal static Judgement TaskLoopIsSequential(ClaimEvidence evidence)
    {
        var ratio = evidence.Ratio("task-loop-tap", "sequential-tap");
        return Decide.About(Quantity.Ratio("task-loop-tap over sequential-tap, median wall time"), ratio,
            1, Band.NoChange(1.1), $"{ClaimEvidence.Times(ratio)} sequential-tap's time",
                "a task started and waited for before the next is one host after another");
    }

    /// <summary>Every Task.Run and Parallel.For@999 case faster than sequential-apm by more than half the post's own
    /// speed-up for it on the slice's cores, interval and all.</summary>
    internal static Judgement ParallelFarFaster(ClaimEvidence evidence) => Decide.All(
        [.. Parallel.Select(v => (v, FasterThanSequential(evidence, v)))],
        "the silent hosts' timeouts overlap");

    /// <summary>mix-and-match faster than sequential-apm by more than half the post's own speed-up, interval and all.</summary>
    internal static Judgement MixAndMatchFarFaster(ClaimEvidence evidence) => FasterThanSequential(evidence, "mix-and-match");

    private static Judgement FasterThanSequential(ClaimEvidence evidence, string variant)
    {
        var sequential = WithSequential(evidence);
        var speedUp = Estimate.Ratio(sequential.Wall("sequential-apm"), evidence.Wall(variant));
        var published = PublishedSeconds(evidence, "sequential-apm") / PublishedSeconds(evidence, variant);
        var far = published / 2;
        return Decide.Above(
            Quantity.Ratio($"sequential-apm over {variant}, median wall time"),
            speedUp,
            far,
            published,
            $"{ClaimEvidence.Times(speedUp)} faster ({ClaimEvidence.Time(evidence.Wall(variant))})",
            "the silent hosts' timeouts overlap",
            $"not {ClaimEvidence.Multiple(far)}x faster, half the post's {ClaimEvidence.Multiple(published)}x; {evidence.Pool(variant)}");
    }

    /// <summary>parallel-for@default over parallel-for@999 above half the post's own slowdown in both forms, interval and all.</summary>
    internal static Judgement DefaultDegreeSlower(ClaimEvidence evidence) => Decide.All(
        [.. Forms.Select(f =>
        {
            var ratio = evidence.Ratio($"parallel-for@default-{f}", $"parallel-for@999-{f}");
            var published = PublishedSeconds(evidence, $"parallel-for@default-{f}") / PublishedSeconds(evidence, $"parallel-for@999-{f}");
            var slower = Band.HalfTheEffect(published);
            return (f.ToUpperInvariant(), Decide.Above(
                Quantity.Ratio($"parallel-for@default-{f} over parallel-for@999-{f}, median wall time"),
                ratio,
                slower,
                published,
                $"{ClaimEvidence.Times(ratio)} of 999's time",
                $"at the default degree the pool's injection paces the blocking connects ({evidence.Pool($"parallel-for@default-{f}")})",
                $"not {ClaimEvidence.Multiple(slower)}x slower at the default degree, half the post's {ClaimEvidence.Multiple(published)}x " +
                    $"({evidence.Pool($"parallel-for@default-{f}")})"));
        })]);

    /// <summary>Every parallel schedule's TAP over APM from half the post's most favourable ratio for it to 1.1, interval
    /// and all: no more than a tenth slower, and not far faster than anything the post saw.</summary>
    internal static Judgement TapAsFastAsApm(ClaimEvidence evidence) => Decide.All(
        [.. Schedules.Select(s =>
        {
            var ratio = evidence.Ratio(s + "-tap", s + "-apm");
            var published = PublishedSeconds(evidence, s + "-tap") / PublishedSeconds(evidence, s + "-apm");
            var mostFavourable = Math.Min(Seconds[s + "-tap"].Two / Seconds[s + "-apm"].Two, Seconds[s + "-tap"].Eight / Seconds[s + "-apm"].Eight);
            return (s, Decide.About(
                Quantity.Ratio($"{s}-tap over {s}-apm, median wall time"),
                ratio,
                published,
                new Band(mostFavourable / 2, 1.1),
                $"TAP/APM {ClaimEvidence.Times(ratio)}",
                "TAP is no more than a tenth slower, and no faster than the post's table allows"));
        })]);

    /// <summary>At least 5 of the 6 parallel cases faster at 8 cores than at 2 by half the post's own speed-up for the case
    /// (a tenth where the post's was slower), interval and all, as the post's table had.</summary>
    internal static Judgement MoreCoresLessTime(ClaimEvidence evidence)
    {
        if (!evidence.Cores.Contains(2) || !evidence.Cores.Contains(8))
        {
            throw new MissingEvidenceException("the run did not compare 2 and 8 cores", notRun: true);
        }

        var variants = Parallel.Concat(["parallel-for@default-apm", "parallel-for@default-tap"]).ToList();
        var why = $"8 cores are emulated on {evidence.Machine.ProcessorCount}: the runtime's pool minimum and degrees follow the count, not the CPUs";
        return Decide.Most(
            [.. variants.Select(v =>
            {
                var ratio = Estimate.Ratio(evidence.At(8).Wall(v), evidence.At(2).Wall(v));
                var published = Seconds[v].Eight / Seconds[v].Two;
                var faster = published < 1 ? Band.HalfTheEffect(published) : 1 / 1.1;
                return (v, Decide.Below(
                    Quantity.Ratio($"{v} at 8 cores over at 2, median wall time"),
                    ratio,
                    faster,
                    Seconds[v].Eight / Seconds[v].Two,
                    $"{ClaimEvidence.Times(ratio)} the time at 8 cores",
                    $"{why}; at 2 {evidence.At(2).Pool(v)}, at 8 {evidence.At(8).Pool(v)}",
                    $"not below {ClaimEvidence.Multiple(faster)}x with 8; at 2 {evidence.At(2).Pool(v)}, at 8 {evidence.At(8).Pool(v)}"));
            })],
            MoreCoresCases,
            "more cores, less time in most cases");
    }
}
