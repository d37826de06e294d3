using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace ConcurrencyLab.Serialization;

/// <summary>
/// The one set of JSON options for results files, the parent-child trial protocol and the services' settings.
/// It depends on nothing else in the lab, so every layer can use it without pointing up at another.
/// </summary>
internal static class LabJson
{
    /// <summary>camelCase, indented, numbers as numbers, nulls left out, enums as their camelCase names (<c>ok</c>, <c>tap</c>).</summary>
    public static JsonSerializerOptions Options { get; } = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        NumberHandling = JsonNumberHandling.Strict,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.CamelCase, allowIntegerValues: false) },
    };

    /// <summary>Compact, for command-line arguments.</summary>
    public static JsonSerializerOptions Compact { get; } = new(Options) { WriteIndented = false };
}
