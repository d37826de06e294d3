using System.Globalization;
using System.Text.Json;
using Xunit.Abstractions;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// The truth table of the lab's reasons: workloads whose cause of slowness is known by construction (the cause-*
/// family of tests/ConcurrencyLab.TestWorkloads, shapes no scenario of the lab runs), each through the whole pipeline
/// as a user runs it. Every variant must get a reason of its true kind, or none, or "not explained": a reason of any
/// other kind is wrong and fails the test. Each test writes its rows of the confusion matrix (docs/method.md) to its output.
/// </summary>
[Collection(nameof(TruthTable))]
public sealed class TruthTableTests(ITestOutputHelper output)
{
    // What the answer may say of a variant, by the kind of its reason (and a start's cause).
    private const string NoReason = "no reason";
    private const string NotExplained = "not explained";
    private const string MoreThreads = "more threads";
    private const string PoolRaises = "blocks pool threads (raises)";
    private const string PoolBlocked = "could not start: pool threads blocked";
    private const string CallingThread = "could not start: calling thread";
    private const string OneAtATime = "could not start: one at a time";
    private const string Held = "held to its degree";
    private const string OwnCpu = "its own CPU";
    private const string OneCore = "about one core busy";

    // Always true: no reason (not slow enough to need one), a shortfall the run does not explain, and more threads
    // for the same or more time, which is a figure and names no cause.
    private static readonly string[] AlwaysTrue = [NoReason, NotExplained, MoreThreads];

    // The true causes, each with the reasons that name it.
    private static readonly (string Cause, string[] Reasons) PoolThreadsHeld = ("pool threads held by the items", [PoolRaises, PoolBlocked]);
    private static readonly (string Cause, string[] Reasons) ItsDegree = ("its degree (or its loop)", [Held]);
    private static readonly (string Cause, string[] Reasons) OneThread = ("the calling thread's CPU, one item after another", [CallingThread, OneAtATime, OneCore]);
    private static readonly (string Cause, string[] Reasons) Nothing = ("nothing: as fast as the work allows", []);

    /// <summary>One workload of the family: how it is run, what holds each variant by construction, and the limit inside its items.</summary>
    public sealed record Workload(string Scenario, string[] Args, (string Variant, (string Cause, string[] Reasons) Truth, string[] AlsoTrue)[] Variants, (double Low, double High)? Limit, bool LimitRequired, bool Lock)
    {
        public override string ToString() => Scenario;
    }

    public static TheoryData<Workload> Workloads { get; } =
    [
        // Sleeps that block a thread: on the pool, its few threads hold the items; dedicated threads do not.
        new("cause-sleep", ["--items", "40", "--wait-ms", "50"],
        [
            ("threads", Nothing, []),
            ("threadpool", PoolThreadsHeld, []),
            ("task-run-whenall", PoolThreadsHeld, []),
            ("parallel-for@32", PoolThreadsHeld, []),
            // Two at once on a pool that starts with two threads: its degree, and the pool's threads too.
            ("dataflow@2-sync", ItsDegree, [PoolRaises, PoolBlocked]),
            ("sequential", ItsDegree, []),
        ], Limit: null, LimitRequired: false, Lock: false),

        // Pure CPU: every variant that keeps the cores busy is as fast; the loop and the caller run on one core.
        new("cause-cpu", ["--items", "40", "--cpu-ms", "5"],
        [
            ("parallel-for@2", Nothing, []),
            ("threadpool", Nothing, []),
            ("plinq@default", Nothing, []),
            ("threads", Nothing, []),
            ("sequential", ItsDegree, [OneCore]),
            // Finished tasks: whenall's calls run each item to its end on the calling thread.
            ("whenall", OneThread, []),
        ], Limit: null, LimitRequired: false, Lock: false),

        // A wait, then CPU under one lock: (15 + 5) / 5 = 4 make progress at once, whatever runs them.
        new("cause-lock", ["--items", "40", "--wait-ms", "15", "--cpu-ms", "5"],
        [
            ("whenall", Nothing, []),
            ("threads", Nothing, []),
            ("foreach-async@2", ItsDegree, []),
            ("foreach-async@16", Nothing, []),
            ("channel-workers@32", Nothing, []),
            ("sequential", ItsDegree, []),
        ], Limit: (2.5, 4.5), LimitRequired: false, Lock: true),

        // A downstream that serves 4 at a time: the limit is 4, named with its k.
        new("cause-limit", ["--items", "40", "--wait-ms", "25", "--limit", "4"],
        [
            ("whenall", Nothing, []),
            ("threads", Nothing, []),
            ("foreach-async@2", ItsDegree, []),
            ("foreach-async@16", Nothing, []),
            ("channel-workers@32", Nothing, []),
            ("sequential", ItsDegree, []),
        ], Limit: (3.2, 4.5), LimitRequired: true, Lock: false),

        // Sync over async: each pool thread waits for another to run its continuation.
        new("cause-sync-over-async", ["--items", "40", "--wait-ms", "30"],
        [
            ("threads", Nothing, []),
            ("threadpool", PoolThreadsHeld, []),
            ("task-run-waitall", PoolThreadsHeld, []),
            ("parallel-for@32", PoolThreadsHeld, []),
            ("sequential", ItsDegree, []),
        ], Limit: null, LimitRequired: false, Lock: false),

        // CPU before the first await: whenall and the channel's producers run it on the calling thread.
        new("cause-caller", ["--items", "40", "--cpu-ms", "5", "--wait-ms", "20"],
        [
            ("whenall", OneThread, []),
            ("channel", OneThread, []),
            ("foreach-async@8", Nothing, []),
            // Its first eight calls run on the calling thread, each later one from the loop that waits for a slot: one
            // item's CPU after another, on one thread at a time.
            ("semaphore@8", OneThread, []),
            // Task.Run blocking on each task: sync over async on the pool.
            ("task-run-whenall-tap", PoolThreadsHeld, []),
        ], Limit: null, LimitRequired: false, Lock: false),

        // CPU, then a wait: blocking on the pool holds its threads; awaiting does not.
        new("cause-mix", ["--items", "60", "--cpu-ms", "2", "--wait-ms", "20"],
        [
            ("dataflow@32", Nothing, []),
            ("whenall", Nothing, []),
            ("parallel-for@32", PoolThreadsHeld, []),
            ("threadpool", PoolThreadsHeld, []),
            ("foreach-async@4", ItsDegree, []),
            ("sequential", ItsDegree, []),
        ], Limit: null, LimitRequired: false, Lock: false),
    ];

    [SkippableTheory]
    [MemberData(nameof(Workloads))]
    public async Task EveryReason_IsOfItsVariantsTrueKind_OrNoneOrNotExplained(Workload workload)
    {
        using var folder = new TempFolder();
        var variants = string.Join(",", workload.Variants.Select(v => v.Variant));
        var result = await ProgramRunner.RunAsync(
            ProgramRunner.TestWorkloadsDll,
            folder.Path,
            ["run", workload.Scenario, .. workload.Args, "--variants", variants, "--repeat", "3", "--warmup", "0", "--out", "out", "--plain"]);
        Assert.True(result.ExitCode == 0, result.ToString());

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        var answer = scenario.GetProperty("recommendations")[0];
        var given = answer.GetProperty("avoid").EnumerateArray().ToDictionary(a => a.GetProperty("variant").GetString()!, Label);

        // Every variant ran, under the name the table gives it, and counted its items in flight: the figures the
        // reasons rest on.
        Assert.Equal(workload.Variants.Select(v => v.Variant).Order(StringComparer.Ordinal), scenario.GetProperty("variants").EnumerateArray().Select(v => v.GetProperty("name").GetString()).Order(StringComparer.Ordinal));
        foreach (var variant in scenario.GetProperty("variants").EnumerateArray())
        {
            Assert.True(variant.GetProperty("summary").GetProperty("medians").TryGetProperty("inFlightMean", out _), variant.GetProperty("name").GetString());
        }

        var wrong = new List<string>();
        foreach (var (variant, truth, alsoTrue) in workload.Variants)
        {
            var label = given.GetValueOrDefault(variant, NoReason);
            var right = AlwaysTrue.Contains(label) || truth.Reasons.Contains(label) || alsoTrue.Contains(label);
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {workload.Scenario} | {variant} | {truth.Cause} | {label} | {(right ? "right" : "WRONG")} |"));
            if (!right)
            {
                wrong.Add($"{variant}: {label}, where its true cause is {truth.Cause}");
            }
        }

        // The limit inside the items: named with its k where the workload has one, never where it has none.
        var limit = answer.TryGetProperty("limit", out var found) ? found : (JsonElement?)null;
        var limitSaid = limit is { } l ? string.Create(CultureInfo.InvariantCulture, $"about {l.GetProperty("atOnce").GetDouble():0.0} at once{(l.GetProperty("lockContentions").GetDouble() >= 0.5 * l.GetProperty("items").GetInt32() ? ", a lock among them" : string.Empty)}") : "none";
        output.WriteLine($"| {workload.Scenario} | (the batch) | {(workload.Limit is { } truthLimit ? string.Create(CultureInfo.InvariantCulture, $"a limit of {(workload.Lock ? "(15 + 5) / 5 = 4" : "4")} inside the items{(workload.Lock ? ", a lock" : string.Empty)}") : "no limit inside the items")} | limit: {limitSaid} | |");
        if (workload.Limit is not { } range)
        {
            if (limit is not null)
            {
                wrong.Add($"a limit inside the items ({limitSaid}), where there is none");
            }
        }
        else if (limit is { } named)
        {
            var atOnce = named.GetProperty("atOnce").GetDouble();
            if (atOnce < range.Low || atOnce > range.High)
            {
                wrong.Add(string.Create(CultureInfo.InvariantCulture, $"a limit of {atOnce:0.0}, where it is {range.Low}-{range.High}"));
            }

            var lockNamed = named.GetProperty("lockContentions").GetDouble() >= 0.5 * named.GetProperty("items").GetInt32();
            if (lockNamed != workload.Lock)
            {
                wrong.Add(workload.Lock ? "the limit is a lock, which the answer does not name" : "the answer names a lock where the limit is a semaphore");
            }
        }
        else if (workload.LimitRequired)
        {
            // The answer withholds the limit, rightly, where other work kept the machine's cores busy: then the run
            // cannot tell a limit inside the items from the CPU, and says so. That is this machine's noise, not a wrong
            // answer, and the test cannot be run here now.
            Skip.If(wrong.Count == 0 && answer.TryGetProperty("limitNotJudged", out _), "other work kept this machine's cores busy during the run, so the limit inside the items could not be told from the CPU");
            wrong.Add("no limit inside the items named, where there is one of 4");
        }

        Assert.True(wrong.Count == 0, $"{workload.Scenario}: {string.Join("; ", wrong)}\n{File.ReadAllText(Path.Combine(folder.Path, "out", "results.md"))}");
    }

    // The label of a reason to avoid: its kind, and a start's cause.
    private static string Label(JsonElement reason) => reason.GetProperty("kind").GetString() switch
    {
        "blocksPoolThreads" => PoolRaises,
        "couldNotStart" => reason.GetProperty("cause").GetString() switch
        {
            "poolThreadsBlocked" => PoolBlocked,
            "callingThread" => CallingThread,
            "oneAtATime" => OneAtATime,
            _ => NotExplained,
        },
        "heldToItsDegree" => Held,
        "cpuBound" => OwnCpu,
        "oneCoreBusy" => OneCore,
        "manyMoreThreads" => MoreThreads,
        "muchSlower" => NotExplained,
        var other => other!,
    };
}

/// <summary>
/// The truth table's runs, alone: their reasons rest on cores left idle or kept busy, which a test running beside
/// them would change.
/// </summary>
[CollectionDefinition(nameof(TruthTable), DisableParallelization = true)]
public sealed class TruthTable;
