using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary><c>--dop auto</c> as a user runs it: the degree searched before the run, and the run at the degree found.</summary>
public sealed class DegreeSearchTests
{
    [Fact]
    public async Task DopAuto_SearchesTheDegree_RunsTheOneFound_AndSaysHowItWasFound()
    {
        using var folder = new TempFolder();

        // 64 items that each wait 20 ms on a timer: the more at once the better, up to all 64 (20 ms against 640 ms
        // at 2). The search starts at the core count and must climb to 32 or more.
        // Every trial: foreach-async@default (640 ms) would otherwise stop after 2, far out of contention.
        var result = await Run(folder, "--items", "64", "--wait-ms", "20", "--variants", "foreach-async", "--dop", "auto", "--repeat-exactly", "3", "--warmup", "0");
        Assert.True(result.ExitCode == 0, result.ToString());

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        var search = scenario.GetProperty("degreeSearches").EnumerateArray().Single();
        var chosen = search.GetProperty("chosen").GetInt32();
        Assert.Equal("foreach-async", search.GetProperty("family").GetString());
        Assert.InRange(chosen, 32, 1024);
        var tried = search.GetProperty("tried").EnumerateArray().Select(t => t.GetProperty("degree").GetInt32()).ToList();
        Assert.Equal(Environment.ProcessorCount, tried.Min());
        Assert.Contains(chosen, tried);
        Assert.InRange(tried.Count, 3, 10);

        // The run measured the degree found, with the full repeat count, beside the API's own default it was named
        // at (foreach-async alone is foreach-async@default), which is a variant of its own and stays.
        var variants = scenario.GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!, v => v.GetProperty("trials").GetArrayLength());
        Assert.Equal(new Dictionary<string, int> { [$"foreach-async@{chosen}"] = 3, ["foreach-async@default"] = 3 }, variants);
        Assert.Contains($"foreach-async@{chosen}'s degree was searched", result.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task DopAuto_StartsAtTheCoresTheTrialsSee_AndStopsAtTheItems()
    {
        using var folder = new TempFolder();

        // --cores 4: the trials' runtime sees 4 cores, so the search starts there; 8 items cap it at 8.
        var result = await Run(folder, "--items", "8", "--wait-ms", "20", "--variants", "foreach-async", "--dop", "auto", "--cores", "4", "--repeat", "1", "--warmup", "0");
        Assert.True(result.ExitCode == 0, result.ToString());

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var tried = json.RootElement.GetProperty("scenarios")[0].GetProperty("degreeSearches")[0].GetProperty("tried").EnumerateArray().Select(t => t.GetProperty("degree").GetInt32()).ToList();
        Assert.Equal(4, tried.Min());
        Assert.Equal(8, tried.Max());
    }

    [Theory]
    [InlineData("auto,8")]
    [InlineData("8,AUTO")]
    public async Task DopAuto_WithDegrees_IsRefusedInOneLine_BeforeAnythingRuns(string dop)
    {
        using var folder = new TempFolder();

        var result = await Run(folder, "--dop", dop);

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("auto searches the degree, so it cannot be given with degrees", result.Error, StringComparison.Ordinal);
        Assert.Single(result.Error.Trim().Split('\n'));
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "out")));
    }

    private static Task<ProgramRunner.Result> Run(TempFolder folder, params string[] args) =>
        ProgramRunner.RunProgramAsync("dotnet", folder.Path, [ProgramRunner.TestWorkloadsDll, "run", "sleep", .. args, "--events", "off", "--out", "out", "--plain"]);
}
