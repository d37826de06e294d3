using System.Globalization;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A number a family of variants is run at: a degree of parallelism, a count of workers, of requests at once.
/// A family's first parameter is written after <c>@</c> in a variant's name (<c>foreach-async@40</c>); any
/// later one as <c>:name=value</c>, and left out where it has its default.
/// </summary>
public sealed class VariantParameter
{
    /// <summary>A parameter called <paramref name="name"/>, from <paramref name="minimum"/> to <paramref name="maximum"/>.</summary>
    /// <param name="name">What it is, in a word: <c>degree</c>, <c>workers</c>, <c>requests</c>.</param>
    /// <param name="meaning">What it says, for a message: <c>how many requests are sent at once</c>.</param>
    /// <param name="minimum">The smallest value allowed.</param>
    /// <param name="maximum">The largest value allowed.</param>
    public VariantParameter(string name, string meaning, int minimum, int maximum)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentException.ThrowIfNullOrWhiteSpace(meaning);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(minimum, maximum);
        Name = name;
        Meaning = meaning;
        Minimum = minimum;
        Maximum = maximum;
    }

    /// <summary>The parameter's name, also its key in <see cref="Variant.Parameters"/>.</summary>
    public string Name { get; }

    /// <summary>What the value says, for messages.</summary>
    public string Meaning { get; }

    /// <summary>The smallest value allowed.</summary>
    public int Minimum { get; }

    /// <summary>The largest value allowed.</summary>
    public int Maximum { get; }

    /// <summary>
    /// A word that may stand instead of a number, and that a name may leave out: <c>default</c>, the API's own
    /// default. Null when a number must always be given.
    /// </summary>
    public string? DefaultWord { get; init; }

    /// <summary>A value to show in an example: <c>whenall-async@1000</c>.</summary>
    public int Example { get; init; } = 16;

    /// <summary>How a value reads at the end of a variant's description, such as <c>" (N = 40)"</c>; by default <c>"; name = value"</c>.</summary>
    public Func<string, string>? Describe { get; init; }

    /// <summary>
    /// Whether the value changes the work itself (fanout's requests sent at once), rather than how it is run (a
    /// degree): variants at different values are then not weighed against each other in a recommendation.
    /// A workload's sweeps always change the work.
    /// </summary>
    public bool ChangesWork { get; init; }

    /// <summary>The same parameter with a lower maximum (an API that refuses more, such as PLINQ above 512).</summary>
    public VariantParameter WithMaximum(int maximum) =>
        new(Name, Meaning, Minimum, Math.Min(maximum, Maximum)) { DefaultWord = DefaultWord, Example = Example, Describe = Describe,
            ChangesWork = ChangesWork };

    /// <summary>A value as a variant's description ends with it.</summary>
    internal string DescribeValue(string value) => Describe?.Invoke(value) ?? $"; {Name} = {value}";

    /// <summary>Whether <paramref name="text"/> is a value of this parameter; the value as names write it, or why not.</summary>
    internal (string? Value, Problem Problem) Read(string? text)
    {
        if (text is null)
        {
            return DefaultWord is null ? (null, Problem.Missing) : (DefaultWord, Problem.None);
        }

        if (DefaultWord is not null && text == DefaultWord)
        {
            return (text, Problem.None);
        }

        if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) || value < Minimum)
        {
            return (null, Problem.NotANumber);
        }

        return value > Maximum ? (null, Problem.TooLarge) : (value.ToString(CultureInfo.InvariantCulture), Problem.None);
    }

    /// <summary>What was wrong with a value.</summary>
    internal enum Problem
    {
        None,
        Missing,
        NotANumber,
        TooLarge,
    }
}
