using System.Text.Json;
using ConcurrencyLab.Results;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Reporting;

/// <summary><c>results.json</c>: the full run, every trial and sample, in the schema other tools read; <see cref="ResultsFile"/> reads it back.</summary>
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
}
