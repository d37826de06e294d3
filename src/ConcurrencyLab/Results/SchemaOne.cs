using System.Text.Json.Nodes;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Results;

/// <summary>
/// Reads a <c>results.json</c> of schema version 1 as version 2. Version 1 spread a trial's measurements over
/// named fields (<c>wallMs</c>, <c>gc.gen0</c>, <c>latency.p99Ms</c>) and a scenario's own counts over
/// <c>checks</c>; version 2 keeps them all in one <c>metrics</c> map, by the same ids (the GC counts become
/// <c>gen0Collections</c>...). A scenario's <c>reportedChecks</c> and <c>flaggedChecks</c> become metric
/// descriptors. Summaries' medians are taken again from the trials, by the rule version 1 used for them.
/// </summary>
internal static class SchemaOne
{
    // A trial's numbers that are not measurements: they stay fields of their own.
    private static readonly string[] TrialFields = ["repeat", "itemsPlanned", "itemsCompleted", "itemsDuplicated"];

    /// <summary>Rewrites <paramref name="root"/>, a version 1 file, in place into the version 2 shape.</summary>
    public static void Upgrade(JsonObject root)
    {
        foreach (var scenario in Objects(root["scenarios"]))
        {
            var flagged = new HashSet<string>(StringComparer.Ordinal);
            foreach (var name in (scenario["flaggedChecks"] as JsonArray ?? []).Select(n => n?.GetValue<string>()).OfType<string>())
            {
                flagged.Add(name);
            }

            var metrics = new JsonArray();
            foreach (var check in Objects(scenario["reportedChecks"]))
            {
                var id = check["name"]?.GetValue<string>() ?? string.Empty;
                var higher = check["higherIsBetter"]?.GetValue<bool>();
                metrics.Add(new JsonObject
                {
                    ["id"] = id,
                    ["displayName"] = check["header"]?.GetValue<string>() ?? id,
                    ["unit"] = check["unit"]?.GetValue<string>() ?? string.Empty,
                    ["direction"] = higher switch { true => "higherIsBetter", false => "lowerIsBetter", null => "neither" },
                    ["format"] = "number",
                    ["visibility"] = "everywhere",
                    ["negativeMeansNever"] = check["negativeMeansNever"]?.GetValue<bool>() ?? false,
                    ["flagsWhenNotZero"] = flagged.Remove(id),
                });
            }

            // A flagged check that was no column: shown only as a flag, as before.
            foreach (var id in flagged.Order(StringComparer.Ordinal))
            {
                metrics.Add(
                    new JsonObject { ["id"] = id, ["displayName"] = id, ["direction"] = "lowerIsBetter", ["format"] = "count",
                        ["flagsWhenNotZero"] = true });
            }

            scenario.Remove("reportedChecks");
            scenario.Remove("flaggedChecks");
            scenario["metrics"] = metrics;
            foreach (var variant in Objects(scenario["variants"]))
            {
                foreach (var trial in Objects(variant["trials"]))
                {
                    UpgradeTrial(trial);
                }

                // The medians are taken again from the trials (see RunResult's reader), so none are carried over.
                if (variant["summary"] is JsonObject summary)
                {
                    foreach (var field in summary.Select(p => p.Key)
                        .Where(k => k.StartsWith("median", StringComparison.Ordinal) && k != "medianWallMs").ToList())
                    {
                        summary.Remove(field);
                    }
                }
            }
        }

        root["schemaVersion"] = 2;
    }

    /// <summary>Whether <paramref name="root"/> is a version 1 file (which had no schema version before it was written as 1).</summary>
    public static bool Is(JsonObject root)
        => root["schemaVersion"] is not JsonValue version || (version.TryGetValue<int>(out var number) && number == 1);

    /// <summary>Gives every variant of <paramref name="run"/> with a summary the medians version 2 keeps.</summary>
    public static RunResult WithMedians(RunResult run) => run with
    {
        Scenarios =
        [
            .. run.Scenarios.Select(s => s with
            {
                Variants =
                [
                    .. s.Variants.Select(v => v.Summary is null ? v : v with
                    {
                        Summary = v.Summary with { Medians = VariantSummary.MediansOf(
                            [.. v.Trials.Where(t => t.Status == TrialStatus.Ok)], s.Metrics) },
                    }),
                ],
            }),
        ],
    };

    private static void UpgradeTrial(JsonObject trial)
    {
        var metrics = new JsonObject();

        // Version 1 wrote zeros into every measured field of a trial that produced no measurements.
        var measured = trial["status"]?.GetValue<string>() == "ok" || (trial["wallMs"] is JsonValue wall && wall.GetValue<double>() > 0);
        foreach (var (name, node) in trial.ToList())
        {
            if (node is JsonValue value && value.TryGetValue<double>(out var number) && !TrialFields.Contains(name))
            {
                if (measured)
                {
                    metrics[name] = number;
                }

                trial.Remove(name);
            }
        }

        if (trial["gc"] is JsonObject gc)
        {
            foreach (var (generation, node) in gc)
            {
                if (measured && node is JsonValue count)
                {
                    metrics[generation + "Collections"] = count.GetValue<double>();
                }
            }

            trial.Remove("gc");
        }

        foreach (var group in new[] { "latency", "checks" })
        {
            if (trial[group] is JsonObject values)
            {
                foreach (var (name, node) in values)
                {
                    // A trial with no latencies wrote zeros for them; version 2 leaves them out.
                    if (measured && node is JsonValue value && !(group == "latency" && trial["itemsCompleted"]?.GetValue<int>() == 0))
                    {
                        metrics[name] = value.GetValue<double>();
                    }
                }

                trial.Remove(group);
            }
        }

        // Version 1 had no cores used; it follows from the CPU and wall time it had, as version 2 takes it.
        if (StandardMetrics.CoresOf(Number(metrics, StandardMetrics.Cpu.Id), Number(metrics, StandardMetrics.WallTime.Id)) is { } cores)
        {
            metrics[StandardMetrics.CoresUsed.Id] = cores;
        }

        trial["metrics"] = metrics;
        if (trial["service"] is JsonObject service)
        {
            var own = new JsonObject();
            foreach (var (name, node) in service.ToList())
            {
                if (node is JsonValue value && value.TryGetValue<double>(out var number))
                {
                    own[name] = number;
                    service.Remove(name);
                }
            }

            service["metrics"] = own;
        }
    }

    private static IEnumerable<JsonObject> Objects(JsonNode? array) => (array as JsonArray ?? []).OfType<JsonObject>();

    private static double? Number(JsonObject values, string id)
        => values[id] is JsonValue value && value.TryGetValue<double>(out var number) ? number : null;
}
