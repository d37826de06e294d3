using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The ideal a user's workload gets when it gives none, measured from the run, against what the run did.</summary>
public sealed class MeasuredIdealTests
{
    [Fact]
    public async Task AWorkloadWhoseBlockingFormIsSlower_GetsABoundFromItsFastestForm_ThatNoVariantBeats()
    {
        using var folder = new TempFolder();

        // 6 items whose blocking form sleeps 150 ms and whose task form waits 50: sequential runs the blocking form,
        // whenall the task form. A bound from sequential's items alone would be 150 ms, three times whenall's run.
        var result = await ProgramRunner.RunProgramAsync(
            "dotnet",
            folder.Path,
            [ProgramRunner.TestWorkloadsDll, "run", "uneven", "--items", "6", "--wait-ms", "50", "--variants", "sequential,whenall", "--repeat", "3", "--warmup", "0", "--events", "off", "--out", "out", "--plain"]);
        Assert.True(result.ExitCode == 0, result.ToString());

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        var ideal = scenario.GetProperty("idealMs").GetDouble();
        var reason = scenario.GetProperty("idealReason").GetString()!;
        Assert.True(scenario.GetProperty("idealMeasured").GetBoolean());
        Assert.StartsWith("measured: the longest item at its fastest", reason, StringComparison.Ordinal);

        // Not above any trial of any variant, and not trivially low: the task form's 50 ms wait is in it.
        var walls = scenario.GetProperty("variants").EnumerateArray()
            .SelectMany(v => v.GetProperty("trials").EnumerateArray().Select(t => (Variant: v.GetProperty("name").GetString(), Wall: t.GetProperty("metrics").GetProperty("wallMs").GetDouble())))
            .ToList();
        Assert.All(walls, w => Assert.True(ideal <= w.Wall, $"{w.Variant} ran in {w.Wall} ms, below the ideal of {ideal} ms ({reason})"));
        Assert.InRange(ideal, 45, 100);
        foreach (var variant in scenario.GetProperty("variants").EnumerateArray())
        {
            var summary = variant.GetProperty("summary");
            Assert.True(!summary.TryGetProperty("efficiency", out var e) || e.ValueKind == JsonValueKind.Null || e.GetDouble() <= 1, summary.ToString());
        }

        // The items' times went into the bound and nowhere else.
        Assert.DoesNotContain("itemTimesMs", File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")), StringComparison.Ordinal);
    }
}
