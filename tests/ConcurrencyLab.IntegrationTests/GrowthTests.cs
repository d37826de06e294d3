using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary><c>--grow</c> from the command line: every variant at each size, each trial given its size, and the growth said.</summary>
public sealed class GrowthTests
{
    [Fact]
    public async Task GrowingTheItems_RunsEachSizeWithItsOwnItems_AndTellsALinearLineFromAFlatOne()
    {
        using var folder = new TempFolder();

        // Items that only wait 20 ms: whenall waits for all at once (flat), parallel-for@2 two at a time (linear).
        var result = await ProgramRunner.RunProgramAsync(
            "dotnet",
            folder.Path,
            [ProgramRunner.ConclabDll, "run", "mix", "--grow", "items=10,20,40", "--cpu-ms", "0", "--wait-ms", "20", "--variants", "whenall,parallel-for@2", "--repeat", "2", "--warmup", "0", "--events", "off", "--out", "out", "--plain"]);
        Assert.True(result.ExitCode == 0, result.ToString());

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];

        // Six variants, each of whose trials ran the items of its own size.
        var variants = scenario.GetProperty("variants").EnumerateArray().ToList();
        Assert.Equal(6, variants.Count);
        foreach (var variant in variants)
        {
            var size = int.Parse(variant.GetProperty("parameters").GetProperty("items").GetString()!, System.Globalization.CultureInfo.InvariantCulture);
            Assert.All(variant.GetProperty("trials").EnumerateArray(), t => Assert.Equal(size, t.GetProperty("itemsPlanned").GetInt32()));
        }

        var growth = scenario.GetProperty("growth");
        Assert.Equal("items", growth.GetProperty("parameter").GetString());
        Assert.Equal([10, 20, 40], growth.GetProperty("sizes").EnumerateArray().Select(s => s.GetInt32()));
        var lines = growth.GetProperty("lines").EnumerateArray().ToDictionary(l => l.GetProperty("line").GetString()!);
        var flat = lines["whenall"].GetProperty("exponent").GetDouble();
        var linear = lines["parallel-for@2"].GetProperty("exponent").GetDouble();
        Assert.True(linear > flat + 0.5, $"parallel-for@2 grew as items^{linear}, whenall as items^{flat}");
        Assert.Equal(20, lines["parallel-for@2"].GetProperty("stopsKeepingUpAt").GetInt32());

        // Each size weighed on its own, and said.
        Assert.Equal(3, scenario.GetProperty("recommendations").GetArrayLength());
        Assert.True(File.Exists(Path.Combine(folder.Path, "out", "charts", "mix-growth.svg")));
        var report = File.ReadAllText(Path.Combine(folder.Path, "out", "results.md"));
        Assert.Contains("How the time grew with `items`, from 10 to 40", report, StringComparison.Ordinal);
        Assert.Contains("`parallel-for@2`: as items^", report, StringComparison.Ordinal);
        Assert.DoesNotContain("results are not comparable", report, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ABadGrow_IsOneLine_AndExitCode2_BeforeAnythingRuns()
    {
        using var folder = new TempFolder();

        var result = await ProgramRunner.ConclabAsync(folder.Path, "run", "mix", "--grow", "items=100", "--out", "out");

        Assert.Equal(2, result.ExitCode);
        Assert.Equal("conclab: --grow items: a growth needs 2 to 12 different sizes, not 1 ('100').", result.Error.Trim());
        Assert.False(Directory.Exists(Path.Combine(folder.Path, "out")));
    }
}
