using ConcurrencyLab.Analysis;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests;

/// <summary>
/// The public answer <c>Lab.MeasureAsync</c> returns, on a workload whose answer is known by construction:
/// 16 items that each wait 25 ms, so every item waiting at once (whenall) takes about one wait and one at a time
/// (sequential) sixteen. No scenario of the lab is this one.
/// </summary>
public sealed class LabResultTests : IDisposable
{
    private const int Items = 16;
    private const int WaitMs = 25;

    private readonly string _folder = Path.Combine(Path.GetTempPath(), $"conclab-labresult-{Guid.NewGuid():N}");

    public void Dispose()
    {
        if (Directory.Exists(_folder))
        {
            Directory.Delete(_folder, recursive: true);
        }
    }

    private static readonly Lazy<Task<LabResult>> Measured = new(() => Lab.MeasureAsync(
        [new WorkloadScenario("waits", _ => new Waits())],
        new RunOptions { Variants = ["whenall", "sequential"], Repeat = 3, RepeatExactly = true, Warmup = 0, InProcess = true }));

    [Fact]
    public async Task TheAnswer_NamesTheVariantThatWaitsAtOnce_AndAvoidsTheOneThatWaitsInTurn_WithTheRunsOwnFigures()
    {
        var run = await Measured.Value;

        var scenario = Assert.Single(run.Scenarios);
        Assert.Equal("waits", scenario.Name);
        Assert.False(run.Cancelled);
        var whenall = scenario.Variants.Single(v => v.Name == "whenall");
        var sequential = scenario.Variants.Single(v => v.Name == "sequential");
        Assert.All(scenario.Variants, v => Assert.Equal((3, 3), (v.Trials, v.OkTrials)));
        Assert.Equal("sequential", sequential.Key!.Family);

        // Sixteen waits in turn against one at a time: about 16x by construction, asserted at 3x.
        Assert.True(sequential.WallMs!.Value.Median > 3 * whenall.WallMs!.Value.Median, $"{sequential.WallMs} against {whenall.WallMs}");
        Assert.InRange(whenall.WallMs.Value.Median, whenall.WallMs.Value.Low, whenall.WallMs.Value.High);
        Assert.Equal(sequential.WallMs.Value.Median, sequential.Medians["wallMs"], 6);
        var baseline = Assert.IsType<VariantFigures>(scenario.Baseline);
        Assert.Equal(sequential.WallMs.Value.Median / baseline.WallMs!.Value.Median, sequential.RatioToBaseline!.Value, 6);

        var answer = Assert.Single(scenario.Answers);
        Assert.Null(answer.Group);
        Assert.Same(whenall, answer.Fastest);
        Assert.Same(whenall, answer.Use);
        var avoided = Assert.Single(answer.Avoid, a => a.Variant == sequential);
        Assert.False(string.IsNullOrWhiteSpace(avoided.Why));
        Assert.StartsWith("Use: ", answer.Lines[0], StringComparison.Ordinal);
        Assert.Contains(answer.Lines, l => l.StartsWith("Avoid", StringComparison.Ordinal) && l.Contains("sequential", StringComparison.Ordinal));
    }

    [Fact]
    public async Task ToJson_IsTheResultsFile_WhichTheLabReadsBack_AndAThresholdChecksTheSameRun()
    {
        var run = await Measured.Value;
        Directory.CreateDirectory(_folder);
        var path = Path.Combine(_folder, "results.json");
        await File.WriteAllTextAsync(path, run.ToJson());

        var read = ConcurrencyLab.Results.ResultsFile.Read(path);
        Assert.Equal(
            run.Scenarios[0].Variants.Select(v => (v.Name, v.WallMs!.Value.Median)),
            read.Scenarios[0].Variants.Select(v => (v.Name, v.Summary!.MedianWallMs)));

        Assert.True(Threshold.TryParse("waits/whenall:ratio>=1", out var threshold, out var error), error);
        var check = Assert.Single(threshold!.Check(run));
        Assert.False(check.Met, check.Message);
    }

    [Fact]
    public async Task WriteReports_WritesTheReportsAndCharts_AndSaysWhatCouldNotBeWritten()
    {
        var run = await Measured.Value;

        var written = run.WriteReports(_folder);

        Assert.Equal(
            ["report.html", "results.csv", "results.json", "results.md"],
            written.Where(p => Path.GetDirectoryName(p) == _folder).Select(Path.GetFileName).Order(StringComparer.Ordinal));
        Assert.Contains(written, p => p.EndsWith(".svg", StringComparison.Ordinal));
        Assert.All(written, p => Assert.True(File.Exists(p), p));

        // A folder that is a file: nothing can be written, and the exception names the files.
        var blocked = Path.Combine(_folder, "results.json", "inside");
        var failure = Assert.Throws<IOException>(() => run.WriteReports(blocked));
        Assert.Contains("results.md", failure.Message, StringComparison.Ordinal);
    }

    private sealed class Waits : Workload
    {
        public override int Count => Items;

        public override string Digest => $"{Items}x{WaitMs} ms";

        public override void Run(int index, CancellationToken cancellationToken) => Thread.Sleep(WaitMs);

        public override async ValueTask RunAsync(int index, CancellationToken cancellationToken) =>
            await Task.Delay(WaitMs, cancellationToken);
    }
}
