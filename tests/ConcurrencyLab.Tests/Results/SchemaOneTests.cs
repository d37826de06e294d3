using System.Text.Json;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Results;

/// <summary>
/// Files written by conclab before schema version 2 (Files/v1-*.json, written by main at fb3db5d with
/// <c>conclab run &lt;scenario&gt; --quick --variants ...</c>) still read, as version 2, with every number kept.
/// </summary>
public sealed class SchemaOneTests
{
    public static TheoryData<string> Files() => ["delay", "scan", "poll", "fanout"];

    private static string PathOf(string scenario, [System.Runtime.CompilerServices.CallerFilePath] string source = "") =>
        Path.Combine(Path.GetDirectoryName(source)!, "Files", $"v1-{scenario}.json");

    [Theory]
    [MemberData(nameof(Files))]
    public void AVersion1File_Reads_WithEveryTrialsNumbersAsItsMetrics(string scenario)
    {
        var path = PathOf(scenario);
        using var original = JsonDocument.Parse(File.ReadAllText(path));
        Assert.Equal(1, original.RootElement.GetProperty("schemaVersion").GetInt32());

        var run = ResultsFile.Read(path);

        Assert.Equal(RunResult.CurrentSchemaVersion, run.SchemaVersion);
        var before = original.RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().ToList();
        var after = Assert.Single(run.Scenarios).Variants;
        Assert.Equal(before.Count, after.Count);
        for (var v = 0; v < after.Count; v++)
        {
            Assert.Equal(before[v].GetProperty("name").GetString(), after[v].Name);
            var trials = before[v].GetProperty("trials").EnumerateArray().ToList();
            Assert.Equal(trials.Count, after[v].Trials.Count);
            for (var t = 0; t < trials.Count; t++)
            {
                var (old, trial) = (trials[t], after[v].Trials[t]);
                Assert.Equal(old.GetProperty("status").GetString(), trial.Status.ToText());
                Assert.Equal(old.GetProperty("itemsCompleted").GetInt32(), trial.ItemsCompleted);
                Assert.Equal(old.GetProperty("wallMs").GetDouble(), trial.WallMs);
                Assert.Equal(old.GetProperty("peakThreads").GetDouble(), trial.Value(StandardMetrics.PeakThreads));
                Assert.Equal(old.GetProperty("cpuMs").GetDouble(), trial.Value(StandardMetrics.Cpu));
                Assert.Equal(old.GetProperty("cpuMs").GetDouble() / old.GetProperty("wallMs").GetDouble(), trial.Value(StandardMetrics.CoresUsed)!.Value, 12);
                Assert.Equal(old.GetProperty("gc").GetProperty("gen0").GetDouble(), trial.Value(StandardMetrics.Gen0Collections));
                Assert.Equal(old.GetProperty("latency").GetProperty("p99Ms").GetDouble(), trial.Value(StandardMetrics.P99));
                Assert.Equal(old.GetProperty("samples").GetArrayLength(), trial.Samples.Count);
                if (old.TryGetProperty("checks", out var checks))
                {
                    Assert.All(checks.EnumerateObject(), c => Assert.Equal(c.Value.GetDouble(), trial.Metrics[c.Name]));
                }
            }

            // Medians are taken again from the trials, by the rule version 1 used: they equal what it wrote.
            var summary = before[v].GetProperty("summary");
            Assert.Equal(summary.GetProperty("medianWallMs").GetDouble(), after[v].Summary!.MedianWallMs);
            Assert.Equal(summary.GetProperty("ciLowMs").GetDouble(), after[v].Summary!.CiLowMs);
            Assert.Equal(summary.GetProperty("medianPeakThreads").GetDouble(), after[v].Summary!.Median(StandardMetrics.PeakThreads));
            Assert.Equal(summary.GetProperty("medianCpuMs").GetDouble(), after[v].Summary!.Median(StandardMetrics.Cpu));
            Assert.Equal(summary.GetProperty("medianP99Ms").GetDouble(), after[v].Summary!.Median(StandardMetrics.P99));
        }
    }

    [Fact]
    public void AVersion1ReportedCheck_IsAShownMetric_AndNeverStillMeansNever()
    {
        var poll = ResultsFile.Read(PathOf("poll")).Scenarios[0];

        var steady = Assert.Single(poll.Metrics, m => m.Id == "steadyStateMs");
        Assert.True(steady.NegativeMeansNever);
        Assert.Equal(MetricDirection.LowerIsBetter, steady.Direction);
        Assert.Equal("Steady (ms)", steady.HeaderWithUnit);
        Assert.Equal(MetricDirection.Neither, poll.Metrics.Single(m => m.Id == "pollsPerSec").Direction);
        Assert.Contains(ResultColumn.For(poll), c => c.Header == "Msgs/s" && c.Visibility == MetricVisibility.Everywhere);
    }

    [Fact]
    public void AVersion1FlaggedCheck_StillFlagsTheVariantWhereItWasNotZero()
    {
        var scan = ResultsFile.Read(PathOf("scan")).Scenarios[0];

        Assert.True(Assert.Single(scan.Metrics).FlagsWhenNotZero);
        var flags = ResultColumn.For(scan).Single(c => c.Id == "flags");

        // task-run-tap misread 3 hosts in one of its two trials: a median of 1.5.
        Assert.Equal("misclassified 1.5", flags.Format(scan, scan.Variants.Single(v => v.Name == "task-run-tap")));
        Assert.Equal(string.Empty, flags.Format(scan, scan.Variants.Single(v => v.Name == "sequential-apm")));
    }

    [Fact]
    public void AVersion1Service_KeepsItsMeasurementsAsMetrics()
    {
        var fanout = ResultsFile.Read(PathOf("fanout")).Scenarios[0];

        var service = fanout.Variants[0].Trials[0].Service!;
        Assert.Equal("product", service.Name);
        Assert.True(service.Value(StandardMetrics.PeakThreads) > 0);
        Assert.True(service.Value(StandardMetrics.Cpu) > 0);
        Assert.NotEmpty(service.Samples);
    }

    [Fact]
    public void AVersion1VariantsStructure_IsReadBackFromItsName_SoItsSweepsAreChartedAgain()
    {
        var delay = ResultsFile.Read(PathOf("delay"));
        Assert.All(delay.Scenarios[0].Variants, v => Assert.Null(v.Family));
        Assert.Null(SweepChart.From(delay.Scenarios[0]));

        var restored = ConcurrencyLab.Running.RecordedVariants.WithStructure(delay, ConcurrencyLab.Experiments.ScenarioCatalog.BuiltIn).Scenarios[0];

        var apm = restored.Variants.Single(v => v.Name == "parallel-for@4-apm");
        Assert.Equal(("parallel-for", Workloads.WorkForm.Apm, 4), (apm.Family, apm.Form, apm.WholeNumber("degree")));
        var sweep = SweepChart.From(restored);
        Assert.NotNull(sweep);
        Assert.Equal(["foreach-async", "parallel-for-apm"], sweep.Families.Select(f => f.Family));

        // A published name (scan's task-run-tap) stands for the lab's variant it always did.
        var scan = ConcurrencyLab.Running.RecordedVariants.WithStructure(ResultsFile.Read(PathOf("scan")), ConcurrencyLab.Experiments.ScenarioCatalog.BuiltIn).Scenarios[0];
        var published = scan.Variants.Single(v => v.Name == "task-run-tap");
        Assert.Equal(("task-run-waitall", Workloads.WorkForm.Tap), (published.Family, published.Form));
    }

    [Theory]
    [MemberData(nameof(Files))]
    public void EveryReport_IsWrittenFromAVersion1File(string scenario)
    {
        var run = ResultsFile.Read(PathOf(scenario));
        var folder = Directory.CreateTempSubdirectory("conclab-v1-report-").FullName;
        try
        {
            var failures = Exporters.ExportAll(run, folder, Exporters.Default, out var written);

            Assert.Empty(failures);
            Assert.Contains(written, p => p.EndsWith("report.html", StringComparison.Ordinal));
            var markdown = File.ReadAllText(Path.Combine(folder, "results.md"));
            Assert.All(run.Scenarios[0].Variants, v => Assert.Contains($"| {v.Name} |", markdown, StringComparison.Ordinal));

            // And the file written back is of this schema, and reads as the same run.
            var again = ResultsFile.Read(Path.Combine(folder, "results.json"));
            Assert.Equal(RunResult.CurrentSchemaVersion, again.SchemaVersion);
            Assert.Equal(run.Scenarios[0].Variants.Select(v => v.Summary?.Medians.Count), again.Scenarios[0].Variants.Select(v => v.Summary?.Medians.Count));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
