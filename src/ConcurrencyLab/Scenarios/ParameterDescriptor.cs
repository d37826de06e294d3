using System.Globalization;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A scenario parameter: its command-line name (without dashes), type, defaults at full and quick scale,
/// and the range it accepts. Values travel as invariant-culture text so a child process sees exactly
/// what its parent planned.
/// </summary>
public sealed record ParameterDescriptor(
    string Name,
    ParameterKind Kind,
    string DefaultValue,
    string Description)
{
    /// <summary>The default under <c>--quick</c>, when it differs from <see cref="DefaultValue"/>.</summary>
    public string? QuickValue { get; init; }

    /// <summary>The smallest number allowed (for numbers, and for each list element).</summary>
    public double Minimum { get; init; } = double.MinValue;

    /// <summary>The largest number allowed (for numbers, and for each list element).</summary>
    public double Maximum { get; init; } = double.MaxValue;

    /// <summary>A switch, off unless given.</summary>
    public static ParameterDescriptor Switch(string name, string description) => new(name, ParameterKind.Switch, "false", description);

    /// <summary>The default at the given scale.</summary>
    public string DefaultFor(bool quick) => quick && QuickValue is not null ? QuickValue : DefaultValue;

    /// <summary>Checks <paramref name="text"/>; returns null when it is valid, else a one-line reason naming the option.</summary>
    public string? Check(string text)
    {
        switch (Kind)
        {
            case ParameterKind.WholeNumber:
                if (!long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var whole))
                {
                    return $"--{Name} must be a whole number{RangeText()}, not '{text}'.";
                }

                return InRange(whole) ? null : $"--{Name} must be{RangeText()}, not {text}.";
            case ParameterKind.Number:
                if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || !double.IsFinite(number))
                {
                    return $"--{Name} must be a number{RangeText()}, not '{text}'.";
                }

                return InRange(number) ? null : $"--{Name} must be{RangeText()}, not {text}.";
            case ParameterKind.WholeNumberList:
                var parts = text.Split(',', StringSplitOptions.TrimEntries);
                foreach (var part in parts)
                {
                    if (!long.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var element) || !InRange(element))
                    {
                        return $"--{Name} must be a comma-separated list of whole numbers{RangeText()}, not '{text}'.";
                    }
                }

                return null;
            case ParameterKind.Switch:
                return text is "true" or "false" ? null : $"--{Name} is on or off: true or false, not '{text}'.";
            default:
                return string.IsNullOrWhiteSpace(text) ? $"--{Name} must not be empty." : null;
        }
    }

    private bool InRange(double value) => value >= Minimum && value <= Maximum;

    private string RangeText() => (Minimum > double.MinValue, Maximum < double.MaxValue) switch
    {
        (true, true) => $" from {Plain(Minimum)} to {Plain(Maximum)}",
        (true, false) => $" of at least {Plain(Minimum)}",
        (false, true) => $" of at most {Plain(Maximum)}",
        _ => string.Empty,
    };

    // 0.000001, not 1E-06: the way a user would type it.
    private static string Plain(double value) => value.ToString("0.##########", CultureInfo.InvariantCulture);
}
