using System.Text.Json;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Results;

/// <summary>Reads a <c>results.json</c> back, refusing with a one-line reason what is not one this build can read.</summary>
public static class ResultsFile
{
    // A null where the model has none (say "variants": null) is refused here, not met later as a crash.
    private static readonly JsonSerializerOptions Strict = new(LabJson.Options) { RespectNullableAnnotations = true };

    /// <summary>Reads <paramref name="path"/>; throws <see cref="ResultsFileException"/> with a one-line reason when it cannot.</summary>
    public static RunResult Read(string path)
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
        try
        {
            run = JsonSerializer.Deserialize<RunResult>(text, Strict);
        }
        catch (JsonException ex)
        {
            throw new ResultsFileException($"{path} is not a conclab results file: {ex.Message}", ex);
        }

        if (run is null || run.Tool != "conclab" || run.Scenarios is null)
        {
            throw new ResultsFileException($"{path} is not a conclab results file (no tool \"conclab\" and scenarios in it)");
        }

        if (run.SchemaVersion > RunResult.CurrentSchemaVersion)
        {
            throw new ResultsFileException($"{path} has schema version {run.SchemaVersion}, newer than this conclab reads ({RunResult.CurrentSchemaVersion}); use a newer conclab");
        }

        return run;
    }
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
