namespace ConcurrencyLab.IntegrationTests;

/// <summary>--assert as a CI job uses it: a breach exits 3 with every result written; a bad threshold exits 2 before anything runs.</summary>
public sealed class ThresholdProcessTests
{
    private static string TestWorkloadsDll => ProgramRunner.TestWorkloadsDll;

    [Fact]
    public async Task ABreach_ExitsWithItsOwnCode_AfterEveryResultIsWritten()
    {
        using var folder = new TempFolder();

        // Each item waits 50 ms: no variant's median can be 1 ms, and none can lose an item.
        var result = await ProgramRunner.RunAsync(TestWorkloadsDll, folder.Path,
            ["run", "sleep", "--items", "4", "--wait-ms", "50", "--variants", "whenall", "--repeat", "1", "--warmup", "0", "--events", "off", "--out", "out", "--plain",
             "--assert", "whenall:median<=1", "--assert", "*:lost==0"]);

        Assert.True(result.ExitCode == 3, result.ToString());
        Assert.Contains("threshold not met: whenall:median<=1: sleep/whenall: median", result.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("*:lost==0", result.Output, StringComparison.Ordinal);
        foreach (var file in new[] { "results.json", "results.md", "results.csv", "report.html" })
        {
            Assert.True(File.Exists(Path.Combine(folder.Path, "out", file)), file);
        }
    }

    [Fact]
    public async Task MetThresholds_LeaveTheExitCodeAtZero()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.RunAsync(TestWorkloadsDll, folder.Path,
            ["run", "sleep", "--items", "4", "--wait-ms", "20", "--variants", "whenall", "--repeat", "1", "--warmup", "0", "--events", "off", "--out", "out", "--plain",
             "--assert", "whenall:median<=60000", "--assert", "*:failed==0"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("2 threshold(s) met.", result.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("whenall median 3", "--assert takes")]
    [InlineData("whenal:median<=3", "this run measures no such variant")]
    [InlineData("whenall:lost<=2ideal", "only a median can be a multiple of the ideal")]
    public async Task ABadThreshold_IsOneLine_AndExits2_BeforeAnythingRuns(string threshold, string expected)
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.RunAsync(TestWorkloadsDll, folder.Path, ["run", "sleep", "--variants", "whenall", "--out", "out", "--assert", threshold]);

        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.Error.Trim().Split('\n'));
        Assert.Contains(expected, result.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "out")));
    }
}
