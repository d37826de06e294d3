using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A variant of a batch scenario, typed: the strategy that schedules the items, the form it calls them in,
/// and its degree. Read from a <see cref="Variant"/>'s structure, never from its name.
/// </summary>
internal sealed record BatchVariant(Strategy Strategy, WorkForm Form, Degree Degree)
{
    /// <summary>The name of a batch family's parameter: how many items run at once.</summary>
    public const string DegreeName = "degree";

    /// <summary>The batch variant <paramref name="variant"/> is.</summary>
    /// <exception cref="ArgumentException"><paramref name="variant"/> is not a batch scenario's (its family is no strategy).</exception>
    public static BatchVariant Of(Variant variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        var strategy = StrategyCatalog.Find(variant.Family) ?? throw new ArgumentException($"'{variant.Family}' is not a strategy.", nameof(variant));
        var degree = variant.WholeNumber(DegreeName) is { } value ? Degree.Of(value) : Degree.Default;
        return new BatchVariant(strategy, variant.Form ?? strategy.PreferredForm, degree);
    }

    /// <summary>The family a strategy is in a batch scenario: its forms, and a degree if it takes one.</summary>
    internal static VariantFamily Family(Strategy strategy)
    {
        ArgumentNullException.ThrowIfNull(strategy);
        VariantParameter[] parameters = strategy.HasDegree
            ?
            [
                new VariantParameter(DegreeName, "how many items run at once", 1, strategy.MaxDegree)
                {
                    DefaultWord = Degree.Default.ToString(),
                    Example = 4,
                    Describe = value => value == Degree.Default.ToString() ? $" (N = default: {strategy.DefaultDegreeMeaning})" : $" (N = {value})",
                },
            ]
            : [];
        return new VariantFamily(strategy.Id, strategy.Description) { Forms = strategy.Forms, Parameters = parameters };
    }
}
