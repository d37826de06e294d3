using System.Collections.Immutable;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A scenario's parameters with every value filled in, as invariant-culture text; read one typed with
/// <see cref="Get{T}"/> and the parameter that declared it.
/// </summary>
public sealed class ParameterValues
{
    private ParameterValues(ImmutableSortedDictionary<string, string> values) => Values = values;

    /// <summary>Every parameter by name, as text.</summary>
    public ImmutableSortedDictionary<string, string> Values { get; }

    /// <summary>
    /// Fills in defaults for <paramref name="parameters"/> and applies <paramref name="given"/>; collects one
    /// error per bad, empty or unknown value instead of stopping at the first.
    /// </summary>
    public static ParameterValues Create(
        IReadOnlyList<Parameter> parameters,
        IReadOnlyDictionary<string, string>? given,
        bool quick,
        out IReadOnlyList<string> errors)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        var problems = new List<string>();
        var builder = ImmutableSortedDictionary.CreateBuilder<string, string>(StringComparer.Ordinal);
        foreach (var parameter in parameters)
        {
            builder[parameter.Name] = parameter.DefaultFor(quick);
        }

        foreach (var (name, value) in given ?? ImmutableDictionary<string, string>.Empty)
        {
            var parameter = parameters.FirstOrDefault(d => d.Name == name);
            if (parameter is null)
            {
                problems.Add($"--{name} is not a parameter of this scenario; it takes {string.Join(", ", parameters.Select(d => "--" + d.Name))}.");
                continue;
            }

            // An empty value never means anything: not a number, not a folder, not a list.
            var trimmed = (value ?? string.Empty).Trim();
            if (trimmed.Length == 0)
            {
                problems.Add($"--{name} must not be empty.");
                continue;
            }

            if (parameter.Check(trimmed) is { } problem)
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
    internal static ParameterValues FromValidated(IReadOnlyDictionary<string, string> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return new(values.ToImmutableSortedDictionary(StringComparer.Ordinal));
    }

    /// <summary>These values with <paramref name="more"/> added, or replacing those of the same name.</summary>
    internal ParameterValues With(IReadOnlyDictionary<string, string> more) => new(Values.SetItems(more));

    /// <summary>The value of <paramref name="parameter"/>.</summary>
    /// <exception cref="ArgumentException">These values lack the parameter or hold a value it does not accept.</exception>
    public T Get<T>(Parameter<T> parameter)
    {
        ArgumentNullException.ThrowIfNull(parameter);
        return parameter.Read(this);
    }
}
