using System.Globalization;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A number of your workload that multiplies the variants, as BenchmarkDotNet's <c>[Params]</c> does: every
/// variant runs once at each of its values, named <c>whenall:wait-ms=10</c>, <c>whenall:wait-ms=30</c>, and the
/// report charts the medians against it. On the command line it is a list, <c>--wait-ms 10,30</c>; a workload
/// reads the value of its trial's variant with <see cref="WorkloadContext.Get(Sweep)"/>. With a single value the
/// names stay short (<c>whenall</c>).
/// </summary>
public sealed class Sweep
{
    /// <summary>A sweep called <paramref name="name"/> (lowercase, as its option is written) over
    /// <paramref name="values"/> unless the command line gives others.</summary>
    /// <param name="name">The option's name without dashes, such as <c>wait-ms</c>.</param>
    /// <param name="values">The values run by default, in order; repeats are dropped.</param>
    /// <param name="description">What the number is, for <c>list</c> and <c>--help</c>.</param>
    /// <param name="minimum">The smallest value accepted.</param>
    /// <param name="maximum">The largest value accepted.</param>
    /// <param name="quick">The values under <c>--quick</c>; the same as <paramref name="values"/> when null.</param>
    public Sweep(
        string name,
        IReadOnlyList<int> values,
        string description,
        int minimum = 0,
        int maximum = int.MaxValue,
        IReadOnlyList<int>? quick = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(values);
        ArgumentOutOfRangeException.ThrowIfZero(values.Count, nameof(values));
        ArgumentOutOfRangeException.ThrowIfLessThan(minimum, 0);
        Minimum = minimum;
        Maximum = maximum;
        Values = Parameter.WholeNumbers(name, values, description
            + " (each value runs every variant)", minimum: minimum, maximum: maximum, quick: quick);
    }

    /// <summary>The sweep's name: its option (<c>--wait-ms</c>) and its key in a variant's parameters.</summary>
    public string Name => Values.Name;

    /// <summary>The list a run is given, as a scenario parameter: <c>--wait-ms 10,30</c>.</summary>
    public Parameter<IReadOnlyList<int>> Values { get; }

    /// <summary>The smallest value accepted.</summary>
    public int Minimum { get; }

    /// <summary>The largest value accepted.</summary>
    public int Maximum { get; }

    /// <summary>The variants' parameter for a run whose values are <paramref name="values"/>: left out of names when it has only one.</summary>
    internal VariantParameter ForVariants(IReadOnlyList<int> values) =>
        new(Name, Values.Description, Minimum, Maximum)
        {
            DefaultWord = values.Count == 1 ? values[0].ToString(CultureInfo.InvariantCulture) : null,
            Example = values[0],
        };
}
