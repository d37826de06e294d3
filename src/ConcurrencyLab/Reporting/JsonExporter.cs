using System.Text.Json;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;

namespace ConcurrencyLab.Reporting;

/// <summary><c>results.json</c>: the full run, every trial and sample, in the schema other tools read.</summary>
public sealed class JsonExporter : IExporter
{
    public static JsonExporter Default { get; } = new();

    public string FileName => "results.json";

    public void Export(RunResult run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(JsonSerializer.Serialize(run, LabJson.Options));
        writer.WriteLine();
    }

    /// <summary>Reads a file written by <see cref="Export"/>.</summary>
    public static RunResult Read(string path)
    {
        var run = JsonSerializer.Deserialize<RunResult>(File.ReadAllText(path), LabJson.Options)
            ?? throw new InvalidDataException($"{path} holds no results.");
        if (run.SchemaVersion > RunResult.CurrentSchemaVersion)
        {
            throw new InvalidDataException($"{path} has schema version {run.SchemaVersion}; this conclab reads up to {RunResult.CurrentSchemaVersion}.");
        }

        return run;
    }
}
