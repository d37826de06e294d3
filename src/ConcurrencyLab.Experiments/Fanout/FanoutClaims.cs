using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reproduction.Claims;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Experiments.Fanout;

/// <summary>
/// What the fan-out post claims, and how each claim is decided. Its service made three calls to a slow
/// service (1, 1.5 and 2 s) for each of 100, then 1000, requests sent at once, and counted the service's threads;
/// its figures are in the text. How many threads a blocking service needs, and how long it takes, depends on how
/// fast the pool adds threads against those delays, so every claim holds at the published delays (time scale 1)
/// and at the published N only.
/// </summary>
internal static class FanoutClaims
{
    private const string OneRequest = "fanout-one-request";
    private const string Main = "fanout";
    private const string Thousand = "fanout-1000";
    private const string ThousandAsync = "fanout-1000-async";

    private static readonly string[] Published = ["waitall", "whenall-blocking", "whenall-async"];

    // The published delays, unscaled, at any scale.
    private static readonly Dictionary<string, string> PublishedDelays = new() { ["time-scale"] = "1", ["delays"] = "1500,2000,1000" };

    // The published delays, and the product service's pool as the runtime starts it (its minimum not raised).
    private static readonly Requirement[] Delays = [Requirement.Is("time-scale", "1"), Requirement.Is("delays", "1500,2000,1000"),
        Requirement.Is("min-threads", "0")];

    private static readonly Requirement[] AtPublishedN = [.. Delays, Requirement.Variants("requests", 100, 1000)];

    // The published figures by N: seconds, then threads, for WaitAll, WhenAll over blocking calls, and the async client.
    private static readonly Dictionary<int,
        (double WaitAll, double WhenAll, double Async)> PublishedSeconds = new() { [100] = (43, 42, 21), [1000] = (188, 174, 87) };

    private static readonly Dictionary<int,
        (double WaitAll, double WhenAll, double Async)> PublishedThreads = new() { [100] = (121, 63, 54), [1000] = (139, 80, 53) };

    public static PublishedClaims All { get; } = new(
        "Task.WaitAll vs await Task.WhenAll vs an async client in a service calling a slow service (the post \"The Power of Async\")",
        [
            new ClaimRun { Key = OneRequest, Variants = ["sequential@1", "waitall@1"], Parameters = PublishedDelays, Repeat = 3, QuickRepeat = 3 },
            new ClaimRun
            {
                Key = Main,
                Variants = [.. Published.Select(p => $"{p}@100")],
                Parameters = PublishedDelays,

                // The blocking cases at N = 100 take about a minute on 2 cores; the request timeout is 600 s.
                TrialTimeout = TimeSpan.FromSeconds(900),
                Repeat = 3,
                Scale = RunScale.FullOnly,
            },
            new ClaimRun
            {
                // The three trials a rule needs to hold, as at N = 100: with one, the N = 1000 claims could only fail or
                // go unjudged. The blocking cases run to the 600 s request timeout here, so this run is most of a full
                // reproduction's time.
                Key = Thousand,
                Variants = [.. Published.Select(p => $"{p}@1000")],
                Parameters = PublishedDelays,
                TrialTimeout = TimeSpan.FromSeconds(900),
                Repeat = 3,
                Warmup = 0,
                Scale = RunScale.FullOnly,
            },
            new ClaimRun { Key = ThousandAsync, Variants = ["whenall-async@1000"], Parameters = PublishedDelays, Repeat = 3,
                Scale = RunScale.FullOnly },
        ],
        [
            new Claim("fanout-sequential", "Three calls one after another take about 4.5 s", "4.5 s", [OneRequest], OneAfterAnother)
            {
                Checked = "The 4.5 s is the post's own sum of the three delays, never measured there; the lab times sequential@1, three " +
                    "HTTP calls in turn to an external service that awaits a timer instead of Thread.Sleep, which does not matter for one " +
                    "request; set-up as published.",
                Rule = "`sequential@1`'s median within 4.05-5.6 s (0.9 to 1.25 times 4.5 s)",
                Conditions = [.. Delays, Requirement.Variants("requests", 1)],
            },
            new Claim("fanout-parallel", "With the three calls in parallel, a request takes about 2 s: its slowest call", "about two seconds",
                [OneRequest], InParallel)
            {
                Checked = "About two seconds is in the text; the lab's waitall@1 runs three Task.Run blocking HTTP calls joined by " +
                    "Task.WaitAll, matching the post's started Tasks and WCF clients in shape; set-up as published for a single request.",
                Rule = "`waitall@1`'s median within 1.8-2.5 s (0.9 to 1.25 times 2 s)",
                Conditions = [.. Delays, Requirement.Variants("requests", 1)],
            },
            new Claim("fanout-threads-as-published", "The service peaks at the post's thread counts for each pattern",
                "121, 63 and 54 threads at N = 100; 139, 80 and 53 at N = 1000, for WaitAll, WhenAll over blocking calls and the " +
                    "async client", [Main, Thousand], ThreadsAsPublished)
            {
                Checked = "All six counts are in the post's table; the post read iisexpress's maximum in Task Manager, which holds IIS " +
                    "Express's own threads, on a machine whose cores it does not give; the lab counts its Kestrel product service's OS " +
                    "threads on .NET 10, whose pool adds threads for blocking calls sooner than .NET Framework 4.5's.",
                Rule = "each pattern's median peak service threads within 2/3 to 1.5 times its published count, at each N",
                Conditions = AtPublishedN,
            },
            new Claim("fanout-times-as-published", "Each pattern takes the post's time for all its requests",
                "43, 42 and 21 s at N = 100; 3:08, 2:54 and 1:27 at N = 1000, for WaitAll, WhenAll over blocking calls and the " +
                    "async client", [Main, Thousand], TimesAsPublished)
            {
                Checked = "All six times are in the post's table and the text; the post's external service slept a thread per call in " +
                    "the same IIS Express, so its times include that service's own wait for threads, where the lab's external service " +
                    "waits on a timer; requests sent at once by a client as in the post.",
                Rule = "each pattern's median wall time within 2/3 to 1.5 times its published time, at each N; a pattern that left " +
                    "requests unanswered is a bound: past the band, does not hold; otherwise could not be judged",
                Conditions = AtPublishedN,
            },
            new Claim("fanout-whenall-threads", "WhenAll over blocking calls needs about half the threads of WaitAll",
                "63 against 121 threads at N = 100; 80 against 139 at N = 1000", [Main, Thousand], WhenAllHalfTheThreads)
            {
                Checked = "Counts from the post's table and text; the lab blocks three Task.Run HTTP calls joined by WaitAll or await " +
                    "WhenAll, as the post's WCF code did, but counts its Kestrel product service's OS threads, where the post read " +
                    "iisexpress's maximum in Task Manager, a different baseline.",
                Rule = "`whenall-blocking@N` / `waitall@N` service threads within 2/3 to 1.5 times the published ratio (0.52 at N = 100, " +
                    "0.58 at 1000), at each N",
                Conditions = AtPublishedN,
            },
            new Claim("fanout-whenall-time", "WhenAll over blocking calls takes about as long as WaitAll",
                "42 against 43 s at N = 100; 2:54 against 3:08 at N = 1000", [Main, Thousand], WhenAllSameTime)
            {
                Checked = "Times from the post's table at N 100 and 1000; same WaitAll and WhenAll shapes over blocking calls, but at N " +
                    "1000 the lab's blocking patterns can hit its 600 s request timeout, and such a cut-off time is not judged; pool growth " +
                    "follows this machine's cores.",
                Rule = "`whenall-blocking@N` / `waitall@N` median within 1/1.25-1.25x, at each N; whenall-blocking leaving requests " +
                    "unanswered where waitall did not: does not hold; waitall's, or both: could not be judged (a time cut by the timeout)",
                Conditions = AtPublishedN,
            },
            new Claim("fanout-async-halves", "The async client halves the time", "21 s against 42 s at N = 100; 1:27 against 2:54 at N = 1000",
                [Main, Thousand], AsyncHalvesTheTime)
            {
                Checked = "The 21 s and twice as fast are in the text, 1:27 in the table; the lab uses GetStringAsync and await WhenAll, " +
                    "not WCF async proxies with ContinueWith, and its external service holds no thread while waiting, unlike the post's " +
                    "Thread.Sleep, so async finishes near 2 s.",
                Rule = "`whenall-async@N` / `whenall-blocking@N` median within 0.33-0.75x (2/3 to 1.5 times 0.5), at each N; the async " +
                    "client leaving requests unanswered: does not hold; the blocking one's: could not be judged (a time cut by the timeout)",
                Conditions = AtPublishedN,
            },
            new Claim("fanout-async-fewer-threads", "The async client needs fewer threads than WhenAll over blocking calls",
                "54 against 63 at N = 100; 53 against 80 at N = 1000", [Main, Thousand], AsyncFewerThreads)
            {
                Checked = "Counts from the post's table at both N; the async client uses GetStringAsync rather than WCF's generated async " +
                    "calls, and the lab counts threads of its own Kestrel service on .NET 10, not the iisexpress process the post watched.",
                Rule = "`whenall-async@N` / `whenall-blocking@N` service threads below half the post's effect at each N (0.929x of its 0.857x " +
                    "at N = 100, 0.831x of its 0.663x at 1000)",
                Conditions = AtPublishedN,
            },
            new Claim("fanout-async-flat", "The async client's threads stay flat from N = 100 to N = 1000",
                "54 and 53 threads; 'flat' is the lab's reading", [Main], AsyncThreadsFlat)
            {
                Checked = "The 54 and 53 threads are from the table, and flat is the lab's reading; same async client as in the other " +
                    "claims, but on the lab service's much smaller thread baseline a handful of extra threads can break the 1.25x band.",
                Source = FigureSource.LabReading,
                Rule = "`whenall-async@1000` / `whenall-async@100` service threads within 1/1.25-1.25x",
                Conditions = [.. Delays, Requirement.Variants("requests", 100, 1000)],
            },
            new Claim("fanout-time-grows", "Ten times the requests take about four times as long, whatever the pattern",
                "43 s to 3:08 (4.37x) for WaitAll, 42 s to 2:54 (4.14x) for WhenAll, 21 s to 1:27 (4.14x) for the async client, " +
                    "from N = 100 to 1000", [Main], TimeGrowsWithN)
            {
                Checked = "All six times are in the post's results table; the lab's three patterns call the slow service as the post's " +
                    "code did, but the lab's slow service waits on a timer where the post's blocked a thread per call, which bears on " +
                    "how the async client's time grows.",
                Rule = "each pattern's median at N = 1000 / at N = 100 within 2/3 to 1.5 times its published growth (2.91-6.56x for " +
                    "WaitAll, 2.76-6.21x for the others); a pattern that left requests unanswered at N = 1000 is a bound: past the band, " +
                    "does not hold; otherwise could not be judged",
                Conditions = [.. Delays, Requirement.Variants("requests", 100, 1000)],
            },
            new Claim("fanout-1000-answers", "At N = 1000 every pattern answers every request",
                "3:08, 2:54 and 1:27 for all 1000: the lab's reading of the table, which times every pattern to its end", [Thousand],
                    EveryRequestAnswered)
            {
                Checked = "A lab reading of the N 1000 table, which times every pattern to its end; the patterns are the post's, but the " +
                    "lab's own limits, 100 s per external call and 600 s per request, decide whether a slow blocking pattern counts as " +
                    "leaving requests unanswered.",
                Source = FigureSource.LabReading,
                Rule = "no failed request in at least 3 ok trials of each of the three at N = 1000; a failed request in any trial: does not hold",
                Conditions = [.. Delays, Requirement.Variants("requests", 1000)],
            },
            new Claim("fanout-waitall-adds", "WaitAll blocks the request's thread, and the pool adds threads to make up for it", "no figure",
                [Main], WaitAllMakesThePoolAdd)
            {
                Checked = "The mechanism is explained in the text without a figure; the lab reads the product service's runtime events for " +
                    "threads added for blocking or starvation in every waitall@100 trial, and with 100 requests each blocking four threads " +
                    "any default pool must add some; set-up as published.",
                Rule = "the service's pool added at least one thread for blocking or starvation in every `waitall@100` trial (its runtime " +
                    "account); in none: does not hold",
                Conditions = [.. Delays, Requirement.Variants("requests", 100)],
            },
        ]);

    /// <summary>sequential@1's time within 0.9-1.25 times 4.5 s, interval and all.</summary>
    internal static Judgement OneAfterAnother(ClaimEvidence evidence)
    {
        var wall = evidence.Wall("sequential@1");
        return Decide.About(new Quantity("sequential@1's median wall time", "ms"), wall,
            4500, Band.Around(4500, 0.9, 1.25), ClaimEvidence.Time(wall), "the three delays add up: 1.5 + 2 + 1 s");
    }

    /// <summary>waitall@1's time within 0.9-1.25 times 2 s, interval and all.</summary>
    internal static Judgement InParallel(ClaimEvidence evidence)
    {
        var wall = evidence.Wall("waitall@1");
        return Decide.About(new Quantity("waitall@1's median wall time", "ms"), wall, 2000, Band.Around(2000, 0.9, 1.25), ClaimEvidence.Time(wall),
            "the three calls wait at once, so the slowest sets the time");
    }

    /// <summary>Each pattern's peak service threads within 2/3-1.5 times its published count at each N, interval and all.</summary>
    internal static Judgement ThreadsAsPublished(ClaimEvidence evidence) => AtEachN(evidence, n => Decide.All(
    [
        .. Patterns(PublishedThreads[n]).Select(p =>
        {
            var threads = evidence.Metric($"{p.Family}@{n}", FanoutScenario.ServerPeakThreads);
            return (p.Family, Decide.About(
                new Quantity($"{p.Family}@{n}'s peak service threads", "threads"),
                threads,
                p.Published,
                Band.Around(p.Published, 2.0 / 3, 1.5),
                $"{ClaimEvidence.Count(threads)} service threads",
                $"the pool grew as the post's did ({evidence.ServicePool($"{p.Family}@{n}")})"));
        }),
    ]));

    /// <summary>Each pattern's time within 2/3-1.5 times its published time at each N, interval and all; a time cut off by
    /// the request timeout is a bound from below.</summary>
    internal static Judgement TimesAsPublished(ClaimEvidence evidence) => AtEachN(evidence, n => Decide.All(
    [
        .. Patterns(PublishedSeconds[n]).Select(p =>
        {
            var variant = $"{p.Family}@{n}";
            var publishedMs = p.Published * 1000;
            var band = Band.Around(publishedMs, 2.0 / 3, 1.5);
            var wall = evidence.Wall(variant);
            if (FailedRequests(evidence, variant) is > 0 and var failed)
            {
                return (p.Family, CutOff(
                    $"{variant} left {ClaimEvidence.Count(failed)} requests unanswered at {ClaimEvidence.Time(wall)}",
                    wall.Low > band.High,
                    ClaimEvidence.Time(band.High)));
            }

            return (p.Family, Decide.About(
                new Quantity($"{variant}'s median wall time", "ms"),
                wall,
                publishedMs,
                band,
                ClaimEvidence.Time(wall),
                "the requests waited on what the post's waited on"));
        }),
    ]));

    // The three patterns with their published figure.
    private static (string Family, double Published)[] Patterns((double WaitAll, double WhenAll, double Async) published) =>
        [("waitall", published.WaitAll), ("whenall-blocking", published.WhenAll), ("whenall-async", published.Async)];

    /// <summary>whenall-blocking's service threads over waitall's within 2/3-1.5 times the published ratio at each N, interval and all.</summary>
    internal static Judgement WhenAllHalfTheThreads(ClaimEvidence evidence) => AtEachN(evidence, n =>
    {
        var ratio = evidence.Ratio($"whenall-blocking@{n}", $"waitall@{n}", FanoutScenario.ServerPeakThreads);
        var published = PublishedThreads[n].WhenAll / PublishedThreads[n].WaitAll;
        return Decide.About(
            Quantity.Ratio($"whenall-blocking@{n}'s service threads over waitall@{n}'s"),
            ratio,
            published,
            Band.Around(published, 2.0 / 3, 1.5),
            $"{ClaimEvidence.Count(evidence.Metric($"whenall-blocking@{n}", FanoutScenario.ServerPeakThreads))} against " +
                $"{ClaimEvidence.Count(evidence.Metric($"waitall@{n}", FanoutScenario.ServerPeakThreads))} service threads, " +
                $"{ClaimEvidence.Times(ratio)}",
            $"both block a pool thread per call; WaitAll also blocks the request's own (waitall@{n}: {evidence.ServicePool($"waitall@{n}")})");
    });

    /// <summary>whenall-blocking's time over waitall's within a factor of 1.25 either way at each N, interval and all.</summary>
    internal static Judgement WhenAllSameTime(ClaimEvidence evidence) => AtEachN(evidence, n =>
    {
        if (Unanswered(evidence, $"whenall-blocking@{n}", $"waitall@{n}") is { } unanswered)
        {
            return unanswered;
        }

        var ratio = evidence.Ratio($"whenall-blocking@{n}", $"waitall@{n}");
        return Decide.About(
            Quantity.Ratio($"whenall-blocking@{n} over waitall@{n}, median wall time"),
            ratio,
            PublishedSeconds[n].WhenAll / PublishedSeconds[n].WaitAll,
            Band.NoChange(1.25),
            $"{ClaimEvidence.Time(evidence.Wall($"whenall-blocking@{n}"))} against {ClaimEvidence.Time(evidence.Wall($"waitall@{n}"))}, " +
                $"{ClaimEvidence.Times(ratio)}",
            "both wait for the pool to add a thread for each blocking call");
    });

    /// <summary>whenall-async's time over whenall-blocking's within 2/3-1.5 times the published 0.5 at each N, interval and all.</summary>
    internal static Judgement AsyncHalvesTheTime(ClaimEvidence evidence) => AtEachN(evidence, n =>
    {
        if (Unanswered(evidence, $"whenall-async@{n}", $"whenall-blocking@{n}") is { } unanswered)
        {
            return unanswered;
        }

        var ratio = evidence.Ratio($"whenall-async@{n}", $"whenall-blocking@{n}");
        var published = PublishedSeconds[n].Async / PublishedSeconds[n].WhenAll;
        return Decide.About(
            Quantity.Ratio($"whenall-async@{n} over whenall-blocking@{n}, median wall time"),
            ratio,
            published,
            Band.Around(published, 2.0 / 3, 1.5),
            $"{ClaimEvidence.Time(evidence.Wall($"whenall-async@{n}"))} against " +
                $"{ClaimEvidence.Time(evidence.Wall($"whenall-blocking@{n}"))}, {ClaimEvidence.Times(ratio)}",
            $"the async calls hold no thread while they wait; the blocking ones wait for the pool to add threads " +
                $"({evidence.ServicePool($"whenall-blocking@{n}")})");
    });

    /// <summary>whenall-async's service threads over whenall-blocking's below half the post's effect at each N, interval and all.</summary>
    internal static Judgement AsyncFewerThreads(ClaimEvidence evidence) => AtEachN(evidence, n =>
    {
        var ratio = evidence.Ratio($"whenall-async@{n}", $"whenall-blocking@{n}", FanoutScenario.ServerPeakThreads);
        return Decide.Below(
            Quantity.Ratio($"whenall-async@{n}'s service threads over whenall-blocking@{n}'s"),
            ratio,
            Band.HalfTheEffect(PublishedThreads[n].Async / PublishedThreads[n].WhenAll),
            PublishedThreads[n].Async / PublishedThreads[n].WhenAll,
            $"{ClaimEvidence.Count(evidence.Metric($"whenall-async@{n}", FanoutScenario.ServerPeakThreads))} against " +
                $"{ClaimEvidence.Count(evidence.Metric($"whenall-blocking@{n}", FanoutScenario.ServerPeakThreads))} service threads",
            "only the async client waits without a thread",
            "the async client needed as many threads here");
    });

    /// <summary>whenall-async@1000's service threads over whenall-async@100's within a factor of 1.25 either way, interval and all.</summary>
    internal static Judgement AsyncThreadsFlat(ClaimEvidence evidence)
    {
        var at100 = evidence.Metric("whenall-async@100", FanoutScenario.ServerPeakThreads);
        var at1000 = evidence.Run(ThousandAsync, Delays).Metric("whenall-async@1000", FanoutScenario.ServerPeakThreads);
        var ratio = Estimate.Ratio(at1000, at100);
        return Decide.About(Quantity.Ratio("whenall-async@1000's service threads over whenall-async@100's"),
            ratio, 53.0 / 54, Band.NoChange(1.25), $"{ClaimEvidence.Count(at100)} threads at N = 100, {ClaimEvidence.Count(at1000)} at N = 1000",
                "ten times the requests wait on the same few threads");
    }

    /// <summary>Each pattern's time at N = 1000 over its time at N = 100 within 2/3 to 1.5 times the published growth,
    /// interval and all; a pattern whose requests at N = 1000 ran to the timeout is no figure.</summary>
    internal static Judgement TimeGrowsWithN(ClaimEvidence evidence)
    {
        var thousand = evidence.Run(Thousand, Delays);
        return Decide.All(
        [
            .. new[] { ("waitall", 188.0 / 43), ("whenall-blocking", 174.0 / 42), ("whenall-async", 87.0 / 21) }.Select(p =>
            {
                var (at100, at1000) = ($"{p.Item1}@100", $"{p.Item1}@1000");
                if (FailedRequests(thousand, at1000) is > 0 and var failed)
                {
                    // Cut off by the timeout, its time at N = 1000 is a bound from below, and so is its growth: past the
                    // band already, that is enough to say it grew more than the post's.
                    var least = thousand.Wall(at1000).Low / evidence.Wall(at100).High;
                    return (p.Item1, CutOff(
                        $"{at1000} left {ClaimEvidence.Count(failed)} requests unanswered, so it grew {ClaimEvidence.Multiple(least)}x or more",
                        least > p.Item2 * 1.5,
                        $"{ClaimEvidence.Multiple(p.Item2 * 1.5)}x"));
                }

                var growth = Estimate.Ratio(thousand.Wall(at1000), evidence.Wall(at100));
                return (p.Item1, Decide.About(
                    Quantity.Ratio($"{at1000} over {at100}, median wall time"),
                    growth,
                    p.Item2,
                    Band.Around(p.Item2, 2.0 / 3, 1.5),
                    $"{ClaimEvidence.Time(evidence.Wall(at100))} to {ClaimEvidence.Time(thousand.Wall(at1000))}, {ClaimEvidence.Times(growth)}",
                    "ten times the requests wait on what the first hundred waited on"));
            }),
        ]);
    }

    /// <summary>Every request of the three at N = 1000 answered in at least 3 trials each: holds; a request failed in any trial: does not.</summary>
    internal static Judgement EveryRequestAnswered(ClaimEvidence evidence)
    {
        var rows = Published.Select(p => (Family: p, Variant: $"{p}@1000", Trials: evidence.Trials($"{p}@1000"))).ToList();
        string Describe((string Family, string Variant, IReadOnlyList<TrialResult> Trials) row)
        {
            var errors = row.Trials.Select(Errors).DefaultIfEmpty(0).Max();
            var failed = row.Trials.Count(t => t.Status != TrialStatus.Ok);
            return $"{row.Family}: {row.Trials.Count} trials, {(errors > 0 ? $"{ClaimEvidence.Count(errors)} failed requests" : "no failed " +
                "request")}{(failed > 0 ? $", {failed} not ok ({row.Trials.First(t => t.Status != TrialStatus.Ok).Status.ToText()})" : string.Empty)}";
        }

        var figure = string.Join("; ", rows.Select(Describe));

        // Only a request recorded as failed shows a pattern that does not answer; a trial that failed for another
        // reason (the lab's timeout, a service that did not start) shows nothing either way.
        var failing = rows.Where(r => r.Trials.Any(t => Errors(t) > 0)).ToList();
        if (failing.Count > 0)
        {
            return Judgement.DoesNotHold(
                figure, $"{string.Join(" and ", failing.Select(f => f.Variant))} left requests unanswered; " +
                    $"{evidence.ServicePool(failing[0].Variant)} in the service");
        }

        var clean = rows.All(r => r.Trials.Count(t => t.Status == TrialStatus.Ok) >= Decide.MinimumTrials);
        return clean
            ? Judgement.Holds(figure, "every request of every pattern was answered")
            : Judgement.CouldNotJudge(figure, $"no request was recorded as failed, in fewer than {Decide.MinimumTrials} ok trials of each pattern");
    }

    /// <summary>The service's pool adding threads for blocking or starvation in every waitall@100 trial: holds; in none: does not.</summary>
    internal static Judgement WaitAllMakesThePoolAdd(ClaimEvidence evidence)
    {
        var adds = evidence.ServiceValues("waitall@100", StandardMetrics.BlockingInjections, StandardMetrics.StarvationInjections);
        if (adds.Count < Decide.MinimumTrials)
        {
            return Judgement.CouldNotJudge($"{adds.Count} trials carried the service's runtime account (--events): a verdict needs " +
                $"{Decide.MinimumTrials}");
        }

        var figure = $"{ClaimEvidence.Count(adds.Min())}-{ClaimEvidence.Count(adds.Max())} threads added for blocking or starvation per trial";
        var numbers = new ClaimFigure { Quantity = "waitall@100's service pool: threads added for blocking or starvation", Unit = "threads",
            Value = Statistics.MedianEstimate.MedianOf(adds), Low = adds.Min(), High = adds.Max(), Trials = adds.Count, Lowest = 1 };
        return adds.All(a => a >= 1)
            ? Judgement.Holds(figure, $"the runtime's account names the cause: {evidence.ServicePool("waitall@100")}").With(numbers)
            : adds.All(a => a == 0) ? Judgement.DoesNotHold(figure, "the pool added no thread for blocking or starvation").With(numbers)
            : Judgement.CouldNotJudge(figure, "some trials added threads and some none").With(numbers);
    }

    // A figure cut off by the request timeout is a bound from below: past the band's top already, it does not hold;
    // otherwise it says nothing of the pattern.
    private static Judgement CutOff(string said, bool pastTheBand, string bandTop) => pastTheBand
        ? Judgement.DoesNotHold(said, $"beyond the band's {bandTop} even as a bound")
        : Judgement.CouldNotJudge(said, "its time is the request timeout's, not the pattern's");

    // The failed requests of a variant's trials: a trial whose requests ran to the timeout is timed by the timeout.
    private static double FailedRequests(ClaimEvidence evidence, string variant) => evidence.Trials(variant).Select(Errors).DefaultIfEmpty(0).Max();

    // A trial's failed requests, 0 where it recorded none.
    private static double Errors(TrialResult trial) => trial.Metrics.TryGetValue(FanoutScenario.Errors.Id, out var e) ? e : 0;

    /// <summary>
    /// A comparison of two patterns' times where one left requests unanswered: its wall time is the request
    /// timeout's, not the pattern's. The first (the one the claim says is as fast or faster) failing does not hold;
    /// only the second failing, or both, could not be judged: a time cut off by the timeout is a bound, not a figure.
    /// Null where both answered every request.
    /// </summary>
    internal static Judgement? Unanswered(ClaimEvidence evidence, string first, string second)
    {
        var (a, b) = (FailedRequests(evidence, first), FailedRequests(evidence, second));
        string Said(string variant, double failed) => $"{variant} left {ClaimEvidence.Count(failed)} requests unanswered";
        return (a > 0, b > 0) switch
        {
            (true, false) => Judgement.DoesNotHold(Said(first, a), $"{first} did not finish its requests where {second} did"),
            (false, true) => Judgement.CouldNotJudge(Said(second, b), $"{second}'s time is the request timeout's, not the pattern's"),
            (true, true) => Judgement.CouldNotJudge(
                $"{Said(first, a)}; {Said(second, b)}", "both times are the request timeout's, not the patterns'"),
            _ => null,
        };
    }

    // One rule at each N the run measured that the claim names: held at all, at some (named), or at none.
    private static Judgement AtEachN(ClaimEvidence evidence, Func<int, Judgement> rule) =>
        Decide.Each([.. evidence.VariantValues("requests").Select(n => ($"N = {n}", rule(n)))], held => $"at {string.Join(", ", held)}");
}
