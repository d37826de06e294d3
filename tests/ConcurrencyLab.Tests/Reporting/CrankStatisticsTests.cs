using System.Text.Json;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Reproduction;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>The run's figures as crank's agent reads them, by a reimplementation of the agent's own rule.</summary>
public sealed class CrankStatisticsTests
{
    // The agent's deserialiser matches names whatever their case.
    private static readonly JsonSerializerOptions AsTheAgent = new() { PropertyNameCaseInsensitive = true };

    private static readonly string[] Operations = ["First", "Last", "Avg", "Sum", "Median", "Max", "Min", "Count", "All", "Delta"];

    [Fact]
    public void TheAgent_ReadsEveryVariantsFigures_AsResultsJsonHoldsThem()
    {
        var run = ExporterTests.SampleRun();
        run = run with
        {
            Scenarios = [run.Scenarios[0] with { Recommendations = [new Recommendation { Fastest = "whenall", FastestMs = 51.5, Use = "whenall", Because = UseBecause.Fastest }] }],
        };

        // Whatever the run printed before, the block comes last.
        var output = "a table\n| whenall | 51.5 |\n" + CrankStatistics.Block(run, new DateTimeOffset(2026, 11, 27, 10, 0, 0, TimeSpan.Zero));
        var read = AgentReads(output);

        Assert.NotNull(read);
        var values = read.Measurements.ToDictionary(m => m.Name, m => m.Value);
        Assert.Equal(51.5, values["conclab/delay/whenall/median"].GetDouble());
        Assert.Equal(51.5, values["conclab/delay/whenall/ciLow"].GetDouble());
        Assert.Equal(51.5, values["conclab/delay/whenall/ciHigh"].GetDouble());
        Assert.Equal(49 / 51.5, values["conclab/delay/whenall/efficiency"].GetDouble(), 12);
        Assert.Equal(12, values["conclab/delay/whenall/peakThreads"].GetDouble());
        Assert.Equal(3, values["conclab/delay/whenall/peakPoolThreads"].GetDouble());
        Assert.Equal(1, values["conclab/delay/whenall/okTrials"].GetDouble());
        Assert.Equal("whenall", values["conclab/delay/use"].GetString());

        // A variant with no ok trial says so, and has no median to report.
        Assert.Equal(0, values["conclab/delay/broken/okTrials"].GetDouble());
        Assert.False(values.ContainsKey("conclab/delay/broken/median"));

        // Each measurement has its metadata, once, with operations the agent knows.
        Assert.Equal(read.Measurements.Select(m => m.Name).Order(), read.Metadata.Select(m => m.Name).Order());
        Assert.Equal(read.Metadata.Count, read.Metadata.Select(m => m.Name).Distinct().Count());
        Assert.All(read.Metadata, m => Assert.Contains(m.Aggregate, Operations));
        Assert.All(read.Metadata, m => Assert.Contains(m.Reduce, Operations));
        Assert.All(read.Metadata, m => Assert.False(string.IsNullOrWhiteSpace(m.ShortDescription)));
    }

    [Fact]
    public void OutputAfterTheBlock_HidesItFromTheAgent_SoTheBlockMustBeLast()
    {
        var block = CrankStatistics.Block(ExporterTests.SampleRun(), DateTimeOffset.UnixEpoch);

        Assert.NotNull(AgentReads(block));
        Assert.Null(AgentReads(block + "one more line\n"));
        Assert.EndsWith(CrankStatistics.EndMarker + "\n", block, StringComparison.Ordinal);
    }

    [Fact]
    public void TheAgent_ReadsEveryClaimsVerdict_OfAReproduction_AndHowManyCameToEach()
    {
        static ClaimVerdict Row(string claim, string run, Verdict verdict, string? condition = null) =>
            new("delay", "delayed items", run, "isolated", new ClaimResult { Id = claim, Claim = "a claim", Published = "12x", Verdict = verdict, Condition = condition });
        var reproduction = new ReproductionResult
        {
            StartedAt = "2026-11-27T12:00:00Z",
            Seconds = 428.04,
            Environment = ExporterTests.SampleRun().Environment,
            Claims =
            [
                Row("delay-channel-12x", "isolated", Verdict.Holds),
                Row("delay-channel-12x", "as-published", Verdict.DoesNotHold),
                Row("delay-aot/build", "builds", Verdict.HoldsOnly, "in the note's build"),
                Row("delay-channel-position", "as-published", Verdict.CouldNotJudge),
                Row("delay-channel-position", "as-published", Verdict.NotTested),
            ],
            Runs = [],
        };

        var read = AgentReads("judging\n" + ReproductionCrankStatistics.Block(reproduction, DateTimeOffset.UnixEpoch));

        Assert.NotNull(read);
        var values = read.Measurements.ToDictionary(m => m.Name, m => m.Value);
        Assert.Equal("holds", values["conclab/reproduce/delay/delay-channel-12x/isolated/verdict"].GetString());
        Assert.Equal("does not hold", values["conclab/reproduce/delay/delay-channel-12x/as-published/verdict"].GetString());

        // A '/' in a claim's id never makes a level of its own; two rows of one claim and run are never one name.
        Assert.Equal("holds only in the note's build", values["conclab/reproduce/delay/delay-aot_build/builds/verdict"].GetString());
        Assert.Equal("could not be judged", values["conclab/reproduce/delay/delay-channel-position/as-published/verdict"].GetString());
        Assert.Equal("not tested", values["conclab/reproduce/delay/delay-channel-position/as-published-2/verdict"].GetString());

        Assert.Equal(1, values["conclab/reproduce/holds"].GetDouble());
        Assert.Equal(1, values["conclab/reproduce/doesNotHold"].GetDouble());
        Assert.Equal(1, values["conclab/reproduce/holdsOnly"].GetDouble());
        Assert.Equal(1, values["conclab/reproduce/couldNotJudge"].GetDouble());
        Assert.Equal(1, values["conclab/reproduce/notTested"].GetDouble());
        Assert.Equal(428, values["conclab/reproduce/seconds"].GetDouble());
        Assert.Equal(read.Metadata.Count, read.Metadata.Select(m => m.Name).Distinct().Count());
        Assert.All(read.Metadata, m => Assert.Contains(m.Aggregate, Operations));
        Assert.All(read.Metadata, m => Assert.Contains(m.Reduce, Operations));
    }

    /// <summary>
    /// What crank's agent makes of a job's standard output (its ParseMeasurementOutput, reimplemented): when the last
    /// line holds the end marker, the lines after the last start marker before it, joined, deserialised; null otherwise.
    /// </summary>
    internal static AgentStatistics? AgentReads(string output)
    {
        var lines = output.Replace("\r", string.Empty, StringComparison.Ordinal).TrimEnd('\n').Split('\n');
        if (!lines[^1].Contains(CrankStatistics.EndMarker, StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        var start = lines.Length - 1;
        while (start >= 0 && !lines[start].Contains(CrankStatistics.StartMarker, StringComparison.OrdinalIgnoreCase))
        {
            start--;
        }

        if (start < 0 || start == lines.Length - 1)
        {
            return null;
        }

        var json = string.Join('\n', lines.Skip(start + 1).Take(lines.Length - start - 2));
        return JsonSerializer.Deserialize<AgentStatistics>(json, AsTheAgent);
    }

    internal sealed record AgentStatistics(List<AgentMetadata> Metadata, List<AgentMeasurement> Measurements);

    internal sealed record AgentMetadata(string Source, string Name, string Aggregate, string Reduce, string Format, string ShortDescription, string LongDescription);

    internal sealed record AgentMeasurement(string Name, DateTimeOffset Timestamp, JsonElement Value);
}
