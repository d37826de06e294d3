using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The sample under samples/ puts its own workload through every strategy.</summary>
public sealed class SampleTests
{
    [Fact]
    public async Task Sample_RunsItsOwnWorkloadThroughEveryStrategy()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.RunAsync(ProgramRunner.SampleDll, folder.Path, [], TimeSpan.FromMinutes(4));

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("## fetch-and-hash", result.Output, StringComparison.Ordinal);

        var json = Directory.GetFiles(Path.Combine(folder.Path, "conclab-results"), "results.json", SearchOption.AllDirectories).Single();
        using var document = JsonDocument.Parse(File.ReadAllText(json));
        var variants = document.RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().ToList();
        var strategies = variants.Select(v => v.GetProperty("name").GetString()!.Split('@')[0].Replace("-tap", "", StringComparison.Ordinal)).ToHashSet();

        // Every strategy but parallel-foreach (run only when named) takes part.
        Assert.Equal(13, strategies.Count);
        Assert.All(variants, v =>
        {
            Assert.Equal("ok", v.GetProperty("status").GetString());
            Assert.All(v.GetProperty("trials").EnumerateArray(), t =>
            {
                Assert.Equal(60, t.GetProperty("itemsCompleted").GetInt32());
                Assert.True(t.GetProperty("isolated").GetBoolean());
            });
        });
    }
}
