using System.Net;
using ConcurrencyLab.Experiments.Scan;
using ConcurrencyLab.Strategies;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The scan workload classifies every host of a real fleet, in every form, under blocking and async strategies.</summary>
[Collection(nameof(ScanFleets))]
public sealed class ScanWorkloadTests
{
    // Socket completions on Linux are delivered through the thread pool. A blocking variant holds pool
    // threads while it waits, so with as few pool threads as cores an open host's answer can arrive after
    // the timeout and read as silence. That starvation is what the scan benchmark measures (misclassified);
    // this test checks correctness, so it gives the pool enough threads up front.
    static ScanWorkloadTests() => ThreadPool.SetMinThreads(32, 32);

    /// <summary>Every variant the scan scenario runs by default, by its lab name, plus the blocking sync form.</summary>
    public static TheoryData<string> ScanVariants() =>
    [
        "sequential-apm", "sequential-tap", "task-loop-tap", "task-run-waitall-apm", "task-run-waitall-tap", "mix-and-match",
        "parallel-for@default-apm", "parallel-for@default-tap", "parallel-for@999-apm", "parallel-for@999-tap",
        "whenall", "whenall-apm", "foreach-async@4", "channel-workers@4", "semaphore@4", "task-run-waitall-sync",
    ];

    [Theory]
    [MemberData(nameof(ScanVariants))]
    public async Task Scan_SmallFleet_ClassifiesEveryHost(string variantName)
    {
        var scan = new ConcurrencyLab.Experiments.Scan.ScanScenario();
        Assert.True(scan.Variants(ConcurrencyLab.Scenarios.ParameterValues.Create(scan.Parameters, null, quick: true, out _)).TryParse(variantName, out var named, out var error), error);
        var variant = ConcurrencyLab.Scenarios.BatchVariant.Of(named);
        var layout = FleetLayout.Generate(8, 2, 1, 1, seed: 11);
        await using var fleet = await Fleet.StartAsync(layout);
        var workload = new ScanWorkload([.. layout.Hosts.Select(h => new IPEndPoint(h.Address, fleet.Port))], TimeSpan.FromMilliseconds(1500));
        var batch = new WorkBatch(workload, variant.Form);

        batch.MarkStart();
        await variant.Strategy.ExecuteAsync(batch, variant.Degree).WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(8, batch.Completed);
        Assert.Equal(0, workload.Misclassified([.. layout.Hosts.Select(h => h.Kind)]));
        Assert.Equal(layout.Count(HostKind.Open), fleet.Accepted);
    }

    [Theory]
    [InlineData("10.0.0.1")]
    [InlineData("192.168.1.10")]
    [InlineData("8.8.8.8")]
    public void Scan_TargetOutsideLoopback_IsRefused_UnlessAllowed(string address)
    {
        IPEndPoint[] targets = [new(IPAddress.Loopback, 80), new(IPAddress.Parse(address), 80)];

        var error = Assert.Throws<ArgumentException>(() => new ScanWorkload(targets, TimeSpan.FromMilliseconds(100)));
        Assert.Contains("outside 127.0.0.0/8", error.Message, StringComparison.Ordinal);

        // Allowing it only builds the workload; no test ever connects anywhere but loopback.
        Assert.Equal(2, new ScanWorkload(targets, TimeSpan.FromMilliseconds(100), allowNonLoopback: true).Count);
    }
}
