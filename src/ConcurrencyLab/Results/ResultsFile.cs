using System.Text.Json;
using System.Text.Json.Nodes;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Results;

/// <summary>
/// Reads a <c>results.json</c> back, of this schema or an older one (read as this one), refusing with a one-line
/// reason what is not one this build can read.
/// </summary>
public static class ResultsFile
{
    // A null where the model has none (say "variants": null) is refused here, not met later as a crash.
    private static readonly JsonSerializerOptions Strict = new(LabJson.Options) { RespectNullableAnnotations = true };

    /// <summary>Reads <paramref name="path"/>; throws <see cref="ResultsFileException"/> with a one-line reason when it cannot.</summary>
    public static RunResult Read(string path) => Read(path, out _);

    /// <summary>
    /// Reads <paramref name="path"/> as <see cref="Read(string)"/> does, and says in <paramref name="writtenAs"/>
    /// the schema version the file was written in (the result is always of <see cref="RunResult.CurrentSchemaVersion"/>).
    /// </summary>
    public static RunResult Read(string path, out int writtenAs)
    {
        ArgumentNullException.ThrowIfNull(path);
        string text;
        try
        {
            text = File.ReadAllText(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new ResultsFileException($"cannot read {path}: {ex.Message}", ex);
        }

        RunResult? run;
        var upgraded = false;
        writtenAs = 0;
        try
        {
            // Read as a tree first: a file of an older schema is rewritten into this one before it is bound.
            // A key given twice is refused: which of the two values would count is no one's guess to make.
            var root = JsonNode.Parse(text, documentOptions: new JsonDocumentOptions { AllowDuplicateProperties = false }) as JsonObject;
            if (root is not null && root["tool"] is JsonValue tool && tool.TryGetValue<string>(out var name) && name == "conclab")
            {
                // A newer schema may have a shape this build cannot bind: say so, rather than that it is no results file.
                if (root["schemaVersion"] is JsonValue version && version.TryGetValue<int>(out var number) && number > RunResult.CurrentSchemaVersion)
                {
                    throw new ResultsFileException(Newer(path, number));
                }

                if (SchemaOne.Is(root))
                {
                    SchemaOne.Upgrade(root);
                    upgraded = true;
                }
            }

            run = root?.Deserialize<RunResult>(Strict);
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException or FormatException or ArgumentException)
        {
            // ArgumentException: a value a type refuses as it is made, such as a metric with no display name.
            throw new ResultsFileException($"{path} is not a conclab results file: {ex.Message}".ReplaceLineEndings(" "), ex);
        }

        if (run is null || run.Tool != "conclab" || run.Scenarios is null)
        {
            throw new ResultsFileException($"{path} is not a conclab results file (no tool \"conclab\" and scenarios in it)");
        }

        if (run.SchemaVersion > RunResult.CurrentSchemaVersion)
        {
            throw new ResultsFileException(Newer(path, run.SchemaVersion));
        }

        writtenAs = upgraded ? 1 : run.SchemaVersion;
        if (upgraded)
        {
            run = SchemaOne.WithMedians(run);
        }

        return run;
    }

    private static string Newer(string path, int version) =>
        $"{path} has schema version {version}, newer than this conclab reads ({RunResult.CurrentSchemaVersion}); use a newer conclab";
}

/// <summary>A results file that cannot be read; its message is one line for the user.</summary>
public sealed class ResultsFileException : Exception
{
    public ResultsFileException(string message)
        : base(message)
    {
    }

    public ResultsFileException()
    {
    }

    public ResultsFileException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
