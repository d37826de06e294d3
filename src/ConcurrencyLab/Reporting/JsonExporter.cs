using System.Text.Json;
using ConcurrencyLab.Results;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Reporting;

/// <summary><c>results.json</c>: the full run, every trial and sample, in the schema other tools read;
/// <see cref="ResultsFile"/> reads it back.</summary>
internal sealed class JsonExporter : IExporter
{
    /// <summary>The exporter of the results file, which <see cref="Results.ResultsFile"/> reads back.</summary>
    public static JsonExporter Default { get; } = new();

    /// <summary><c>results.json</c>.</summary>
    public string FileName => "results.json";

    /// <summary>Writes <paramref name="run"/> as the results file's JSON to <paramref name="writer"/>.</summary>
    public void Export(RunResult run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(JsonSerializer.Serialize(run, LabJson.Options));
        writer.WriteLine();
    }
}
