using System.Text.Json;

namespace ConcurrencyLab.Serialization;

/// <summary>
/// Walking a JSON object by hand with <see cref="Utf8JsonReader"/>, for what every trial's process reads, where the
/// serializer's reflection would compile its generic code into the trial's start-up: the trial's request and hash's
/// file set manifest. Each failure is a <see cref="JsonException"/> naming <c>what</c> was being read.
/// </summary>
internal static class JsonMembers
{
    /// <summary>Moves to the next token; throws when the input ends first.</summary>
    public static void Read(ref Utf8JsonReader reader, string what)
    {
        if (!reader.Read())
        {
            throw new JsonException($"{what} ended early.");
        }
    }

    /// <summary>Throws unless the reader is on the start of an object.</summary>
    public static void Open(ref Utf8JsonReader reader, string what)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw new JsonException($"{what} has {reader.TokenType} where an object belongs.");
        }
    }

    /// <summary>The next member's name, the reader left on its value; false at the object's end.</summary>
    public static bool Next(ref Utf8JsonReader reader, string what, out string name)
    {
        Read(ref reader, what);
        if (reader.TokenType == JsonTokenType.EndObject)
        {
            name = string.Empty;
            return false;
        }

        name = reader.GetString()!;
        Read(ref reader, what);
        return true;
    }
}
