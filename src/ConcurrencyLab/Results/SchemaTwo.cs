using System.Text.Json.Nodes;

namespace ConcurrencyLab.Results;

/// <summary>
/// Reads a <c>results.json</c> of schema version 2 as version 3. Version 2 wrote a claim's verdict as words
/// ("holds", "does not hold", "holds only with 2 cores", "could not be judged") with two booleans beside it;
/// version 3 writes it as a value (<c>holds</c>, <c>doesNotHold</c>, <c>holdsOnly</c>, <c>couldNotJudge</c>,
/// <c>notTested</c>), the condition of a "holds only" apart, and the claim's conditions and figures as numbers,
/// which a version 2 file does not have (a reader that judges again, as <c>conclab report</c> does, fills them in).
/// </summary>
internal static class SchemaTwo
{
    private const string HoldsOnly = "holds only ";

    /// <summary>What a version 2 verdict's reason starts with once read: it was given before claims had conditions.</summary>
    public const string OlderBuild = "judged by a conclab before claims had conditions, so perhaps on a run that did not test it: ";

    /// <summary>Rewrites <paramref name="root"/>, a version 2 file, in place into the version 3 shape.</summary>
    public static void Upgrade(JsonObject root)
    {
        foreach (var scenario in (root["scenarios"] as JsonArray ?? []).OfType<JsonObject>())
        {
            foreach (var claim in (scenario["claims"] as JsonArray ?? []).OfType<JsonObject>())
            {
                // A verdict in words this build does not know is left as it is, and refused when the file is bound.
                if (claim["verdict"] is JsonValue value && value.TryGetValue<string>(out var words))
                {
                    var (verdict, condition) = Read(words);
                    if (verdict is not null)
                    {
                        claim["verdict"] = verdict;
                        if (condition is not null)
                        {
                            claim["condition"] = condition;
                        }

                        // Said as it was, and said to be what it was: a verdict given before claims had conditions.
                        var reason = claim["reason"] is JsonValue r && r.TryGetValue<string>(out var text) ? text : string.Empty;
                        claim["reason"] = $"{OlderBuild}{reason}";
                    }
                }

                claim.Remove("holds");
                claim.Remove("judged");
                claim.Remove("sentence");
            }
        }

        root["schemaVersion"] = 3;
    }

    /// <summary>Whether <paramref name="root"/> is a version 2 file.</summary>
    public static bool Is(JsonObject root) => root["schemaVersion"] is JsonValue version && version.TryGetValue<int>(out var number) && number == 2;

    // A version 2 verdict in words, as a version 3 value and its condition; null for words it never wrote.
    private static (string? Verdict, string? Condition) Read(string words) => words switch
    {
        "holds" => ("holds", null),
        "does not hold" => ("doesNotHold", null),
        "could not be judged" => ("couldNotJudge", null),
        _ when words.StartsWith(HoldsOnly, StringComparison.Ordinal) && words.Length > HoldsOnly.Length => ("holdsOnly", words[HoldsOnly.Length..]),
        _ => (null, null),
    };
}
