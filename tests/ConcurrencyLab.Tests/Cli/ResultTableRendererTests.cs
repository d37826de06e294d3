using ConcurrencyLab.Measurement;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Tests.Reporting;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Cli;

public sealed class ResultTableRendererTests
{
    [Fact]
    public void Table_ListsVariantsByMedian_WithTheBestAndItsEfficiency()
    {
        var text = Render(ExporterTests.SampleRun().Scenarios[0]);

        Assert.True(text.IndexOf("whenall", StringComparison.Ordinal) < text.IndexOf("broken (failed)", StringComparison.Ordinal));
        Assert.Contains("Fastest: whenall, median 51.5 ms, efficiency 0.95 against the ideal.", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Flags", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Table_FlagsAVariantWhoseFlaggedCheckIsNotZero()
    {
        var scenario = ExporterTests.SampleRun().Scenarios[0];
        var whenall = scenario.Variants[1];
        var misclassified = Metric.Count("misclassified", "Misclassified") with { FlagsWhenNotZero = true };
        var flagged = whenall with { Summary = whenall.Summary! with { Medians = new Dictionary<string, double>(whenall.Summary.Medians) { ["misclassified"] = 7 } } };
        scenario = scenario with { Metrics = [misclassified], Variants = [scenario.Variants[0], flagged] };

        var text = Render(scenario);

        Assert.Contains("Flags", text, StringComparison.Ordinal);
        Assert.Contains("misclassified 7", text, StringComparison.Ordinal);
    }

    public static TheoryData<string, int> ScenariosAndWidths()
    {
        var data = new TheoryData<string, int>();
        foreach (var scenario in ScenarioCatalog.BuiltIn)
        {
            data.Add(scenario.Name, 120);
            data.Add(scenario.Name, 80);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ScenariosAndWidths))]
    public void TheDefaultTable_FitsTheTerminal_WithEveryVariantNameWhole_AndSaysWhatItLeftOut(string name, int width)
    {
        var scenario = Wide(name);

        var output = new StringWriter();
        TestConsole.Create(output, width).Write(ResultTableRenderer.Render(scenario, columns: TableColumns.Default, width: width));
        var lines = output.ToString().Split('\n');

        Assert.All(lines, l => Assert.True(l.TrimEnd().Length <= width, $"{l.TrimEnd().Length} > {width}: {l}"));
        Assert.All(scenario.Variants, v => Assert.Contains(lines, l => l.Contains("│ " + v.Name + " ", StringComparison.Ordinal)));
        var (shown, leftOut) = TableColumns.Default.For(scenario, width);
        Assert.Contains(shown, c => c.Id == "medianWallMs");
        Assert.True(TableColumns.Width(scenario, shown) <= width);
        Assert.Equal(leftOut.Count > 0, lines.Any(l => l.StartsWith("Left out to fit", StringComparison.Ordinal)));
    }

    [Fact]
    public void TheDefaultColumns_AreTheOnesThatDecide_AndAllOrNamedOnesAreTheirs()
    {
        var scenario = Wide("fanout");

        var (shown, leftOut) = TableColumns.Default.For(scenario, int.MaxValue);

        Assert.Empty(leftOut);
        Assert.Equal(["variant", "medianWallMs", "ci95Ms", "efficiency", "peakThreads", "peakPoolThreads", "cpuMs", "starvationInjections", "serverPeakThreads", "serverPeakPoolThreads", "trials", "flags"], shown.Select(c => c.Id));

        // At 80 columns the CPU and the interval go first.
        var (_, narrow) = TableColumns.Default.For(scenario, 80);
        Assert.Equal(["cpuMs", "ci95Ms"], narrow.Take(2).Select(c => c.Id));

        Assert.True(TableColumns.TryParse("ALL", [], out var all, out _));
        Assert.Equal(ResultColumn.For(scenario).Count, all.For(scenario, 80).Columns.Count);
        Assert.True(TableColumns.TryParse("peakThreads, serverPeakThreads", ScenarioCatalog.BuiltIn.SelectMany(s => s.Metrics), out var named, out _));
        Assert.Equal(["variant", "peakThreads", "serverPeakThreads"], named.For(scenario, 80).Columns.Select(c => c.Id));
        Assert.False(TableColumns.TryParse("peakThreads,nosuch", [], out _, out var problem));
        Assert.StartsWith("--columns: no column 'nosuch'; columns are all, or variant, status, medianWallMs", problem, StringComparison.Ordinal);
        Assert.False(TableColumns.TryParse(" , ", [], out _, out _));
    }

    [Fact]
    public void TheItemsInFlight_AreAColumn_WhereTheAnswerCitesThem_AndKeptOverThePoolsThreadsWhenTheTableIsNarrow()
    {
        var scenario = Wide("delay");
        Assert.DoesNotContain(TableColumns.Default.For(scenario, int.MaxValue).Columns, c => c.Id == StandardMetrics.InFlightMean.Id);

        var held = new HeldToItsDegree { Variant = scenario.Variants[1].Name, Degree = 4, Ratio = 14, InFlight = new InFlightFigures { Mean = 4, Peak = 4, Allowed = 4 }, FastestInFlight = 40 };
        var cited = scenario with { Recommendations = [new Recommendation { Fastest = scenario.Variants[0].Name, FastestMs = 100, Because = UseBecause.Fastest, Avoid = [held] }] };
        var (shown, _) = TableColumns.Default.For(cited, int.MaxValue);
        Assert.Contains(shown, c => c.Id == StandardMetrics.InFlightMean.Id);

        // Narrowed past the CPU, the interval and the starvation adds: the pool's threads go before the items in flight.
        var narrow = TableColumns.Width(cited, shown.Where(c => c.Id is not ("cpuMs" or "ci95Ms" or "starvationInjections"))) - 1;
        var (_, leftOut) = TableColumns.Default.For(cited, narrow);
        Assert.Contains(leftOut, c => c.Id == StandardMetrics.PeakPoolThreads.Id);
        Assert.DoesNotContain(leftOut, c => c.Id == StandardMetrics.InFlightMean.Id);
    }

    // A scenario's default variants at full scale, each with three trials whose every metric is wide: the widest
    // table the scenario makes.
    private static ScenarioResult Wide(string name)
    {
        var scenario = ScenarioCatalog.BuiltIn.Single(s => s.Name == name);
        var parameters = ParameterValues.Create(scenario.Parameters, new Dictionary<string, string>(), quick: false, out _);
        var metrics = StandardMetrics.All.Concat(scenario.Metrics).Select(m => m.Id).Distinct().ToList();
        var variants = scenario.DefaultVariants(parameters).Select(v =>
        {
            var trials = Enumerable.Range(0, 3).Select(i => new TrialResult
            {
                Repeat = i,
                Metrics = metrics.ToDictionary(id => id, id => id == StandardMetrics.WallTime.Id ? 123456.7 + i : 12345.6 + i),
            }).ToList();
            return new VariantResult
            {
                Name = v.Name,
                Description = v.Description,
                Parameters = v.Parameters,
                Status = TrialStatus.Ok,
                Trials = trials,
                Summary = ConcurrencyLab.Analysis.Summarizer.Summarise(trials, 100, 123456.7, scenario.Metrics),
            };
        }).ToList();
        return new ScenarioResult
        {
            Name = name,
            Parameters = parameters.Values,
            IdealMs = 100,
            IdealReason = "made up",
            Baseline = variants[0].Name,
            Variants = variants,
            Metrics = scenario.Metrics,
        };
    }

    [Fact]
    public void TheRuntimesAccount_IsACompactTable_OfTheVariantsWhoseThreadsItExplains_WithNoZerosSpelledOut()
    {
        var scenario = ExporterTests.SampleRun().Scenarios[0];
        var account = new RuntimeAccount
        {
            Events = RuntimeEvents.Full,
            PoolTargetAtStart = 2,
            PoolAdjustments =
            [
                .. Enumerable.Range(1, 11).Select(i => new PoolAdjustment(i * 50, 2 + i, PoolAdjustmentReason.CooperativeBlocking, 0)),
                new PoolAdjustment(900, 3, PoolAdjustmentReason.ThreadTimedOut, 0),
            ],
            LockContentions = new BlockedTime(0, 0, 0),
            Waits = new BlockedTime(40, 9290, 800),
            GcPauses = new BlockedTime(0, 0, 0),
        };
        var calm = new RuntimeAccount { Events = RuntimeEvents.Full, PoolTargetAtStart = 2, LockContentions = new(0, 0, 0), Waits = new(0, 0, 0), GcPauses = new(0, 0, 0) };
        var variants = scenario.Variants.Select((v, i) => v with { Trials = [.. v.Trials.Select(t => t with { Runtime = i == 1 ? account : calm })] }).ToList();
        scenario = scenario with { Variants = variants };

        var output = new StringWriter();
        TestConsole.Create(output, width: 100).Write(ResultTableRenderer.Render(scenario, width: 100));
        var lines = output.ToString().Split('\n').Select(l => l.TrimEnd()).ToList();

        Assert.All(lines, l => Assert.True(l.Length <= 100, $"{l.Length} > 100: {l}"));
        Assert.DoesNotContain(lines, l => l.StartsWith("Runtime:", StringComparison.Ordinal));
        var row = Assert.Single(lines, l => l.Contains("2 -> 13 -> 3", StringComparison.Ordinal));
        Assert.StartsWith(variants[1].Name, row.Trim(), StringComparison.Ordinal);
        Assert.Equal(["2 -> 13 -> 3", "11", "9290"], System.Text.RegularExpressions.Regex.Split(row.Trim()[variants[1].Name.Length..].Trim(), " {2,}"));

        // The calm variant added no thread: it has no row, and its zeros are nowhere.
        var header = lines.FindIndex(l => l.Contains("Pool target", StringComparison.Ordinal));
        var legend = lines.FindIndex(l => l.StartsWith("+blocking:", StringComparison.Ordinal));
        Assert.True(header > 0 && legend > header, output.ToString());
        Assert.Equal([row], lines[(header + 1)..legend].Where(l => l.Length > 0 && !l.TrimStart().StartsWith('─') && !l.Contains("climbing", StringComparison.Ordinal)));
        Assert.DoesNotContain("0 starvation", output.ToString(), StringComparison.Ordinal);
    }

    private static string Render(ScenarioResult scenario)
    {
        var output = new StringWriter();
        TestConsole.Create(output, width: 250).Write(ResultTableRenderer.Render(scenario));
        return output.ToString();
    }
}
