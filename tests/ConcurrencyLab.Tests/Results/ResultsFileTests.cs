using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Reporting;

namespace ConcurrencyLab.Tests.Results;

public sealed class ResultsFileTests
{
    [Theory]
    [InlineData("\"displayName\": \"Msgs/s\"", "\"displayName\": \"\"")]
    [InlineData("\"displayName\": \"Msgs/s\"", "\"displayName\": null")]
    [InlineData("\"tool\": \"conclab\",", "\"tool\": \"conclab\", \"tool\": \"other\",")]
    [InlineData("\"status\": \"ok\"", "\"status\": \"fine\"")]
    [InlineData("\"schemaVersion\": 3", "\"schemaVersion\": 4")]
    public void AFileThisBuildCannotRead_IsRefusedInOneLine_NeverWithAStackTrace(string good, string bad)
    {
        var run = ExporterTests.SampleRun();
        AssertRefusedInOneLine(run with { Scenarios = [run.Scenarios[0] with { Metrics = [ConcurrencyLab.Experiments.Poll.PollScenario.MessagesPerSec] }] }, good, bad);
    }

    [Theory]
    [InlineData("\"kind\": \"muchSlower\"", "\"kind\": \"tooClever\"")]
    [InlineData("\"kind\": \"muchSlower\",", "")]
    [InlineData("\"ratio\": 3,", "")]
    [InlineData("\"because\": \"fastest\"", "\"because\": \"trustMe\"")]
    [InlineData("\"ratio\": 3,", "\"ratio\": null,")]
    [InlineData("\"recommendations\": [", "\"recommendations\": [null, ")]
    [InlineData("\"avoid\": [", "\"avoid\": [null, ")]
    [InlineData("\"variants\": [", "\"variants\": [null, ")]
    public void AnAnswerThisBuildCannotRead_IsRefusedInOneLine(string good, string bad)
    {
        var run = ExporterTests.SampleRun();
        var answer = new Recommendation
        {
            Fastest = "a",
            FastestMs = 10,
            Use = "a",
            Because = UseBecause.Fastest,
            Avoid = [new MuchSlower { Variant = "b", Ratio = 3, MedianMs = 30 }],
        };
        AssertRefusedInOneLine(run with { Scenarios = [run.Scenarios[0] with { Recommendations = [answer] }] }, good, bad);
    }

    [Theory]
    [InlineData("\"degreeSearches\": [", "\"degreeSearches\": [null, ")]
    [InlineData("\"tried\": [", "\"tried\": [null, ")]
    [InlineData("\"timeline\": [", "\"timeline\": [null, ")]
    public void ASearchOrATimelineWithANullEntry_IsRefusedInOneLine(string good, string bad)
    {
        var run = ExporterTests.SampleRun();
        var account = new ConcurrencyLab.Measurement.RuntimeAccount
        {
            Events = ConcurrencyLab.Measurement.RuntimeEvents.Stacks,
            Threads = new ConcurrencyLab.Measurement.ThreadTime { Work = new(1, 2, 3, 4), BinMs = 1, Timeline = [new(1, 0, 0, 0)] },
        };
        var search = new DegreeSearchResult { Family = "foreach-async", Variant = "foreach-async@8", Chosen = 8, AsFastFrom = 8, AsFastTo = 8, Noise = 0.05, Tried = [new DegreeProbeResult(8, 3, 40)] };
        var scenario = run.Scenarios[0];
        var variants = scenario.Variants.Select(v => v with { Trials = [.. v.Trials.Select(t => t with { Runtime = account })] }).ToList();
        AssertRefusedInOneLine(run with { Scenarios = [scenario with { Variants = variants, DegreeSearches = [search] }] }, good, bad);
    }

    [Theory]
    [InlineData("\"lines\": [", "\"lines\": [null, ")]
    [InlineData("\"sizes\": [\n          10,", "\"sizes\": [\n          100,")]
    [InlineData("\"sizes\": [\n          10,\n          100\n        ]", "\"sizes\": []")]
    [InlineData("\"parts\": [", "\"parts\": [null, ")]
    [InlineData("\"limit\": \"callerSideCpu\"", "\"limit\": \"gremlins\"")]
    [InlineData("\"stealMs\": 80", "\"stealMs\": -5")]
    [InlineData("\"coreMs\": 1400", "\"coreMs\": 1E+308")]
    [InlineData("\"othersMs\": 30", "\"othersMs\": -1E+300")]
    public void AGrowthOrAGapThisBuildCannotRead_IsRefusedInOneLine(string good, string bad)
    {
        var run = ExporterTests.SampleRun();
        var scenario = run.Scenarios[0];
        var growth = new GrowthResult { Parameter = "items", Sizes = [10, 100], IdealsMs = [20, 20], Lines = [new LineGrowth { Line = "whenall", MediansMs = [21, null], Exponent = 0.1 }] };
        var gap = new GapAccount
        {
            Variant = "whenall",
            MedianMs = 50,
            IdealMs = 20,
            Efficiency = 0.4,
            Limit = GapLimit.CallerSideCpu,
            Parts = [new GapPart { Limit = GapLimit.CallerSideCpu, ExplainedMs = 25, Ms = 45 }],
            Machine = new MachineShare { CoreMs = 1400, ProcessCpuMs = 940, IdleMs = 350, StealMs = 80, OthersMs = 30 },
        };
        var recommendations = new[] { new Recommendation { Fastest = "whenall", FastestMs = 50, Because = UseBecause.Fastest, Use = "whenall", Gap = gap } };
        AssertRefusedInOneLine(run with { Scenarios = [scenario with { Growth = growth, Recommendations = recommendations }] }, good, bad);
    }

    [Theory]
    [InlineData("\"sites\": [", "\"sites\": [null, ")]
    [InlineData("\"poolAdjustments\": [", "\"poolAdjustments\": [null, ")]
    [InlineData("\"work\": {", "\"work\": null, \"was\": {")]
    public void ARuntimeAccountThisBuildCannotRead_IsRefusedInOneLine(string good, string bad)
    {
        var run = ExporterTests.SampleRun();
        var account = new ConcurrencyLab.Measurement.RuntimeAccount
        {
            Events = ConcurrencyLab.Measurement.RuntimeEvents.Stacks,
            Threads = new ConcurrencyLab.Measurement.ThreadTime { Work = new(1, 2, 3, 4), Sites = [new("sleeping", "Shop.Nap", "System.Threading.Thread.Sleep", 3, 3)] },
        };
        var scenario = run.Scenarios[0];
        var variants = scenario.Variants.Select(v => v with { Trials = [.. v.Trials.Select(t => t with { Runtime = account })] }).ToList();
        AssertRefusedInOneLine(run with { Scenarios = [scenario with { Variants = variants }] }, good, bad);
    }

    [Theory]
    [InlineData("\"planned\": 5", "\"planned\": 20000")]
    [InlineData("\"planned\": 5", "\"planned\": 2")]
    [InlineData("\"ciLowMs\": 40", "\"ciLowMs\": 60")]
    [InlineData("\"medianMs\": 50", "\"medianMs\": -1E+308")]
    [InlineData("\"reason\": \"outOfContention\"", "\"reason\": \"bored\"")]
    [InlineData("\"ratio\": 2", "\"ratio\": 0")]
    [InlineData("\"ratio\": 2", "\"ratio\": 3")]
    [InlineData("\"ratio\": 2", "\"ratio\": 1E+300")]
    [InlineData("\"reason\": \"outOfContention\"", "\"reason\": \"tight\"")]
    public void AnEarlyStopNoRunCouldWrite_IsRefusedInOneLine(string good, string bad)
    {
        var run = ExporterTests.SampleRun();
        var scenario = run.Scenarios[0];
        var stop = new EarlyStop { Reason = EarlyStopReason.OutOfContention, Trials = 3, Planned = 5, MedianMs = 50, CiLowMs = 40, CiHighMs = 55, Fastest = "whenall", FastestCiHighMs = 20, Ratio = 2 };
        AssertRefusedInOneLine(run with { Scenarios = [scenario with { Variants = [scenario.Variants[0] with { Stop = stop }, .. scenario.Variants.Skip(1)] }] }, good, bad);
    }

    [Theory]
    [InlineData("\"timeline\": [", "\"timeline\": null, \"was\": [")]
    [InlineData("\"peak\": 5,", "\"peak\": -5,")]
    [InlineData("\"atAllowedShare\": 0.5", "\"atAllowedShare\": 7")]
    [InlineData("\"binMs\": 10", "\"binMs\": -10")]
    [InlineData("\"witnesses\": [", "\"witnesses\": [null, ")]
    [InlineData("\"slots\": 4", "\"slots\": 0")]
    [InlineData("\"boundMs\": 240", "\"boundMs\": -240")]
    [InlineData("\"kind\": \"couldNotStart\"", "\"kind\": \"couldNotStartle\"")]
    [InlineData("\"cause\": \"poolThreadsBlocked\"", "\"cause\": \"gremlins\"")]
    [InlineData("\"meanMs\": 20", "\"meanMs\": -20")]
    public void ItemsInFlightOrALimitInsideTheItems_ThisBuildCannotRead_AreRefusedInOneLine(string good, string bad)
    {
        var run = ExporterTests.SampleRun();
        var scenario = run.Scenarios[0];
        var inFlight = new ConcurrencyLab.Measurement.ItemsInFlight { Mean = 2.5, Peak = 5, Allowed = 4, AtAllowedShare = 0.5, BinMs = 10, Timeline = [1, 2, 3] };
        var variants = scenario.Variants.Select(v => v with { Trials = [.. v.Trials.Select(t => t with { InFlight = inFlight })] }).ToList();
        var limit = new InsideLimit { AtOnce = 4, Slots = 4, ItemLeastMs = 20, BestPerSecond = 200, Best = "a", Items = 48, BoundMs = 240, Witnesses = [new LimitWitness("b", 40, 190, 10)], Cores = 0.1, ProcessorCount = 2 };
        var notStarted = new CouldNotStart { Variant = "c", InFlight = new InFlightFigures { Mean = 3, Peak = 5, Allowed = 128 }, Cause = StartCause.PoolThreadsBlocked, ProcessorCount = 2, MedianMs = 900, Ratio = 4 };
        var answer = new Recommendation { Fastest = "a", FastestMs = 240, Use = "a", Because = UseBecause.Fastest, Limit = limit, Avoid = [notStarted] };
        var least = new ItemLeastTimes { Items = 48, MeanMs = 20, LongestMs = 21, Timings = 9, Variants = 3 };
        AssertRefusedInOneLine(run with { Scenarios = [scenario with { Variants = variants, Recommendations = [answer], ItemTimes = least }] }, good, bad);
    }

    [Theory]
    [InlineData("\"baselineLine\": \"parallel-for@4\"", "\"baselineLine\": \"../../elsewhere\"")]
    [InlineData("\"baselineLine\": \"parallel-for@4\"", "\"baselineLine\": \"channel\\u001b[31m\"")]
    public void AGrowthsBaselineLine_ThatNamesNoLineOfIt_IsRefusedInOneLine(string good, string bad)
    {
        var run = ExporterTests.SampleRun();
        var growth = new GrowthResult
        {
            Parameter = "items",
            Sizes = [100, 1000],
            BaselineLine = "parallel-for@4",
            Lines = [new LineGrowth { Line = "channel", MediansMs = [50, 52] }, new LineGrowth { Line = "parallel-for@4", MediansMs = [60, 600] }],
        };
        AssertRefusedInOneLine(run with { Scenarios = [run.Scenarios[0] with { Growth = growth }] }, good, bad);
    }

    // Written, read back whole, then with good made bad: refused with one line that names the file.
    private static void AssertRefusedInOneLine(RunResult run, string good, string bad)
    {
        var path = Path.Combine(Path.GetTempPath(), $"conclab-results-test-{Guid.NewGuid():N}.json");
        try
        {
            Exporters.WriteFile(run, JsonExporter.Default, path);
            Assert.Equal(run.Scenarios.Count, ResultsFile.Read(path).Scenarios.Count);
            var text = File.ReadAllText(path);
            Assert.Contains(good, text, StringComparison.Ordinal);
            File.WriteAllText(path, text.Replace(good, bad, StringComparison.Ordinal));

            var error = Assert.Throws<ResultsFileException>(() => ResultsFile.Read(path));

            Assert.DoesNotContain('\n', error.Message);
            Assert.Contains(path, error.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }

    public static TheoryData<string> NotResultsFiles() => ["/dev/zero", "/dev/null", "fifo", "sparse", "empty", "folder"];

    [SkippableTheory]
    [MemberData(nameof(NotResultsFiles))]
    public async Task SomethingThatIsNoResultsFile_IsRefusedAtOnce_WithoutReadingIt(string what)
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "devices, FIFOs and sparse files as Linux has them");
        var folder = Directory.CreateTempSubdirectory("conclab-not-results-").FullName;
        try
        {
            var path = what switch
            {
                "fifo" or "sparse" or "empty" => Path.Combine(folder, what + ".json"),
                "folder" => folder,
                _ => what,
            };
            if (what == "fifo")
            {
                using var mkfifo = System.Diagnostics.Process.Start("mkfifo", path);
                await mkfifo.WaitForExitAsync();
            }
            else if (what is "sparse" or "empty")
            {
                // 3 GiB of nothing on disk: reading it whole is what ran out of memory.
                using var file = File.Create(path);
                file.SetLength(what == "sparse" ? 3L << 30 : 0);
            }

            // Reading a FIFO with no writer, or /dev/zero, never ended: a bound turns that into a failure.
            var read = Task.Run(() => ResultsFile.Read(path));
            var error = await Assert.ThrowsAsync<ResultsFileException>(() => read.WaitAsync(TimeSpan.FromSeconds(10)));

            Assert.DoesNotContain('\n', error.Message);
            Assert.Contains(path, error.Message, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
