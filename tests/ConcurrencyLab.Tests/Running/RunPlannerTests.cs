using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Running;

public sealed class RunPlannerTests
{
    private static readonly IReadOnlyList<Scenario> Catalog = ScenarioCatalog.BuiltIn;

    [Fact]
    public void Defaults_PlanEveryDelayVariant_WithFiveRepeats()
    {
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["delay"] }, Catalog, out var plan, out var errors), string.Join("; ", errors));
        var delay = Assert.Single(plan.Scenarios);
        Assert.Equal(5, plan.Settings.Repeat);
        Assert.Equal(1, plan.Settings.Warmup);
        Assert.True(plan.Settings.Isolated);
        Assert.Equal("parallel-for@4", delay.Baseline);
        Assert.Equal("100", delay.Parameters.Values["items"]);
        Assert.Equal(plan.TotalTrials, delay.Variants.Count * 6);
        Assert.InRange(delay.Ideal.Ms, 10, 50);
    }

    [Fact]
    public void Quick_ShrinksTheScale()
    {
        Assert.True(RunPlanner.TryCreate(new RunOptions { Quick = true }, Catalog, out var plan, out _));
        Assert.Equal(RunOptions.QuickRepeat, plan.Settings.Repeat);
        Assert.Equal(0, plan.Settings.Warmup);
        Assert.Equal("40", plan.Scenarios[0].Parameters.Values["items"]);
    }

    [Fact]
    public void AFirstLook_RunsEachScenariosFirstLookVariants_ComparedWithTheFirst_AndNamedVariantsStillWin()
    {
        Assert.True(RunPlanner.TryCreate(new RunOptions { Quick = true, FirstLook = true }, Catalog, out var plan, out var errors), string.Join("; ", errors));

        Assert.Equal(["delay", "scan", "poll", "fanout", "hash"], plan.Scenarios.Select(s => s.Scenario.Name));
        foreach (var scenario in plan.Scenarios)
        {
            Assert.Equal(scenario.Scenario.FirstLook, scenario.Variants.Select(v => v.Name));
            Assert.Equal(scenario.Variants[0].Name, scenario.Baseline);
            Assert.DoesNotContain(scenario.Notes, n => n.Contains("usual baseline", StringComparison.Ordinal));
        }

        // Every default variant of every scenario is at least twice the trials of the first look.
        Assert.True(RunPlanner.TryCreate(new RunOptions { Quick = true }, Catalog, out var all, out _));
        Assert.True(all.TotalTrials >= 2 * plan.TotalTrials, $"{all.TotalTrials} against {plan.TotalTrials}");

        Assert.True(RunPlanner.TryCreate(new RunOptions { Quick = true, FirstLook = true, Scenarios = ["delay"], Variants = ["sequential"] }, Catalog, out var named, out _));
        Assert.Equal(["sequential"], named.Scenarios[0].Variants.Select(v => v.Name));
    }

    [Fact]
    public void Variants_AreResolvedToCanonicalNames_AndDegreesComeFromTheName()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["parallel-for", "foreach-async@8", "sequential-sync"], Baseline = "sequential" };
        Assert.True(RunPlanner.TryCreate(options, Catalog, out var plan, out var errors), string.Join("; ", errors));
        Assert.Equal(["parallel-for@default", "foreach-async@8", "sequential"], plan.Scenarios[0].Variants.Select(v => v.Name));
    }

    [Fact]
    public void BadInput_IsCollected_NotStoppedAtTheFirst()
    {
        var options = new RunOptions
        {
            Scenarios = ["delay"],
            Variants = ["whenall-sync", "nosuch@4"],
            Parameters = new Dictionary<string, string> { ["items"] = "-3", ["dop"] = "4,x" },
            Repeat = 0,
        };

        Assert.False(RunPlanner.TryCreate(options, Catalog, out _, out var errors));
        // Code is told the member it set; the command line, the flag (RunCommand names them).
        Assert.Contains(errors, e => e.StartsWith("Repeat must be a whole number from 1 to 1000", StringComparison.Ordinal));
        Assert.DoesNotContain(errors, e => e.Contains("--repeat", StringComparison.Ordinal));
        Assert.False(RunPlanner.TryCreate(options, Catalog, m => m == nameof(RunOptions.Repeat) ? "--repeat" : m, out _, out var flagged));
        Assert.Contains(flagged, e => e.StartsWith("--repeat must be", StringComparison.Ordinal));
        Assert.Contains(errors, e => e == "Parameters[\"items\"] must be from 1 to 100000, not -3.");
        Assert.Contains(errors, e => e.Contains("Parameters[\"dop\"]", StringComparison.Ordinal));
        Assert.All(errors, e => Assert.DoesNotContain("--", e, StringComparison.Ordinal));
        Assert.Contains(flagged, e => e == "--items must be from 1 to 100000, not -3.");
        Assert.All(errors, e => Assert.DoesNotContain('\n', e));
    }

    [Fact]
    public void DopAuto_PlansTheDefaultDegrees_ForASearch_AndIsRefusedWithDegrees()
    {
        var auto = new RunOptions { Scenarios = ["delay"], Parameters = new Dictionary<string, string> { ["dop"] = "Auto" } };
        Assert.True(RunPlanner.TryCreate(auto, Catalog, out var plan, out var errors), string.Join("; ", errors));
        Assert.True(plan.Scenarios[0].SearchDegrees);
        Assert.Contains(plan.Scenarios[0].Variants, v => v.Name == "foreach-async@4");

        Assert.False(RunPlanner.TryCreate(auto with { Parameters = new Dictionary<string, string> { ["dop"] = "4,auto" } }, Catalog, m => m, out _, out var mixed));
        Assert.Equal(["--dop '4,auto': auto searches the degree, so it cannot be given with degrees; give auto, or a list of degrees."], mixed);

        var given = new RunOptions { Scenarios = ["delay"], Parameters = new Dictionary<string, string> { ["dop"] = "4,16" } };
        Assert.True(RunPlanner.TryCreate(given, Catalog, out var exact, out _));
        Assert.False(exact.Scenarios[0].SearchDegrees);
    }

    [Fact]
    public void AWorkloadScenario_SearchesItsDegreesByDefault_UnlessADegreeIsGiven()
    {
        Scenario[] tool = [ScenarioCatalog.Mix, new WorkloadScenario("counted", _ => new CountingWorkload(10)) { SearchDegrees = false }];
        RunPlan Plan(RunOptions options)
        {
            Assert.True(RunPlanner.TryCreate(options, tool, out var plan, out var errors), string.Join("; ", errors));
            return plan;
        }

        var bare = Plan(new RunOptions { Scenarios = ["mix"] }).Scenarios[0];
        Assert.True(bare.SearchDegrees);
        Assert.Equal("auto", bare.Parameters.Values["dop"]);
        Assert.Contains(bare.Variants, v => v.Name == "foreach-async@4");

        // A degree the user chose, as --dop or in a name, is run as chosen.
        Assert.False(Plan(new RunOptions { Scenarios = ["mix"], Parameters = new Dictionary<string, string> { ["dop"] = "8" } }).Scenarios[0].SearchDegrees);
        var named = Plan(new RunOptions { Scenarios = ["mix"], Variants = ["parallel-for@8", "whenall"] }).Scenarios[0];
        Assert.False(named.SearchDegrees);
        Assert.Equal("4,64", named.Parameters.Values["dop"]);
        Assert.True(Plan(new RunOptions { Scenarios = ["mix"], Variants = ["parallel-for", "whenall"] }).Scenarios[0].SearchDegrees);

        // A scenario that asks for its degrees as given, and the built-in experiments, search only when told to.
        var counted = Plan(new RunOptions { Scenarios = ["counted"] }).Scenarios[0];
        Assert.False(counted.SearchDegrees);
        Assert.Equal("4", counted.Parameters.Values["dop"]);
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["delay"] }, Catalog, out var delay, out _));
        Assert.False(delay.Scenarios[0].SearchDegrees);
    }

    [Fact]
    public void Grow_RunsEveryVariantAtEachSize_WithTheIdealOfEach()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall", "parallel-for@4"], Grow = "items=100,10,1000,100" };
        Assert.True(RunPlanner.TryCreate(options, Catalog, out var plan, out var errors), string.Join("; ", errors));

        var delay = Assert.Single(plan.Scenarios);
        Assert.Equal(new[] { 10, 100, 1000 }, delay.Grow!.Sizes);
        Assert.Equal(
            ["whenall:items=10", "whenall:items=100", "whenall:items=1000", "parallel-for@4:items=10", "parallel-for@4:items=100", "parallel-for@4:items=1000"],
            delay.Variants.Select(v => v.Name).Order(StringComparer.Ordinal).OrderBy(n => n.StartsWith("parallel", StringComparison.Ordinal)).ToList());
        Assert.Equal("10", delay.Parameters.Values["items"]);

        // Delay's ideal is its longest delay: more items draw more delays, so it never falls as the work grows.
        Assert.Equal(3, delay.Grow.Ideals.Count);
        Assert.True(delay.Grow.Ideals[10].Ms <= delay.Grow.Ideals[1000].Ms);
    }

    [Theory]
    [InlineData("items", "--grow takes NAME=SIZE,SIZE,... (such as items=100,1000,10000), not 'items'.")]
    [InlineData("dop=1,2", "--grow dop: the degree is how the work is run, not the work; give --dop a list of degrees, or auto. delay can grow --items, --min-delay, --max-delay.")]
    [InlineData("workers=1,2", "--grow workers: delay has no parameter --workers; delay can grow --items, --min-delay, --max-delay.")]
    [InlineData("items=100", "--grow items: a growth needs 2 to 12 different sizes, not 1 ('100').")]
    [InlineData("items=100,100", "--grow items: a growth needs 2 to 12 different sizes, not 1 ('100,100').")]
    [InlineData("items=100,x", "--grow items: --items must be a whole number from 1 to 100000, not 'x'.")]
    [InlineData("items=100,0", "--grow items: --items must be from 1 to 100000, not 0.")]
    [InlineData("items=100,200000", "--grow items: --items must be from 1 to 100000, not 200000.")]
    public void Grow_BadInput_IsOneLine_BeforeAnythingRuns(string grow, string error)
    {
        var options = new RunOptions { Scenarios = ["delay"], Grow = grow };

        Assert.False(RunPlanner.TryCreate(options, Catalog, m => m, out _, out var errors));

        Assert.Equal([error], errors);
    }

    [Fact]
    public void Grow_OfANumberThatIsNotWhole_OrGivenTwice_IsRefused()
    {
        var mix = new RunOptions { Scenarios = ["mix"], Grow = "cpu-ms=1,2" };
        Assert.False(RunPlanner.TryCreate(mix, ScenarioCatalog.Tool, m => m, out _, out var notWhole));
        Assert.StartsWith("--grow cpu-ms: --cpu-ms is not a whole number; mix can grow --items", Assert.Single(notWhole), StringComparison.Ordinal);

        var twice = new RunOptions { Scenarios = ["delay"], Grow = "items=10,20", Parameters = new Dictionary<string, string> { ["items"] = "30" } };
        Assert.False(RunPlanner.TryCreate(twice, Catalog, m => m, out _, out var both));
        Assert.Equal(["--grow items and --items both set it: leave --items out."], both);
    }

    [Fact]
    public void StrategyPairedWithAFormItCannotUse_IsRefusedAtValidation()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall-sync", "semaphore@4-sync"] };
        Assert.False(RunPlanner.TryCreate(options, Catalog, out _, out var errors));
        Assert.Equal(2, errors.Count);
        Assert.All(errors, e => Assert.Contains("cannot call items in the sync form", e, StringComparison.Ordinal));
    }

    [Fact]
    public void CrossParameterCheck_MinAboveMax_IsRefused()
    {
        var options = new RunOptions { Scenarios = ["delay"], Parameters = new Dictionary<string, string> { ["min-delay"] = "60", ["max-delay"] = "50" } };
        Assert.False(RunPlanner.TryCreate(options, Catalog, out _, out var errors));
        Assert.Contains("Parameters[\"min-delay\"] (60) must not exceed Parameters[\"max-delay\"] (50).", errors);

        // The command line keeps the flags, and leaves a flag that is not a parameter as it is.
        Assert.False(RunPlanner.TryCreate(options with { Parameters = new Dictionary<string, string> { ["min-delay"] = "60", ["max-delay"] = "50", ["nosuch"] = "1" } }, Catalog, m => m, out _, out var flagged));
        Assert.Contains("--min-delay (60) must not exceed --max-delay (50).", flagged);
        Assert.Contains(flagged, e => e.StartsWith("--nosuch is not a parameter of delay", StringComparison.Ordinal));
        Assert.Equal("use --quick with Parameters[\"items\"]", RunPlanner.NameParameters("use --quick with --items", new HashSet<string> { "items" }, m => m.StartsWith("--", StringComparison.Ordinal) ? $"Parameters[\"{m[2..]}\"]" : m));
    }

    [Fact]
    public void AUsersWorkloadThatCannotBeBuilt_IsRefusedInOneLine_NotACrash()
    {
        var broken = new ConcurrencyLab.Scenarios.WorkloadScenario("broken", _ => throw new InvalidOperationException("the data file is missing"));

        Assert.False(RunPlanner.TryCreate(new RunOptions(), [broken], out _, out var errors));
        Assert.Equal("broken: building the workload failed: InvalidOperationException: the data file is missing", Assert.Single(errors));
    }

    [Fact]
    public void UnknownScenario_NamesTheKnownOnes()
    {
        Assert.False(RunPlanner.TryCreate(new RunOptions { Scenarios = ["nope"] }, Catalog, out _, out var errors));
        Assert.Equal("unknown scenario 'nope'; known: delay, scan, poll, fanout, hash.", Assert.Single(errors));
    }

    [Fact]
    public void Scan_DefaultsAreThePublishedVariantsThenTheDoneRightOnes()
    {
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["scan"] }, Catalog, out var plan, out var errors), string.Join("; ", errors));
        var names = plan.Scenarios[0].Variants.Select(v => v.Name).ToList();

        Assert.Equal(
            ["sequential-apm", "sequential-tap", "task-loop-tap", "task-run-apm", "task-run-tap", "mix-and-match",
             "parallel-for@default-apm", "parallel-for@default-tap", "parallel-for@999-apm", "parallel-for@999-tap", "whenall-async"],
            names.Take(11));
        Assert.Contains("foreach-async@64", names);
        Assert.Contains("channel-workers@255", names);
        Assert.Contains("semaphore@64", names);
        Assert.Equal("sequential-apm", plan.Scenarios[0].Baseline);
        Assert.Equal(500 - ConcurrencyLab.Experiments.Scan.TimerClock.StepMs, plan.Scenarios[0].Ideal.Ms);
    }

    [Fact]
    public void Scan_LabNamesResolveToThePublishedOnes()
    {
        var options = new RunOptions { Scenarios = ["scan"], Variants = ["task-run-waitall-apm", "whenall", "Task-Run-Tap"] };
        Assert.True(RunPlanner.TryCreate(options, Catalog, out var plan, out var errors), string.Join("; ", errors));
        Assert.Equal(["task-run-apm", "whenall-async", "task-run-tap"], plan.Scenarios[0].Variants.Select(v => v.Name));
    }

    [Theory]
    [InlineData("10.0.0.0/24")]
    [InlineData("192.168.1.0/28")]
    [InlineData("127.0.0.0/7")]
    public void Scan_TargetsOutsideLoopback_AreRefused_UnlessExplicitlyAllowed(string targets)
    {
        var parameters = new Dictionary<string, string> { ["targets"] = targets, ["port"] = "80" };
        Assert.False(RunPlanner.TryCreate(new RunOptions { Scenarios = ["scan"], Parameters = parameters }, Catalog, out _, out var errors));
        Assert.Contains(errors, e => e.Contains("Parameters[\"targets\"]", StringComparison.Ordinal));

        // Planning only: no test ever runs a scan outside loopback.
        if (targets != "127.0.0.0/7")
        {
            parameters["allow-non-loopback"] = "yes";
            Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["scan"], Parameters = parameters }, Catalog, out _, out errors), string.Join("; ", errors));
        }
    }

    [SkippableFact]
    public void Scan_APortTakenOnTheFleetsAddresses_IsRefusedBeforeAnyTrial()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "all of 127.0.0.0/8 is local on Linux only");

        // Another program, or another run's fleet, listens on the fourth host's address.
        using var other = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
        other.Bind(new System.Net.IPEndPoint(System.Net.IPAddress.Parse("127.0.1.4"), 0));
        other.Listen();
        var port = ((System.Net.IPEndPoint)other.LocalEndPoint!).Port;
        var parameters = new Dictionary<string, string> { ["hosts"] = "12", ["port"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture) };

        Assert.False(RunPlanner.TryCreate(new RunOptions { Scenarios = ["scan"], Parameters = parameters }, Catalog, out _, out var errors));
        Assert.Equal($"Parameters[\"port\"] {port} is taken on 127.0.1.4 (another run's fleet, or another program, listens there); choose another, or leave Parameters[\"port\"] out for a free one.", Assert.Single(errors));

        // Three hosts stop short of it.
        parameters["hosts"] = "3";
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["scan"], Parameters = parameters }, Catalog, out _, out errors), string.Join("; ", errors));
    }

    [Fact]
    public void APlansVariants_AreTheProductOfItsSweeps_AndPastWhatAResultsFileHolds_ItIsRefusedWithItsCount_EvenWhenAllowed()
    {
        // The variants one value of each sweep gives: the count every product below is a multiple of.
        var one = new RunOptions { Scenarios = ["delay"], RuntimeSweeps = new Dictionary<string, IReadOnlyList<int>> { ["cores"] = [1, 2] } };
        Assert.True(RunPlanner.TryCreate(one, Catalog, out var small, out var errors), string.Join("; ", errors));
        var each = small.Scenarios[0].Variants.Count / 2;

        // 4 core counts and both GCs: each x 8, every one of them made once.
        var within = new RunOptions { Scenarios = ["delay"], RuntimeSweeps = new Dictionary<string, IReadOnlyList<int>> { ["cores"] = [1, 2, 3, 4], ["server-gc"] = [0, 1] } };
        Assert.True(RunPlanner.TryCreate(within, Catalog, out var planned, out errors), string.Join("; ", errors));
        Assert.Equal(each * 8, planned.Scenarios[0].Variants.Select(v => v.Name).Distinct().Count());
        Assert.Equal(each * 8, planned.Scenarios[0].Variants.Count);

        // 64 core counts and both GCs: each x 128, past the 2,000 variants a results file holds for any scenario of more
        // than 15; refused with its count, --yes or not.
        var sweeps = new Dictionary<string, IReadOnlyList<int>> { ["cores"] = [.. Enumerable.Range(1, 64)], ["server-gc"] = [0, 1] };
        Assert.True(each * 128 > RunOptions.MostVariants, $"{each} variants");
        foreach (var allowed in new[] { false, true })
        {
            Assert.False(RunPlanner.TryCreate(new RunOptions { Scenarios = ["delay"], RuntimeSweeps = sweeps, AllowLargePlan = allowed }, Catalog, out _, out errors));
            Assert.Equal(
                $"this run would plan up to {each * 128:N0} variants, past the 2,000 a results file holds: give fewer variants, or fewer values to the sweeps, which multiply each other.",
                Assert.Single(errors));
        }

        // Within the variants, past the trials: more than 250 variants of 41 trials each, made and then refused.
        var cores = 250 / each + 1;
        var trials = new RunOptions { Scenarios = ["delay"], RuntimeSweeps = new Dictionary<string, IReadOnlyList<int>> { ["cores"] = [.. Enumerable.Range(1, cores)] }, Repeat = 40 };
        Assert.False(RunPlanner.TryCreate(trials, Catalog, out _, out errors));
        Assert.Equal(
            $"this run plans {each * cores:N0} variants, {each * cores * 41:N0} trials, estimated at ",
            Assert.Single(errors)[..$"this run plans {each * cores:N0} variants, {each * cores * 41:N0} trials, estimated at ".Length]);
        Assert.EndsWith("past the 2,000 variants and 10,000 trials a results file holds; give fewer variants, fewer values to the sweeps, or fewer Repeat.", errors[0], StringComparison.Ordinal);
    }

    [Fact]
    public void AProductOfSweepsPastWhatAResultsFileHolds_IsRefusedByCounting_NotMaking()
    {
        // 12 sizes x 64 core counts x 64 pool minimums x 2 GCs x 2 hill climbings: 196,608 for each default variant,
        // refused with the product itself (counted, not made: making them would take minutes and gigabytes).
        Assert.True(RunPlanner.TryCreate(new RunOptions { Scenarios = ["delay"] }, Catalog, out var plain, out _));
        var each = plain.Scenarios[0].Variants.Count;
        var sweeps = new Dictionary<string, IReadOnlyList<int>>
        {
            ["cores"] = [.. Enumerable.Range(1, 64)],
            ["pool-min"] = [.. Enumerable.Range(1, 64)],
            ["server-gc"] = [0, 1],
            ["hill-climbing"] = [0, 1],
        };
        var options = new RunOptions { Scenarios = ["delay"], Grow = "items=" + string.Join(",", Enumerable.Range(1, 12)), RuntimeSweeps = sweeps, AllowLargePlan = true };

        Assert.False(RunPlanner.TryCreate(options, Catalog, out _, out var errors));
        Assert.StartsWith($"this run would plan up to {(long)each * 196_608:N0} variants, past the 2,000 a results file holds", Assert.Single(errors), StringComparison.Ordinal);
    }

    [Fact]
    public void AFewVariantsEstimatedAtMoreThanADayAtLeast_AreRefused_AndTheEstimateBracketsTheTrials()
    {
        // Poll's ideal is its duration: 7 variants x (1 warmup + at least 3 trials) x an hour is 28 h at the least.
        var parameters = new Dictionary<string, string> { ["duration"] = "3600", ["connections"] = "10" };
        var options = new RunOptions { Scenarios = ["poll"], Parameters = parameters };
        Assert.False(RunPlanner.TryCreate(options, Catalog, out _, out var errors));
        Assert.Matches(@"^this run plans \d+ variants, \d+ trials, estimated at 1 d [0-9]+ h to ", Assert.Single(errors));

        Assert.True(RunPlanner.TryCreate(options with { AllowLargePlan = true }, Catalog, out var plan, out errors), string.Join("; ", errors));
        var (least, most) = plan.Estimate;
        var variants = plan.Scenarios[0].Variants.Count;
        Assert.Equal(variants * 4 * (plan.Scenarios[0].Ideal.Ms / 1000 + RunPlan.TrialStartCost.TotalSeconds), least.TotalSeconds, 0.001);
        Assert.True(most >= least * 1.5, $"{most} against {least}: every trial run, at the most each may take");

        // In one process no trial starts a process: the least is the ideal's alone.
        Assert.True(RunPlanner.TryCreate(options with { AllowLargePlan = true, InProcess = true }, Catalog, out var inProcess, out _));
        Assert.Equal(variants * 4 * plan.Scenarios[0].Ideal.Ms / 1000, inProcess.Estimate.Least.TotalSeconds, 0.001);
    }

    [Fact]
    public void ASweepOfMoreValuesThanAnyRunNeeds_IsOneLine()
    {
        var parameters = new Dictionary<string, string> { ["dop"] = string.Join(",", Enumerable.Range(1, 3000)) };
        Assert.False(RunPlanner.TryCreate(new RunOptions { Scenarios = ["delay"], Parameters = parameters }, Catalog, out _, out var errors));
        Assert.Equal("Parameters[\"dop\"] takes at most 1,000 values, not 3,000.", Assert.Single(errors));
    }
}
