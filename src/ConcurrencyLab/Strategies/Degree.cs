namespace ConcurrencyLab.Strategies;

/// <summary>A degree of parallelism: a fixed count, or whatever the scheduling API uses by default.</summary>
internal readonly record struct Degree
{
    private Degree(int value) => Value = value;

    /// <summary>The API's own default (shown as <c>@default</c>).</summary>
    public static Degree Default { get; }

    /// <summary>The fixed count, or 0 for <see cref="Default"/>.</summary>
    public int Value { get; }

    /// <summary>Whether this is the API's default rather than a fixed count.</summary>
    public bool IsDefault => Value == 0;

    /// <summary>A fixed degree of at least 1.</summary>
    public static Degree Of(int value)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(value, 1);
        return new Degree(value);
    }

    /// <summary>The fixed count, or <paramref name="fallback"/> for the default.</summary>
    public int Or(int fallback) => IsDefault ? fallback : Value;

    /// <summary>Parses <c>default</c> or a positive integer.</summary>
    public static bool TryParse(string text, out Degree degree)
    {
        if (string.Equals(text, "default", StringComparison.OrdinalIgnoreCase))
        {
            degree = Default;
            return true;
        }

        if (int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var value)
            && value >= 1)
        {
            degree = new Degree(value);
            return true;
        }

        degree = Default;
        return false;
    }

    /// <inheritdoc/>
    public override string ToString() => IsDefault ? "default" : Value.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
