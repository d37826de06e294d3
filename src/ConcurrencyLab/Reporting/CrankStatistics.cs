using System.Text;
using System.Text.Json;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// A run's figures as crank's agent reads a job's own measurements: one JSON object between a line
/// <see cref="StartMarker"/> and a line <see cref="EndMarker"/> on standard output, the block the last thing written
/// (the agent parses when a line holding the end marker arrives, from the last start marker before it). Every
/// measurement is named <c>conclab/SCENARIO/VARIANT/QUANTITY</c>; docs/crank.md lists the quantities.
/// </summary>
internal static class CrankStatistics
{
    /// <summary>The line before the block.</summary>
    public const string StartMarker = "#StartJobStatistics";

    /// <summary>The line after it.</summary>
    public const string EndMarker = "#EndJobStatistics";

    /// <summary>
    /// How crank combines a measurement of one job run on several agents (its Reduce): every agent's value kept, side by
    /// side, since a median of medians measured on different machines describes none of them.
    /// </summary>
    public const string AcrossAgents = "All";

    /// <summary>What each measurement is called after its scenario and variant, and how crank shows and combines it.</summary>
    internal static IReadOnlyList<Quantity> Quantities { get; } =
    [
        new("median", "n1", "ms", "median wall time of the ok trials, ms", (v, _) => v.Summary?.MedianWallMs),
        new("ciLow", "n1", "ms", "95% confidence interval of the median, low end, ms", (v, _) => v.Summary?.CiLowMs),
        new("ciHigh", "n1", "ms", "95% confidence interval of the median, high end, ms", (v, _) => v.Summary?.CiHighMs),
        new("efficiency", "n2", string.Empty, "the ideal over the median: 1 is the physical bound", (v, _) => v.Summary?.Efficiency),
        new("peakThreads", "n0", string.Empty,
            "the trial process's OS threads at their highest, median over trials", (v, _) => Median(v, StandardMetrics.PeakThreads)),
        new("peakPoolThreads", "n0", string.Empty,
            "the trial process's pool threads at their highest, median over trials", (v, _) => Median(v, StandardMetrics.PeakPoolThreads)),
        new("starvationInjections", "n0", string.Empty,
            "times the pool added a thread for starvation, median over trials (runtime events)",
                (v, _) => Median(v, StandardMetrics.StarvationInjections)),
        new("blockingInjections", "n0", string.Empty,
            "times the pool added a thread for blocking, median over trials (runtime events)",
                (v, _) => Median(v, StandardMetrics.BlockingInjections)),
        new("okTrials", "n0", string.Empty, "measured trials that ended ok", (v, _) => v.Summary?.Trials ?? 0),
    ];

    /// <summary>The statistics of <paramref name="run"/>, stamped <paramref name="at"/>.</summary>
    public static CrankJobStatistics Of(RunResult run, DateTimeOffset at)
    {
        ArgumentNullException.ThrowIfNull(run);
        var metadata = new List<CrankMetadata>();
        var measurements = new List<CrankMeasurement>();
        void Add(string name, object value, string aggregate, string reduce, string format, string shortDescription, string longDescription)
        {
            metadata.Add(new CrankMetadata("conclab", name, aggregate, reduce, format, shortDescription, longDescription));
            measurements.Add(new CrankMeasurement(name, at, value));
        }

        foreach (var scenario in run.Scenarios)
        {
            foreach (var variant in scenario.Variants)
            {
                foreach (var quantity in Quantities)
                {
                    if (quantity.Read(variant, scenario) is { } value && double.IsFinite(value))
                    {
                        var name = Name(scenario.Name, variant.Name, quantity.Id);
                        Add(name, value, "Last",
                            AcrossAgents,
                                quantity.Format, $"{scenario.Name} {variant.Name} {quantity.Id}{(quantity.Unit.Length > 0 ? $" ({quantity.Unit})" : string.Empty)}", $"{scenario.Name}, {variant.Name}: {quantity.Description}");
                    }
                }
            }

            foreach (var answer in scenario.Recommendations ?? [])
            {
                // Text, not a number: the variant to use, as the report's answer names it, or why none.
                var name = Name(scenario.Name, answer.Group, "use");
                Add(name, answer.Use ?? $"none sound ({answer.Because})", "Last",
                    AcrossAgents,
                        string.Empty, $"{scenario.Name}{(answer.Group is null ? string.Empty : " " + answer.Group)} use", $"{scenario.Name}: the variant to use{(answer.Group is null ? string.Empty : $" at {answer.Group}")}, as the report's answer names it (fastest: {answer.Fastest})");
            }

            foreach (var variant in scenario.Load?.Variants ?? [])
            {
                if (variant.Saturation?.RatePerSecond is { } rate)
                {
                    Add(Name(scenario.Name, variant.Name, "saturation"), rate, "Last", AcrossAgents,
                        "n0", $"{scenario.Name} {variant.Name} saturation (/s)", $"{scenario.Name}, {variant.Name}: the highest rate a " +
                            $"second kept up with, median over repeats ({variant.Saturation.Limit})");
                }
            }
        }

        return new CrankJobStatistics(metadata, measurements);
    }

    /// <summary>The block as the agent reads it: the start marker, the JSON on one line, the end marker, each ending its line.</summary>
    public static string Block(RunResult run, DateTimeOffset at) => Framed(Of(run, at));

    /// <summary>Statistics framed as the agent reads them: the start marker, the JSON on one line, the end marker.</summary>
    internal static string Framed(CrankJobStatistics statistics)
    {
        var text = new StringBuilder();
        text.Append(StartMarker).Append('\n');
        // Names and descriptions may hold text from a results file: no marker inside the block either.
        text.Append(Hosting.ProtocolLines.Neutralise(JsonSerializer.Serialize(statistics, CrankJson))).Append('\n');
        text.Append(EndMarker).Append('\n');
        return text.ToString();
    }

    // PascalCase, as crank's own models are written; one line, so no other output lands inside the block.
    private static readonly JsonSerializerOptions CrankJson = new() { WriteIndented = false };

    // conclab/SCENARIO/VARIANT/QUANTITY; a part that is null is left out. A ';' would start crank's alias and a '/'
    // a level of its own: neither is in a name the lab makes, and each would become '_' if it were.
    private static string Name(string scenario, string? variant, string quantity) =>
        string.Join('/', new[] { "conclab", scenario, variant, quantity }.Where(p => p is not null).Select(p => Part(p!)));

    /// <summary>One part of a name, made safe: a ';' would start crank's alias and a '/' a level of its own.</summary>
    internal static string Part(string part) => part.Replace(';', '_').Replace('/', '_');

    private static double? Median(VariantResult variant, Metric metric) => variant.Summary?.Median(metric);

    /// <summary>One figure per variant: its id in the name, crank's format for it, its unit, what it is, and where it is read.</summary>
    internal sealed record Quantity(string Id, string Format, string Unit, string Description, Func<VariantResult, ScenarioResult, double?> Read);
}

/// <summary>What a crank job reports of itself, as its agent deserialises it.</summary>
/// <param name="Metadata">One per measurement name: how crank describes, aggregates and formats it.</param>
/// <param name="Measurements">The values, each with its name and time.</param>
internal sealed record CrankJobStatistics(IReadOnlyList<CrankMetadata> Metadata, IReadOnlyList<CrankMeasurement> Measurements);

/// <summary>How crank describes a measurement: <c>Aggregate</c> combines one job's values, <c>Reduce</c> the jobs'
/// aggregates (First, Last, Avg, Sum, Median, Max, Min, Count, All, Delta).</summary>
internal sealed record CrankMetadata(string Source, string Name, string Aggregate, string Reduce, string Format, string ShortDescription,
    string LongDescription);

/// <summary>One value of a measurement: a number, or text.</summary>
internal sealed record CrankMeasurement(string Name, DateTimeOffset Timestamp, object Value);
