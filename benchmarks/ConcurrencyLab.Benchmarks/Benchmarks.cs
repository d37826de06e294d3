using System.Diagnostics;
using BenchmarkDotNet.Attributes;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.Experiments;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Benchmarks;

/// <summary>The sampler's cost per sample, on the trial's own process: what every 10 ms of a trial pays.</summary>
[MemoryDiagnoser]
[ShortRunJob]
public class SamplerBenchmarks
{
    private const int Samples = 1000;

    [Benchmark(OperationsPerInvoke = Samples)]
    public int TakeSample()
    {
        using var sampler = new Sampler(TimeSpan.FromMilliseconds(10), Samples);
        for (var i = 0; i < Samples; i++)
        {
            sampler.TakeSample();
        }

        return sampler.Count;
    }
}

/// <summary>
/// Items in flight counted from each item's start and end: what every trial of a batch pays once, after its region
/// and before its result is written, for the batch's size.
/// </summary>
[MemoryDiagnoser]
[ShortRunJob]
public class ItemsInFlightBenchmarks
{
    private long[] _begun = [];
    private long[] _ended = [];
    private long _end;

    /// <summary>The batch's items.</summary>
    [Params(200, 10_000, 100_000)]
    public int Items { get; set; }

    [GlobalSetup]
    public void SetUp()
    {
        // Items of 1-40 ms starting over 500 ms, on a clock of 10 MHz, seeded.
        var random = new Random(42);
        _begun = [.. Enumerable.Range(0, Items).Select(_ => 1 + (long)random.Next(0, 5_000_000))];
        _ended = [.. _begun.Select(b => b + random.Next(10_000, 400_000))];
        _end = _ended.Max() + 1;
    }

    [Benchmark]
    public double Count() => ItemsInFlight.Of(_begun, _ended, 1, _end, 10_000_000, allowed: 64)!.Mean;
}

/// <summary>The runtime account of a region made from its events: the runner's cost per trial, per thousand events.</summary>
[MemoryDiagnoser]
[ShortRunJob]
public class EventAccountBenchmarks
{
    private RuntimeEventLog _log = new();
    private long _start;
    private long _end;

    [Params(1_000, 100_000)]
    public int Events { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        // A trial's mix: waits and contentions in pairs on 64 threads, workers starting, the pool adjusting, a GC now and then.
        var random = new Random(42);
        _log = new RuntimeEventLog();
        var ticks = 1_000_000L;
        _start = ticks;
        var made = 0;
        while (made < Events)
        {
            var thread = 100 + random.Next(64);
            ticks += random.Next(1, 2_000);
            switch (made % 10)
            {
                case < 6:
                    _log.Add(new RuntimeEvent(ticks, RuntimeEventKind.WaitStart, thread, RuntimeEvent.MonitorWaitSource));
                    _log.Add(new RuntimeEvent(ticks + random.Next(1, 50_000), RuntimeEventKind.WaitStop, thread));
                    made += 2;
                    break;
                case 6:
                    _log.Add(new RuntimeEvent(ticks, RuntimeEventKind.ContentionStart, thread));
                    _log.Add(new RuntimeEvent(ticks + 500, RuntimeEventKind.ContentionStop, thread, Number: 500));
                    made += 2;
                    break;
                case 7:
                    _log.Add(new RuntimeEvent(ticks, RuntimeEventKind.WorkerStart, thread));
                    made++;
                    break;
                case 8:
                    _log.Add(new RuntimeEvent(ticks, RuntimeEventKind.PoolAdjustment, thread, 10 + (made % 50), random.NextDouble() * 100, PoolAdjustmentReason.Starvation));
                    made++;
                    break;
                default:
                    _log.Add(new RuntimeEvent(ticks, RuntimeEventKind.GcStart, thread));
                    _log.Add(new RuntimeEvent(ticks + 10, RuntimeEventKind.GcSuspend, thread));
                    _log.Add(new RuntimeEvent(ticks + 900, RuntimeEventKind.GcRestart, thread));
                    made += 3;
                    break;
            }
        }

        _end = ticks + 100_000;
    }

    [Benchmark]
    public RuntimeAccount Account() => _log.Account(RuntimeEvents.Full, _start, _end, Stopwatch.Frequency, complete: true, note: null, labThreads: [1, 2], caller: 100);
}

/// <summary>10,000 trials (2,000 variants of 5, the most a results file may hold) summarised, exported and read back.</summary>
[MemoryDiagnoser]
[ShortRunJob]
public class ResultsBenchmarks
{
    private const int Variants = 2_000;
    private const int Trials = 5;
    private RunRecord _record = null!;
    private RunResult _run = null!;
    private string _file = null!;

    [GlobalSetup]
    public void Setup()
    {
        var options = new RunOptions { Scenarios = ["delay"], Variants = ["whenall"] };
        if (!RunPlanner.TryCreate(options, ScenarioCatalog.BuiltIn, out var plan, out var errors))
        {
            throw new InvalidOperationException(string.Join("; ", errors));
        }

        var random = new Random(42);
        var template = plan.Scenarios[0].Variants[0];
        var variants = Enumerable.Range(0, Variants)
            .Select(i => new Variant($"whenall-{i}", template.Family, template.Form, template.Parameters, template.Description))
            .ToList();
        var scenarioPlan = plan.Scenarios[0] with { Variants = variants };
        var trials = variants.Select(v => new VariantTrials(v, [.. Enumerable.Range(0, Trials).Select(r => Trial(random, r))])).ToList();
        _record = new RunRecord
        {
            StartedAt = "2026-11-27T00:00:00Z",
            Environment = EnvironmentInfo.Current(),
            Settings = plan.Settings,
            Scenarios = [new ScenarioRecord(scenarioPlan, trials, [], scenarioPlan.Ideal, new Dictionary<string, double>())],
        };
        _run = Summarizer.Summarise(_record);
        _file = Path.Combine(Path.GetTempPath(), $"conclab-bench-{Environment.ProcessId}.json");
        using (var writer = new StreamWriter(_file))
        {
            JsonExporter.Default.Export(_run, writer);
        }

        Console.WriteLine($"// results file of {Variants * Trials:N0} trials: {new FileInfo(_file).Length / 1048576.0:0.0} MiB");
    }

    [GlobalCleanup]
    public void Cleanup() => File.Delete(_file);

    private static TrialResult Trial(Random random, int repeat)
    {
        var wall = 50 + (random.NextDouble() * 10);
        var metrics = new MetricValues
        {
            [StandardMetrics.WallTime] = wall,
            [StandardMetrics.PeakThreads] = 20 + random.Next(10),
            [StandardMetrics.PeakPoolThreads] = 4 + random.Next(4),
            [StandardMetrics.Cpu] = wall * 0.1,
            [StandardMetrics.CoresUsed] = 0.1,
            [StandardMetrics.Allocated] = 1_000_000,
        };
        return new TrialResult
        {
            Repeat = repeat,
            Isolated = true,
            ItemsPlanned = 200,
            ItemsCompleted = 200,
            Metrics = metrics,
            Samples = [.. Enumerable.Range(0, (int)(wall / 10) + 1).Select(s => new Sample(s * 10, 20, 6, random.Next(5), s * 1.0))],
        };
    }

    [Benchmark]
    public RunResult Summarise() => Summarizer.Summarise(_record);

    [Benchmark]
    public void ExportJson() => JsonExporter.Default.Export(_run, TextWriter.Null);

    [Benchmark]
    public void ExportMarkdown() => MarkdownExporter.GitHub.Export(_run, TextWriter.Null);

    [Benchmark]
    public RunResult ReadBack() => ResultsFile.Read(_file);
}
