using System.Collections.Immutable;
using System.Globalization;

namespace ConcurrencyLab.Scenarios;

/// <summary>A scenario's parameters with every value filled in, as invariant-culture text.</summary>
public sealed class ParameterValues
{
    private ParameterValues(ImmutableSortedDictionary<string, string> values) => Values = values;

    /// <summary>Every parameter by name.</summary>
    public ImmutableSortedDictionary<string, string> Values { get; }

    /// <summary>
    /// Fills in defaults for <paramref name="descriptors"/> and applies <paramref name="given"/>;
    /// collects one error per bad or unknown value instead of stopping at the first.
    /// </summary>
    public static ParameterValues Create(
        IReadOnlyList<ParameterDescriptor> descriptors,
        IReadOnlyDictionary<string, string>? given,
        bool quick,
        out IReadOnlyList<string> errors)
    {
        ArgumentNullException.ThrowIfNull(descriptors);
        var problems = new List<string>();
        var builder = ImmutableSortedDictionary.CreateBuilder<string, string>(StringComparer.Ordinal);
        foreach (var descriptor in descriptors)
        {
            builder[descriptor.Name] = descriptor.DefaultFor(quick);
        }

        foreach (var (name, value) in given ?? ImmutableDictionary<string, string>.Empty)
        {
            var descriptor = descriptors.FirstOrDefault(d => d.Name == name);
            if (descriptor is null)
            {
                problems.Add($"--{name} is not a parameter of this scenario; it takes {string.Join(", ", descriptors.Select(d => "--" + d.Name))}.");
                continue;
            }

            var trimmed = value.Trim();
            if (descriptor.Check(trimmed) is { } problem)
            {
                problems.Add(problem);
                continue;
            }

            builder[name] = trimmed;
        }

        errors = problems;
        return new ParameterValues(builder.ToImmutable());
    }

    /// <summary>Rebuilds values that were already validated, as a child process receives them.</summary>
    public static ParameterValues FromValidated(IReadOnlyDictionary<string, string> values) =>
        new(values.ToImmutableSortedDictionary(StringComparer.Ordinal));

    /// <summary>A whole-number parameter.</summary>
    public int GetInt32(string name) => int.Parse(Values[name], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);

    /// <summary>A number parameter.</summary>
    public double GetDouble(string name) => double.Parse(Values[name], NumberStyles.Float, CultureInfo.InvariantCulture);

    /// <summary>A list-of-whole-numbers parameter, duplicates removed, in the order given.</summary>
    public IReadOnlyList<int> GetInt32List(string name) =>
        [.. Values[name].Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            .Select(p => int.Parse(p, NumberStyles.None, CultureInfo.InvariantCulture))
            .Distinct()];

    /// <summary>A switch parameter.</summary>
    public bool GetSwitch(string name) => Values[name] == "true";

    /// <summary>A text parameter.</summary>
    public string GetText(string name) => Values[name];
}
