using System.Net;
using ConcurrencyLab.Experiments.Scan;

namespace ConcurrencyLab.Tests.Scenarios.Scan;

public sealed class ScanPrimerTests
{
    private static readonly IPEndPoint[] Fleet = [.. Enumerable.Range(1, 12).Select(i => new IPEndPoint(IPAddress.Parse($"127.0.1.{i}"), 9))];

    [Fact]
    public void WithPrimerTargets_ThePrimerScansThoseHosts_InTurn_WithAShortTimeout()
    {
        var workload = new ScanWorkload(Fleet, TimeSpan.FromMilliseconds(500)) { PrimerTargets = [Fleet[0], Fleet[3], Fleet[7]] };

        var primer = Assert.IsType<ScanWorkload>(workload.CreatePrimer(4));

        Assert.Equal(4, primer.Count);
        Assert.Equal(ScanWorkload.PrimerTimeout, primer.Timeout);
        Assert.NotEqual(workload.Digest, primer.Digest);
        Assert.Equal(TimeSpan.FromMilliseconds(5), new ScanWorkload(Fleet, TimeSpan.FromMilliseconds(5)) { PrimerTargets = [Fleet[0]] }.CreatePrimer(4) is ScanWorkload brief ? brief.Timeout : TimeSpan.Zero);
    }

    [Fact]
    public void WithoutPrimerTargets_ThePrimerIsTheDryDefault_NeverAHostTheLabDidNotMake()
    {
        var workload = new ScanWorkload(Fleet, TimeSpan.FromMilliseconds(50));

        Assert.IsNotType<ScanWorkload>(workload.CreatePrimer(4));
        Assert.Equal(4, workload.CreatePrimer(4).Count);
    }
}
