using System.Text.Json;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Reporting;

public sealed class ExporterTests
{
    internal static RunResult SampleRun()
    {
        var trial = new TrialResult
        {
            Metrics = Measured.Metrics(
                51.5,
                (StandardMetrics.Cpu, 9),
                (StandardMetrics.UserCpu, 6),
                (StandardMetrics.SystemCpu, 3),
                (StandardMetrics.CoresUsed, 9 / 51.5),
                (StandardMetrics.PeakThreads, 12),
                (StandardMetrics.PeakPoolThreads, 3),
                (StandardMetrics.PeakQueueLength, 4),
                (StandardMetrics.Allocated, 40960),
                (StandardMetrics.P50, 26),
                (StandardMetrics.P95, 46),
                (StandardMetrics.P99, 48),
                (StandardMetrics.MaxLatency, 49.5)),
            ItemsPlanned = 100,
            ItemsCompleted = 100,
            Isolated = true,
            Samples = [new Sample(0, 11, 2, 0, 0), new Sample(10, 12, 3, 4, 2.5)],
        };
        var failed = TrialResult.Unmeasured(TrialStatus.Failed, "boom, \"quoted\" | piped", isolated: true);
        return new RunResult
        {
            StartedAt = "2026-11-22T17:00:00.0000000+00:00",
            Environment = new EnvironmentInfo { Os = "TestOS", Runtime = ".NET 10", ProcessorCount = 2, GcMode = "workstation, concurrent", Architecture = "x64" },
            Settings = new RunSettings { Repeat = 1, Warmup = 0, Seed = 42, Isolated = true, TrialTimeoutSec = 120, SampleIntervalMs = 10, Prime = true },
            Scenarios =
            [
                new ScenarioResult
                {
                    Name = "delay",
                    Parameters = new Dictionary<string, string> { ["items"] = "100" },
                    IdealMs = 49,
                    IdealReason = "the longest single delay",
                    Baseline = "whenall",
                    Variants =
                    [
                        new VariantResult { Name = "broken", Description = "fails", Status = TrialStatus.Failed, Trials = [failed] },
                        new VariantResult
                        {
                            Name = "whenall",
                            Description = "async",
                            Status = TrialStatus.Ok,
                            Trials = [trial],
                            Summary = new VariantSummary
                            {
                                Trials = 1, MedianWallMs = 51.5, MinWallMs = 51.5, MaxWallMs = 51.5, CiLowMs = 51.5, CiHighMs = 51.5, Efficiency = 49 / 51.5, RatioToBaseline = 1, Spread = 1,
                                Medians = VariantSummary.MediansOf([trial], []),
                            },
                        },
                    ],
                },
            ],
        };
    }

    [Fact]
    public void Json_HoldsEveryContractField()
    {
        using var writer = new StringWriter();
        JsonExporter.Default.Export(SampleRun(), writer);
        using var document = JsonDocument.Parse(writer.ToString());
        var root = document.RootElement;

        Assert.Equal(3, root.GetProperty("schemaVersion").GetInt32());
        foreach (var name in new[] { "os", "runtime", "processorCount", "gcMode" })
        {
            Assert.True(root.GetProperty("environment").TryGetProperty(name, out _), name);
        }

        var scenario = root.GetProperty("scenarios")[0];
        foreach (var name in new[] { "name", "parameters", "idealMs", "variants" })
        {
            Assert.True(scenario.TryGetProperty(name, out _), name);
        }

        var variant = scenario.GetProperty("variants")[1];
        Assert.Equal("whenall", variant.GetProperty("name").GetString());
        Assert.Equal("ok", variant.GetProperty("status").GetString());
        var trial = variant.GetProperty("trials")[0];
        foreach (var name in new[] { "itemsPlanned", "itemsCompleted", "metrics", "samples" })
        {
            Assert.True(trial.TryGetProperty(name, out _), name);
        }

        // Version 2: every measurement is a metric, by its id; the ids are version 1's field names.
        foreach (var name in new[] { "wallMs", "cpuMs", "coresUsed", "peakThreads", "peakPoolThreads", "peakQueueLength", "allocatedBytes", "p50Ms", "p95Ms", "p99Ms", "maxMs" })
        {
            Assert.True(trial.GetProperty("metrics").TryGetProperty(name, out _), name);
        }

        Assert.Equal(2, trial.GetProperty("samples").GetArrayLength());
        var summary = variant.GetProperty("summary");
        foreach (var name in new[] { "medianWallMs", "ciLowMs", "ciHighMs", "efficiency", "ratioToBaseline", "medians" })
        {
            Assert.True(summary.TryGetProperty(name, out _), name);
        }

        Assert.Equal(12, summary.GetProperty("medians").GetProperty("peakThreads").GetDouble());

        Assert.Equal("failed", scenario.GetProperty("variants")[0].GetProperty("status").GetString());
    }

    [Fact]
    public void Json_RoundTrips()
    {
        var path = Path.Combine(Path.GetTempPath(), $"conclab-test-{Guid.NewGuid():N}.json");
        try
        {
            Exporters.WriteFile(SampleRun(), JsonExporter.Default, path);
            var back = ResultsFile.Read(path);
            Assert.Equal(51.5, back.Scenarios[0].Variants[1].Trials[0].WallMs);
            Assert.Equal(12, back.Scenarios[0].Variants[1].Trials[0].Samples[1].Threads);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Snapshot_Markdown()
    {
        using var writer = new StringWriter { NewLine = "\n" };
        MarkdownExporter.GitHub.Export(SampleRun(), writer);
        Snapshot.Matches("results.md", writer.ToString());
    }

    [Fact]
    public void Snapshot_Csv()
    {
        using var writer = new StringWriter { NewLine = "\n" };
        CsvExporter.Default.Export(SampleRun(), writer);
        Snapshot.Matches("results.csv", writer.ToString());
    }

    [Fact]
    public void Markdown_SortsByMedian_ListsFailuresLast_AndEscapesPipes()
    {
        using var writer = new StringWriter();
        MarkdownExporter.GitHub.Export(SampleRun(), writer);
        var text = writer.ToString();

        var lines = text.Split('\n');
        var header = Array.FindIndex(lines, l => l.StartsWith("| Variant |", StringComparison.Ordinal));
        Assert.True(header > 0);
        Assert.StartsWith("| whenall | ok | 51.5 |", lines[header + 2], StringComparison.Ordinal);
        Assert.StartsWith("| broken | failed |", lines[header + 3], StringComparison.Ordinal);
        Assert.Contains("Fastest: **`whenall`**, median 51.5 ms, efficiency 0.95", text, StringComparison.Ordinal);
        Assert.Contains("boom, \"quoted\" \\| piped", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Csv_OneRowPerTrial_QuotedPerRfc4180()
    {
        using var writer = new StringWriter();
        CsvExporter.Default.Export(SampleRun(), writer);
        var lines = writer.ToString().TrimEnd('\n').Split('\n');

        Assert.Equal(3, lines.Length);
        Assert.StartsWith("scenario,variant,repeat,status,wallMs", lines[0], StringComparison.Ordinal);
        Assert.EndsWith(",\"boom, \"\"quoted\"\" | piped\"", lines[1], StringComparison.Ordinal);
        Assert.StartsWith("delay,whenall,0,ok,51.5,12,", lines[2], StringComparison.Ordinal);
    }

    [Fact]
    public void Csv_CarriesEveryScenarioMetric_AsAColumnOfItsOwn_TheDescribedOnesFirst()
    {
        var run = WithScenarioMetrics(SampleRun());
        using var writer = new StringWriter();
        CsvExporter.Default.Export(run, writer);
        var lines = writer.ToString().TrimEnd('\n').Split('\n');

        Assert.EndsWith(",error,messagesPerSec,lost", lines[0], StringComparison.Ordinal);
        Assert.EndsWith("piped\",,", lines[1], StringComparison.Ordinal);
        Assert.EndsWith(",,99.5,0", lines[2], StringComparison.Ordinal);
        Assert.Equal(lines[0].Count(c => c == ','), lines[2].Count(c => c == ','));
    }

    [Fact]
    public void Markdown_ShowsAScenariosReportedChecks_AsMedianColumns()
    {
        using var writer = new StringWriter();
        MarkdownExporter.GitHub.Export(WithScenarioMetrics(SampleRun()), writer);
        var lines = writer.ToString().Split('\n');

        var header = Array.Find(lines, l => l.StartsWith("| Variant |", StringComparison.Ordinal))!;
        Assert.Contains("| Msgs/s | Trials ok |", header, StringComparison.Ordinal);
        var row = Array.Find(lines, l => l.StartsWith("| whenall |", StringComparison.Ordinal))!;
        Assert.Contains("| 99.5 | 1/1 |", row, StringComparison.Ordinal);
        var failed = Array.Find(lines, l => l.StartsWith("| broken |", StringComparison.Ordinal))!;
        Assert.Contains("|  | 0/1 |", failed, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new[] { 4800.0, -1, -1 }, "never")]
    [InlineData(new[] { -1.0, 3800, 4600, 3700, 5100 }, "4600")]
    [InlineData(new[] { 0.0, 0, -1 }, "0")]
    public void NeverColumn_CountsNeverAboveEveryValue(double[] values, string expected)
    {
        var steady = ConcurrencyLab.Experiments.Poll.PollScenario.SteadyStateMs;
        TrialResult[] trials = [.. values.Select(v => new TrialResult { Metrics = Measured.Metrics(10, (steady, v)) })];
        var variant = new VariantResult
        {
            Name = "v",
            Description = "d",
            Status = TrialStatus.Ok,
            Trials = trials,
            Summary = ConcurrencyLab.Analysis.Summarizer.Summarise(trials, 0, null, [steady]),
        };

        Assert.Equal(expected, ResultColumn.MetricColumn(steady).Format(SampleRun().Scenarios[0], variant));
    }

    /// <summary>The sample run, with the scenario's own metric messagesPerSec described and recorded, and lost recorded undescribed.</summary>
    private static RunResult WithScenarioMetrics(RunResult run)
    {
        var messages = Metric.Rate("messagesPerSec", "Msgs/s") with { Visibility = MetricVisibility.Everywhere };
        var lost = Metric.Count("lost", "Lost");
        var scenario = run.Scenarios[0];
        var variants = scenario.Variants.Select(v =>
        {
            if (v.Name != "whenall")
            {
                return v;
            }

            var metrics = new MetricValues { [messages] = 99.5, [lost] = 0 };
            metrics.AddRange(v.Trials[0].Metrics);
            TrialResult[] trials = [v.Trials[0] with { Metrics = metrics }];
            return v with { Trials = trials, Summary = v.Summary! with { Medians = VariantSummary.MediansOf(trials, [messages]) } };
        }).ToList();
        return run with { Scenarios = [scenario with { Variants = variants, Metrics = [messages] }] };
    }
}
