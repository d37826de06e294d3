using System.Globalization;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>Sizes as people type them: <c>16MiB</c>, <c>4M</c>, <c>512KiB</c>, <c>1G</c> or plain bytes; units are
/// binary (1 MiB = 1,048,576 bytes).</summary>
internal static class ByteSize
{
    private static readonly (string Unit, long Bytes)[] Units =
    [
        ("gib", 1L << 30), ("gb", 1L << 30), ("g", 1L << 30),
        ("mib", 1L << 20), ("mb", 1L << 20), ("m", 1L << 20),
        ("kib", 1L << 10), ("kb", 1L << 10), ("k", 1L << 10),
        ("b", 1),
    ];

    /// <summary>Reads <paramref name="text"/> as a whole number of bytes, with an optional unit; false when it is not one.</summary>
    public static bool TryParse(string? text, out long bytes)
    {
        bytes = 0;
        var trimmed = (text ?? string.Empty).Trim().ToLowerInvariant();
        var multiplier = 1L;
        foreach (var (unit, size) in Units)
        {
            if (trimmed.EndsWith(unit, StringComparison.Ordinal))
            {
                trimmed = trimmed[..^unit.Length].TrimEnd();
                multiplier = size;
                break;
            }
        }

        if (!long.TryParse(trimmed, NumberStyles.None, CultureInfo.InvariantCulture, out var count) || count > long.MaxValue / multiplier)
        {
            return false;
        }

        bytes = count * multiplier;
        return true;
    }

    /// <summary>The size in the largest binary unit that divides it, such as <c>16 MiB</c>, or in MiB with decimals.</summary>
    public static string Format(long bytes)
    {
        foreach (var (unit, size) in new[] { ("GiB", 1L << 30), ("MiB", 1L << 20), ("KiB", 1L << 10) })
        {
            if (bytes >= size && bytes % size == 0)
            {
                return $"{(bytes / size).ToString("N0", CultureInfo.InvariantCulture)} {unit}";
            }
        }

        return bytes < 1L << 20
            ? $"{bytes.ToString("N0", CultureInfo.InvariantCulture)} {(bytes == 1 ? "byte" : "bytes")}"
            : $"{(bytes / (double)(1L << 20)).ToString("N1", CultureInfo.InvariantCulture)} MiB";
    }
}
