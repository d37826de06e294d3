using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>The console's table of the runtime's account: the variants whose pool was pushed, and only the columns that say something.</summary>
public sealed class AccountTableTests
{
    private static VariantResult Variant(string name, ProcessAccount process, ProcessAccount? service = null) => new()
    {
        Name = name,
        Description = name,
        Status = TrialStatus.Ok,
        Trials = [],
        Account = new AccountSummary { Trial = 0, WallMs = 1000, Process = process, Service = service, ServiceName = service is null ? null : "product" },
    };

    private static string Render(params VariantResult[] variants)
    {
        var scenario = new ScenarioResult { Name = "s", Parameters = new Dictionary<string, string>(), IdealMs = 100, IdealReason = "r", Baseline = variants[0].Name, Variants = variants };
        var table = AccountTable.For(scenario, variants);
        Assert.NotNull(table);
        var output = new StringWriter();
        TestConsole.Create(output, width: 100).Write(table);
        return output.ToString();
    }

    [Fact]
    public void ColumnsBlankInEveryRow_AreLeftOut_WithTheirLegend()
    {
        var text = Render(Variant("waitall", new ProcessAccount { PoolTargetStart = 2, PoolTargetPeak = 9, PoolTargetEnd = 9, BlockingRaises = 7, Waits = new BlockedTime(7, 5000, 900), WorkWaits = new BlockedTime(7, 5000, 900), Join = new BlockedTime(0, 0, 0), LockContentions = new BlockedTime(0, 0, 0) }));

        Assert.Contains("+blocking", text, StringComparison.Ordinal);
        Assert.Contains("Blocked ms", text, StringComparison.Ordinal);
        Assert.DoesNotContain("+starved ", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Climbing", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Join ms", text, StringComparison.Ordinal);
        Assert.DoesNotContain("join:", text, StringComparison.Ordinal);
        Assert.Contains("5000", text, StringComparison.Ordinal);
    }

    [Fact]
    public void ACallerThatWaitedForItsBatch_BringsTheJoinColumn_AndItsFigure()
    {
        var text = Render(Variant("threadpool", new ProcessAccount { PoolTargetStart = 2, PoolTargetPeak = 5, PoolTargetEnd = 5, StarvationRaises = 3, Waits = new BlockedTime(1, 2115, 2115), WorkWaits = new BlockedTime(0, 0, 0), Join = new BlockedTime(1, 2115, 2115), LockContentions = new BlockedTime(0, 0, 0) }));

        Assert.Contains("Join ms", text, StringComparison.Ordinal);
        Assert.Contains("2115", text, StringComparison.Ordinal);
        Assert.Contains("join: the caller's wait for its batch", string.Join(' ', text.Split([' ', '\n'], StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        Assert.DoesNotContain("Blocked ms", text, StringComparison.Ordinal);
        Assert.All(text.Split('\n'), line => Assert.True(line.Length <= 100, line));
    }
}
