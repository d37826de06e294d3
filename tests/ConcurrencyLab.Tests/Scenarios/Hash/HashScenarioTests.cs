using ConcurrencyLab.Measurement;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Experiments.Hash;

namespace ConcurrencyLab.Tests.Scenarios.Hash;

public sealed class HashScenarioTests
{
    private static readonly HashScenario Scenario = new();

    private static ParameterValues Values(params (string Name, string Value)[] given) => ScenarioParameters.Of(Scenario, given);

    [Fact]
    public void DefaultVariants_EveryKind_AtEveryWorkerCount()
    {
        var names = Scenario.DefaultVariants(Values()).Select(v => v.Name).ToList();

        Assert.Equal(DirectIo.IsSupported ? 20 : 16, names.Count);
        Assert.Contains("cached@32", names);
        Assert.Contains("sync@16", names);
        Assert.Contains("async@128", names);
        Assert.Contains("foreach-async@64", names);
        Assert.Equal("sync@16", Scenario.DefaultBaseline(Values()).Name);
    }

    [Theory]
    [InlineData("Async@8", true, "async@8")]
    [InlineData("sync", false, "must say how many workers")]
    [InlineData("sync@0", false, "from 1 to 4096")]
    [InlineData("sha@4", false, "not a hash variant")]
    public void TryResolveVariant_NeedsAKnownKindAndN(string name, bool ok, string expected)
    {
        var resolved = Scenario.Variants(Values()).TryParse(name, out var variant, out var problem);

        Assert.Equal(ok, resolved);
        Assert.Contains(expected, ok ? variant.Name : problem, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("file-size", "16 furlongs", "--file-size must be a size")]
    [InlineData("file-size", "0", "--file-size must be a size")]
    [InlineData("buffer-size", "128MiB", "--buffer-size must be a size")]
    [InlineData("cache", "lukewarm", "--cache must be cold or warm")]
    public void Validate_RefusesBadValues_InOneLine(string name, string value, string expected)
    {
        // Refused as the values are read, before the scenario's own checks; one line each all the same.
        ParameterValues.Create(Scenario.Parameters, new Dictionary<string, string> { [name] = value }, quick: false, out var problems);

        var problem = Assert.Single(problems);
        Assert.StartsWith(expected, problem, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', problem);
    }

    [Fact]
    public void Validate_RefusesASetTheDiskCannotHold_BeforeAnyTrial()
    {
        var problems = Scenario.Validate(Values(("files", "100000"), ("file-size", "64GiB"))).ToList();

        var problem = Assert.Single(problems);
        Assert.Contains("MiB are free", problem, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(2000, 0.5, 700, 2, "the CPU that reading and hashing share binds")]
    [InlineData(300, 0.5, 700, 2, "the device binds")]
    public void TheIdeal_IsTheSlowerOfTheDeviceAndTheCoresReadingAndHashing(double device, double readCpuMsPerMib, double hashPerCore, int cores, string binds)
    {
        var bounds = new HashBounds { OneReaderMibPerSec = device / 2, ManyReadersMibPerSec = device, DeviceReadCold = true, ReadCpuMsPerMib = readCpuMsPerMib, HashMibPerSecPerCore = hashPerCore, Cores = cores };
        const long bytes = 1024L << 20;

        var ideal = bounds.Ideal(bytes, cold: true);

        // 1024 MiB: the device alone takes 1024 / device s; the cores alone take 1024 x (read + hash CPU per MiB) / cores.
        var deviceMs = 1024 / device * 1000;
        var cpuMs = 1024 * (readCpuMsPerMib + (1000 / hashPerCore)) / cores;
        Assert.Equal(Math.Max(deviceMs, cpuMs), ideal.Ms, 6);
        Assert.True(ideal.Ms > 1024 / (hashPerCore * cores) * 1000, "reading's CPU counts on top of hashing's");
        Assert.Contains(binds, ideal.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ARun_MeasuresItsBounds_EveryKindHashesRight_FromTheColdCache_AndTheSetIsDeletedAfter()
    {
        var parameters = Values(("files", "6"), ("file-size", "256KiB"), ("workers", "3"));

        var fixture = await Scenario.PrepareRunAsync(parameters, seed: 7);

        Assert.NotNull(fixture);
        var folder = fixture.TrialParameters["dir"];
        Assert.Equal(6, Directory.GetFiles(folder, "*.bin").Length);
        Assert.True(fixture.Ideal!.Ms > 0, fixture.Ideal.Reason);
        Assert.True(fixture.Bounds["deviceReadMibPerSec"] > 0);
        Assert.True(fixture.Bounds["hashMibPerSec"] > 0);
        Assert.True(fixture.Bounds["hashCpuMsPerMib"] > 0);
        Assert.True(fixture.Bounds["readCpuMsPerMib"] >= 0);

        // Reading and hashing share the cores, so together they can go no faster than hashing alone.
        Assert.True(fixture.Bounds["cpuMibPerSec"] <= fixture.Bounds["hashMibPerSec"] + 0.1);
        Assert.Equal(Environment.ProcessorCount, fixture.Bounds["cores"]);
        var canBeCold = PageCache.IsSupported && PageCache.InMemory(folder) is null;

        var trialParameters = ParameterValues.FromValidated(parameters.Values.SetItems(fixture.TrialParameters));
        foreach (var variant in Scenario.DefaultVariants(parameters))
        {
            var outcome = await RunTrial(variant.Name, trialParameters, seed: 7);

            Assert.Null(outcome.Error);
            Assert.Equal(6, outcome.ItemsCompleted);
            Assert.Equal(6, outcome.LatenciesMs.Count);
            Assert.Equal(0, outcome.Metrics!["hashMismatches"]);
            Assert.All(outcome.Metrics.Keys, id => Assert.Contains(Scenario.Metrics, m => m.Id == id));
            Assert.True(outcome.Metrics["mibPerSec"] > 0);
            Assert.Equal(canBeCold ? 1 : 0, outcome.Metrics["cacheCold"]);
            Assert.Equal(canBeCold ? 0 : 1, outcome.Metrics["notCold"]);
        }

        await fixture.DisposeAsync();

        Assert.False(Directory.Exists(folder), $"{folder} was left behind");
    }

    [Fact]
    public async Task AWarmRun_HasTheFilesCached_AndMeasuresTheCachedReadRate()
    {
        var parameters = Values(("files", "3"), ("file-size", "128KiB"), ("workers", "2"), ("cache", "warm"));
        var fixture = await Prepare(parameters);
        await using (fixture)
        {
            Assert.True(fixture.Bounds["cachedReadMibPerSec"] > 0);
            var trialParameters = ParameterValues.FromValidated(parameters.Values.SetItems(fixture.TrialParameters));

            var outcome = await RunTrial("sync@2", trialParameters, seed: 7);

            Assert.Equal(0, outcome.Metrics!["cacheCold"]);
            Assert.Equal(0, outcome.Metrics["notCold"]);
            if (PageCache.IsSupported)
            {
                Assert.True(outcome.Metrics["residentPercent"] > 90, $"{outcome.Metrics["residentPercent"]}% of a warm set was cached");
            }
        }
    }

    [SkippableFact]
    public async Task FilesKeptInMemory_CannotBeCold_AndTheRunSaysSo()
    {
        const string shm = "/dev/shm";
        Skip.If(!PageCache.IsSupported || !Directory.Exists(shm) || PageCache.InMemory(shm) is null, "no page-cache control, or no /dev/shm in memory, on this machine");

        var folder = Path.Combine(shm, "conclab-hash-test-" + Guid.NewGuid().ToString("N"));
        var parameters = Values(("files", "2"), ("file-size", "64KiB"), ("workers", "2"), ("dir", folder));
        var fixture = await Prepare(parameters);
        await using (fixture)
        {
            Assert.Contains(fixture.Notes, n => n.Contains("could not be made cold", StringComparison.Ordinal));
            var trialParameters = ParameterValues.FromValidated(parameters.Values.SetItems(fixture.TrialParameters));

            var outcome = await RunTrial("async@2", trialParameters, seed: 7);

            Assert.Equal(0, outcome.Metrics!["cacheCold"]);
            Assert.Equal(1, outcome.Metrics["notCold"]);
            Assert.Equal(0, outcome.Metrics["hashMismatches"]);
        }

        Assert.False(Directory.Exists(folder));
    }

    [Fact]
    public async Task AKeptSet_IsReusedByTheNextRun_AndLeftInPlace()
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-hash-test-" + Guid.NewGuid().ToString("N"));
        try
        {
            var first = await Scenario.PrepareRunAsync(Values(("files", "2"), ("file-size", "64KiB"), ("dir", folder), ("keep", "true")), seed: 7);
            await first!.DisposeAsync();
            Assert.Equal(2, Directory.GetFiles(folder, "*.bin").Length);

            var second = await Scenario.PrepareRunAsync(Values(("files", "2"), ("file-size", "64KiB"), ("dir", folder)), seed: 7);
            await second!.DisposeAsync();

            Assert.Contains(second.Notes, n => n.Contains("was reused", StringComparison.Ordinal));
            Assert.Equal(2, Directory.GetFiles(folder, "*.bin").Length);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task AFileChangedAfterTheManifest_FailsTheTrial_SayingHowManyHashedWrong()
    {
        var parameters = Values(("files", "3"), ("file-size", "64KiB"), ("workers", "2"));
        var fixture = await Prepare(parameters);
        await using (fixture)
        {
            var victim = Directory.GetFiles(fixture.TrialParameters["dir"], "*.bin")[1];
            var bytes = await File.ReadAllBytesAsync(victim);
            bytes[100] ^= 0xff;
            await File.WriteAllBytesAsync(victim, bytes);
            var trialParameters = ParameterValues.FromValidated(parameters.Values.SetItems(fixture.TrialParameters));

            var outcome = await RunTrial("sync@2", trialParameters, seed: 7);

            Assert.Equal(1, outcome.Metrics!["hashMismatches"]);
            Assert.StartsWith("1 files hashed to something other", outcome.Error, StringComparison.Ordinal);
        }
    }

    // A run's bounds: the device at 374 MiB/s and the cores at 1,400, as the post's machine was; or the other way round.
    private static readonly Dictionary<string, double> DiskBound = new() { ["deviceReadMibPerSec"] = 374, ["cpuMibPerSec"] = 1400 };

    private static readonly Dictionary<string, double> CpuBound = new() { ["deviceReadMibPerSec"] = 2300, ["cpuMibPerSec"] = 1400 };

    [Theory]
    [InlineData(23.0, 23.0, 23.0, 38.0, "Holds", "Holds")]
    [InlineData(23.0, 23.0, 23.0, 23.2, "Holds", "DoesNotHold")]
    [InlineData(23.0, 40.0, 23.0, 38.0, "DoesNotHold", "Holds")]
    public void Claims_OnADiskBoundMachine_SayWhetherAsyncHeldAndSyncFell(double async16, double async128, double sync16, double sync128, string asyncFlat, string syncFalls)
    {
        // Wall times in seconds for 512 files; CIs of +-1% around each median.
        var claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(Scenario, Result(DiskBound, "cold", ("async@16", async16), ("async@128", async128), ("sync@16", sync16), ("sync@128", sync128)));

        var flat = claims.Single(c => c.Id == "hash-async-flat");
        var falls = claims.Single(c => c.Id == "hash-sync-falls");
        // The verdicts by name: a test method's parameters are public, the results contract is not.
        Assert.Equal(Enum.Parse<ConcurrencyLab.Results.Verdict>(asyncFlat), flat.Verdict);
        Assert.Equal(Enum.Parse<ConcurrencyLab.Results.Verdict>(syncFalls), falls.Verdict);
        Assert.Equal("22.11 to 13.41 files/s", falls.Published);
        Assert.Equal(ConcurrencyLab.Results.FigureSource.Text, falls.Source);
        Assert.Contains(falls.Conditions, c => c.Name == "machine" && c.Met && c.Actual!.StartsWith("disk-bound", StringComparison.Ordinal));
        Assert.Equal(3, falls.Figures.Single().Trials);

        // A claim about variants the run did not have is listed as not tested, never judged.
        Assert.Equal(ConcurrencyLab.Results.Verdict.NotTested, claims.Single(c => c.Id == "hash-sync-progressive").Verdict);
        Assert.Empty(Scenario.Conclusions(Result(DiskBound, "cold", ("async@16", async16))));
    }

    [Fact]
    public void Claims_OnACpuBoundMachine_CouldNotBeJudged_SayingBothRates()
    {
        var claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(Scenario, Result(CpuBound, "cold", ("async@16", 23.0), ("async@128", 23.0), ("sync@16", 23.0), ("sync@128", 23.0)));

        var flat = claims.Single(c => c.Id == "hash-async-flat");
        Assert.Equal(ConcurrencyLab.Results.Verdict.CouldNotJudge, flat.Verdict);
        Assert.Contains("this run: CPU-bound: the device 2,300 MiB/s, the cores 1,400 MiB/s", flat.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Claims_OfAWarmRun_AreNotTested_ButTheCacheClaimIs()
    {
        var claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(Scenario, Result(DiskBound, "warm", ("async@16", 23.0), ("async@128", 23.0), ("sync@16", 23.0), ("sync@128", 23.0)));

        Assert.All(claims.Where(c => c.Id is "hash-async-flat" or "hash-sync-falls"), c => Assert.Equal(ConcurrencyLab.Results.Verdict.NotTested, c.Verdict));
        Assert.All(claims.Where(c => c.Id is "hash-async-flat"), c => Assert.Contains("cache cold (this run: warm)", c.Reason, StringComparison.Ordinal));
        Assert.NotEqual(ConcurrencyLab.Results.Verdict.NotTested, claims.Single(c => c.Id == "hash-page-cache-cpu").Verdict);
    }

    [Fact]
    public void Claims_OnAMachineWithinTheMargin_CouldNotBeJudged_SayingBothRatesAndTheirRatio()
    {
        // A device at 953 MiB/s against cores at 1,137: slower, but by 1.19x, where a second measurement could turn it round.
        var close = new Dictionary<string, double> { ["deviceReadMibPerSec"] = 953, ["cpuMibPerSec"] = 1137 };
        var claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(Scenario, Result(close, "cold", ("async@16", 23.0), ("async@128", 40.0), ("sync@16", 23.0), ("sync@128", 23.0)));

        foreach (var id in new[] { "hash-async-flat", "hash-sync-falls", "hash-equal-at-16", "hash-device-ceiling", "hash-little-cpu" })
        {
            var claim = claims.Single(c => c.Id == id);
            Assert.Equal(ConcurrencyLab.Results.Verdict.CouldNotJudge, claim.Verdict);
            Assert.Contains("too close to call: the device 953 MiB/s, the cores 1,137 MiB/s (1.19x)", claim.Reason, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData(560.0, false)]
    [InlineData(562.0, true)]
    public void TheDiskBoundMachine_NeedsTheCoresOneAndAHalfTimesTheDevice(double cpuMibPerSec, bool met)
    {
        var bounds = new Dictionary<string, double> { ["deviceReadMibPerSec"] = 374, ["cpuMibPerSec"] = cpuMibPerSec };
        var claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(Scenario, Result(bounds, "cold", ("async@16", 23.0), ("async@128", 23.0), ("sync@16", 23.0), ("sync@128", 38.0)));

        var machine = claims.Single(c => c.Id == "hash-sync-falls").Conditions.Single(c => c.Name == "machine");
        Assert.Equal(met, machine.Met);
    }

    [Fact]
    public void Claims_OnADeviceTheLabLimited_AreJudged_AndSaySoInTheirCondition()
    {
        var emulated = new Dictionary<string, double>(DiskBound) { ["deviceLimitMibPerSec"] = 374 };
        var claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(Scenario, Result(emulated, "cold", ("async@16", 23.0), ("async@128", 23.0), ("sync@16", 23.0), ("sync@128", 38.0)));

        var falls = claims.Single(c => c.Id == "hash-sync-falls");
        Assert.Equal(ConcurrencyLab.Results.Verdict.Holds, falls.Verdict);
        Assert.Contains(falls.Conditions, c => c.Name == "machine" && c.Met
            && c.Actual!.StartsWith("disk-bound (the device limited to 374 MiB/s by the lab, as a slower disk)", StringComparison.Ordinal));

        // A limit no run could have set (a file edited or sent) is not repeated.
        var edited = new Dictionary<string, double>(DiskBound) { ["deviceLimitMibPerSec"] = 1e308 };
        var judged = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(Scenario, Result(edited, "cold", ("async@16", 23.0), ("async@128", 23.0), ("sync@16", 23.0), ("sync@128", 38.0)));
        Assert.Contains(judged.Single(c => c.Id == "hash-sync-falls").Conditions, c => c.Name == "machine" && c.Actual!.StartsWith("disk-bound: ", StringComparison.Ordinal));
    }

    [Fact]
    public void Claims_OfARunTheDeviceDidNotHold_CouldNotBeJudged_ThoughTheDeviceIsSlower()
    {
        // Bounds like the post's, but no variant read faster than 8,192 MiB / 40 s = 205 MiB/s, 55% of the device's 374:
        // the device was not what held them.
        var claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(
            Scenario, Result(DiskBound, "cold", ("async@16", 40.0), ("async@128", 40.0), ("sync@16", 40.0), ("sync@128", 60.0)));

        var falls = claims.Single(c => c.Id == "hash-sync-falls");
        Assert.Equal(ConcurrencyLab.Results.Verdict.CouldNotJudge, falls.Verdict);
        Assert.Contains("read 205 MiB/s, 55% of the device's rate: something other than the device held the run", falls.Reason, StringComparison.Ordinal);
    }

    private static ConcurrencyLab.Results.ScenarioResult Result(Dictionary<string, double> bounds, string cache, params (string Name, double Seconds)[] variants) => new()
    {
        Name = "hash",
        Parameters = new Dictionary<string, string> { ["files"] = "512", ["cache"] = cache, ["buffer-size"] = "4KiB" },
        IdealMs = 1,
        IdealReason = "test",
        Bounds = bounds,
        Baseline = "sync@16",
        Variants = [.. variants.Select(v => Recorded(v.Name, v.Seconds))],
    };

    /// <summary>A variant as a run records it (its structure and name), whose median of 3 trials took <paramref name="seconds"/>, with a CI of 1% either side.</summary>
    private static ConcurrencyLab.Results.VariantResult Recorded(string name, double seconds)
    {
        Assert.True(Scenario.Variants(Values()).TryParse(name, out var variant, out var problem), problem);
        return new()
        {
            Name = variant.Name,
            Description = variant.Description,
            Family = variant.Family,
            Parameters = variant.Parameters,
            Status = ConcurrencyLab.Results.TrialStatus.Ok,
            Trials = [],
            Summary = new ConcurrencyLab.Results.VariantSummary
            {
                Trials = 3,
                MedianWallMs = seconds * 1000,
                CiLowMs = seconds * 990,
                CiHighMs = seconds * 1010,
                // 512 files of 16 MiB in that time.
                Medians = new Dictionary<string, double> { ["mibPerSec"] = 512 * 16 / seconds },
            },
        };
    }

    [Fact]
    public async Task Validate_RefusesAFolderHoldingASetFromAnotherSeed()
    {
        var folder = Path.Combine(Path.GetTempPath(), "conclab-hash-test-" + Guid.NewGuid().ToString("N"));
        try
        {
            var kept = await Scenario.PrepareRunAsync(Values(("files", "2"), ("file-size", "64KiB"), ("dir", folder), ("keep", "true")), seed: 7);
            await kept!.DisposeAsync();

            Assert.Empty(Scenario.Validate(Values(("files", "2"), ("file-size", "64KiB"), ("dir", folder)), seed: 7));
            var problem = Assert.Single(Scenario.Validate(Values(("files", "2"), ("file-size", "64KiB"), ("dir", folder)), seed: 8));

            Assert.Contains("holds another file set", problem, StringComparison.Ordinal);
            Assert.Contains("seed 7", problem, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static async Task<RunFixture> Prepare(ParameterValues parameters)
    {
        var fixture = await Scenario.PrepareRunAsync(parameters, seed: 7);
        Assert.NotNull(fixture);
        return fixture;
    }

    private static async Task<ConcurrencyLab.Scenarios.TrialOutcome> RunTrial(string variant, ParameterValues parameters, int seed)
    {
        using var meter = new TrialMeter(TimeSpan.Zero);
        Assert.True(Scenario.Variants(parameters).TryParse(variant, out var parsed, out var problem), problem);
        return await Scenario.RunTrialAsync(new TrialContext(parsed, parameters, seed, meter));
    }
}
