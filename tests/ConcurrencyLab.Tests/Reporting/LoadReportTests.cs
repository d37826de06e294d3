using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Tests.Analysis;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>A load run's report: each variant's saturation said with what stopped it, an order said only where the repeats tell it, and the same table in every file.</summary>
public sealed class LoadReportTests
{
    internal static RunResult Run(params LoadVariant[] variants) => new()
    {
        StartedAt = "2026-11-27T00:00:00.0000000+00:00",
        Environment = new EnvironmentInfo { Os = "TestOS", Runtime = ".NET 10", ProcessorCount = 2, MachineName = "lab", GcMode = "workstation", Architecture = "x64" },
        Settings = new RunSettings { Repeat = 3, Seed = 42, Isolated = true },
        Scenarios =
        [
            new ScenarioResult
            {
                Name = "load",
                Parameters = new Dictionary<string, string> { ["rate"] = "auto from 16" },
                IdealMs = 0,
                IdealReason = "none",
                Baseline = variants[0].Name,
                Variants = [],
                Load = new LoadResult { Url = "http://127.0.0.1:5000/", Command = "dotnet MyService.dll", Arrivals = "constant", Searched = true, StepSeconds = 2, WarmupSeconds = 0.5, TimeoutSeconds = 3, Variants = variants },
            },
        ],
    };

    internal static LoadVariant Variant(string name, params LoadStep[] steps) => new()
    {
        Name = name,
        Path = "/" + name,
        SloMs = 50,
        Steps = steps,
        Saturation = ConcurrencyLab.Analysis.Saturation.Of(steps, 50, 2),
    };

    private static LoadVariant Async => Variant("async", SaturationTests.Step(100, repeat: 0), SaturationTests.Step(200, repeat: 0), SaturationTests.Step(400, repeat: 0, completed: 0.5),
        SaturationTests.Step(100, repeat: 1), SaturationTests.Step(220, repeat: 1), SaturationTests.Step(440, repeat: 1, completed: 0.5));

    private static LoadVariant Sync(double second) => Variant("sync", SaturationTests.Step(50, repeat: 0), SaturationTests.Step(100, repeat: 0, completed: 0.3), SaturationTests.Step(second, repeat: 1), SaturationTests.Step(second * 2, repeat: 1, completed: 0.3));

    private static IReadOnlyList<Statement> Said(RunResult run) =>
        [.. ScenarioReport.Of(run.Scenarios[0], 2).OfType<BulletList>().Single(b => b.Kind == "saturation").Items];

    [Fact]
    public void EachVariant_SaysItsRate_ItsRange_AndWhatStoppedIt()
    {
        var said = Said(Run(Async, Sync(60)));

        var async = Assert.Single(said, s => s.Text.StartsWith("async keeps up", StringComparison.Ordinal));
        Assert.Equal("async keeps up to 210/s (200 to 220 over 2 repeats): at 400/s only 50% of the requests completed (200/s). There, the service used 25% of the machine's CPU and the load generator 5%.", async.Text);
        Assert.Contains(said, s => s.Text.StartsWith("sync keeps up to 55/s (50 to 60 over 2 repeats): at 100/s only 30% of", StringComparison.Ordinal));
    }

    [Fact]
    public void TheOneThatKeepsUpWithTheMost_IsSaidOnlyWhereTheRangesAreApart()
    {
        var apart = Said(Run(Async, Sync(60)));
        var overlapping = Said(Run(Async, Variant("sync", SaturationTests.Step(100, repeat: 0), SaturationTests.Step(210, repeat: 0), SaturationTests.Step(420, repeat: 0, completed: 0.2))));

        Assert.Equal(Tone.Fastest, apart[0].Tone);
        Assert.StartsWith("Keeps up with the most: async, 210/s, 3.8x sync", apart[0].Text, StringComparison.Ordinal);
        Assert.StartsWith("No variant kept up with clearly the most", overlapping[0].Text, StringComparison.Ordinal);
        Assert.DoesNotContain(overlapping, s => s.Tone == Tone.Fastest);
    }

    [Fact]
    public void AServiceThatDied_IsSaidToHaveStoppedThere_NotToKeepUpHigher()
    {
        var died = Variant("async", SaturationTests.Step(512), SaturationTests.Step(1024), SaturationTests.Step(2048, completed: 0.2, exitCode: 134));
        var said = Said(Run(died, Sync(60)));

        var line = Assert.Single(said, s => s.Text.StartsWith("async ", StringComparison.Ordinal));
        Assert.StartsWith("async keeps up to 1024/s: at 2048/s the service exited (code 134) during the step, which it did not live through", line.Text, StringComparison.Ordinal);
        Assert.DoesNotContain(said, s => s.Text.Contains("higher", StringComparison.Ordinal));
        Assert.DoesNotContain("at least", said[0].Text, StringComparison.Ordinal);
    }

    [Fact]
    public void AStepCutShortWithNoExitCode_LeavesWhatIsAboveUnjudged()
    {
        // As files written before a service's exit was kept on its step: stopped, no code.
        var old = Variant("async", SaturationTests.Step(512), SaturationTests.Step(1024), SaturationTests.Step(2048, stopped: true));
        var said = Said(Run(old, Sync(60)));

        var line = Assert.Single(said, s => s.Text.StartsWith("async ", StringComparison.Ordinal));
        Assert.Contains("the step at 2048/s was cut short, so whether it keeps up with more could not be judged", line.Text, StringComparison.Ordinal);
        Assert.DoesNotContain("is higher", line.Text, StringComparison.Ordinal);
    }

    [Fact]
    public void AClimbTheGeneratorEnded_IsAFloor_NotThePoint()
    {
        var fast = Variant("async", SaturationTests.Step(100), SaturationTests.Step(200), SaturationTests.Step(400, late: 0.3, p99: 90));
        var said = Said(Run(fast, Sync(60)));

        Assert.Contains("at least 200/s", said[0].Text, StringComparison.Ordinal);
        Assert.Contains(said, s => s.Text.Contains("the load generator fell behind its own schedule", StringComparison.Ordinal));
    }

    [Fact]
    public void TheCause_NamesThePoolsRaises_FromTheRuntimesAccount()
    {
        var runtime = new RuntimeAccount { Events = RuntimeEvents.Full, PoolTargetAtStart = 2, PoolAdjustments = [new PoolAdjustment(10, 3, PoolAdjustmentReason.CooperativeBlocking, 0), new PoolAdjustment(20, 4, PoolAdjustmentReason.Starvation, 0)] };
        var variant = Variant("sync", SaturationTests.Step(50), SaturationTests.Step(100, completed: 0.3, runtime: runtime));

        var said = Said(Run(variant));

        Assert.Contains("by the runtime's account the pool added threads 1 times for starvation and 1 for blocking, to a target of 4", said.Single().Text, StringComparison.Ordinal);
    }

    [Fact]
    public void TheStepsTable_FlagsTheStepsThatDidNotKeepUp_AsData_NotByItsOwnText()
    {
        // Async's third step of each repeat completed half its requests; sync's second of each, 30%.
        var run = Run(Async, Sync(60));
        foreach (var table in ScenarioReport.Of(run.Scenarios[0], 2).OfType<TextTable>().Where(t => t.Kind.StartsWith("load-steps", StringComparison.Ordinal)))
        {
            Assert.Equal(table.Rows.Count, table.Flagged.Count);
            Assert.Equal([false, false, true, false, false, true, false, true, false, true], table.Flagged);
            Assert.All(table.Rows.Zip(table.Flagged), r => Assert.Equal(r.Second, r.First[^1] != "kept up"));
        }
    }

    [Fact]
    public void TheStepsTable_IsTheSameInMarkdownAndHtml()
    {
        var run = Run(Async, Sync(60));
        var markdown = new StringWriter();
        var html = new StringWriter();

        MarkdownExporter.GitHub.Export(run, markdown);
        HtmlExporter.Default.Export(run, html);

        Assert.Contains("| variant | repeat | offered /s | sent /s | done /s | done % |", markdown.ToString(), StringComparison.Ordinal);
        Assert.Contains("| async | 2 | 440 | 440 | 220 | 50 |", markdown.ToString(), StringComparison.Ordinal);
        Assert.Contains("<table class=\"load-steps\">", html.ToString(), StringComparison.Ordinal);
        Assert.Contains("<td>async</td><td class=\"n\">2</td><td class=\"n\">440</td>", html.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("none succeeded", html.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void TheCsv_HasARowPerStep()
    {
        var csv = new StringWriter();

        CsvExporter.Default.Export(Run(Async, Sync(60)), csv);

        var lines = csv.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.StartsWith("scenario,variant,repeat,offeredPerSecond,connections,", lines[0], StringComparison.Ordinal);
        Assert.Equal(1 + 6 + 4, lines.Length);
        Assert.StartsWith("load,async,1,440,,440,220,", lines[6], StringComparison.Ordinal);
        Assert.EndsWith(",Completions", lines[6].TrimEnd('\r'), StringComparison.Ordinal);
    }

    [Fact]
    public void TheCharts_AreDrawnFromTheSteps()
    {
        var charts = Chart.For(Run(Async, Sync(60)).Scenarios[0]);

        Assert.Equal(["latency", "throughput"], charts.Select(c => c.Kind));
        var latency = Assert.IsType<SweepChart>(charts[0]);
        Assert.Equal(["async p99", "async p50", "sync p99", "sync p50"], latency.Families.Select(f => f.Family));
        var throughput = Assert.IsType<SweepChart>(charts[1]);
        Assert.Equal([100, 200, 220, 400, 440], throughput.Families[0].Points.Select(p => p.N));
        Assert.Equal(throughput.Ns.Select(n => (double)n), throughput.IdealPoints.Select(p => p.Ms));
        foreach (var chart in charts)
        {
            Assert.StartsWith("<svg", SvgCharts.Draw(chart), StringComparison.Ordinal);
        }
    }

    [Fact]
    public void AFileWithABadStep_IsRefusedInOneLine()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-load-file-");
        try
        {
            var path = Path.Combine(folder.FullName, "results.json");
            var good = Run(Async);
            foreach (var bad in new[] { "\"offeredPerSecond\": 100,", "\"completed\": 200," })
            {
                Exporters.WriteFile(good, JsonExporter.Default, path);
                var text = File.ReadAllText(path);
                Assert.Contains(bad, text, StringComparison.Ordinal);
                File.WriteAllText(path, text.Replace(bad, bad.Replace("100", "-100", StringComparison.Ordinal).Replace("200", "-1", StringComparison.Ordinal), StringComparison.Ordinal));

                var error = Assert.Throws<ResultsFileException>(() => ResultsFile.Read(path));

                Assert.Contains("load.variants[0].steps[", error.Message, StringComparison.Ordinal);
                Assert.DoesNotContain('\n', error.Message);
            }

            Exporters.WriteFile(good, JsonExporter.Default, path);
            File.WriteAllText(path, File.ReadAllText(path).Replace("\"steps\": [", "\"steps\": [null, ", StringComparison.Ordinal));
            Assert.Contains("steps[0] holds a null", Assert.Throws<ResultsFileException>(() => ResultsFile.Read(path)).Message, StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void AFileWritten_ReadsBackTheSame()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-load-file-");
        try
        {
            var path = Path.Combine(folder.FullName, "results.json");
            var run = Run(Async, Sync(60));
            Exporters.WriteFile(run, JsonExporter.Default, path);

            var read = ResultsFile.Read(path).Scenarios[0].Load!;

            Assert.Equal(run.Scenarios[0].Load!.Variants.Select(v => v.Saturation!.RatePerSecond), read.Variants.Select(v => v.Saturation!.RatePerSecond));
            Assert.Equal(run.Scenarios[0].Load!.Variants[0].Steps[2].Latency, read.Variants[0].Steps[2].Latency);
            Assert.Equal(LoadLimit.Completions, read.Variants[0].Saturation!.Limit);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public void AFileWhereARepeatKeptUpWithNoRate_ReadsBack()
    {
        // Every step over its SLO, in both repeats: saturation.perRepeat is [null, null], as a blocking endpoint wrote it.
        var folder = Directory.CreateTempSubdirectory("conclab-load-file-");
        try
        {
            var path = Path.Combine(folder.FullName, "results.json");
            var run = Run(Variant("sync", SaturationTests.Step(1, repeat: 0, p99: 7000), SaturationTests.Step(1, repeat: 1, p99: 7000)));
            Exporters.WriteFile(run, JsonExporter.Default, path);

            var read = ResultsFile.Read(path).Scenarios[0].Load!.Variants[0].Saturation!;

            Assert.Equal([null, null], read.PerRepeat);
            Assert.Equal(LoadLimit.BelowLowest, read.Limit);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }
}
