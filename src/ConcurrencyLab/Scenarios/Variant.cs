using System.Text.Json.Serialization;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// One variant of a scenario, as structure: its family (a strategy, an endpoint, a receiver), the form its
/// items are called in where the scenario has forms, and its parameter values (a degree, workers, requests).
/// Its <see cref="Name"/> is printed from these by the scenario's <see cref="VariantSpace"/>, which is also the
/// one place a name a user typed is read back; nothing else takes a name apart.
/// </summary>
public sealed record Variant
{
    [JsonConstructor]
    internal Variant(string name, string family, WorkForm? form, IReadOnlyDictionary<string, string> parameters, string description)
    {
        Name = name;
        Family = family;
        Form = form;
        Parameters = parameters;
        Description = description;
        Key = new VariantKey(family, form, VariantKey.Read(parameters));
    }

    /// <summary>What the variant is, as structure: family, form and typed values. Variants are equal when their keys are.</summary>
    [JsonIgnore]
    public VariantKey Key { get; }

    /// <summary>The name results and tables show, such as <c>foreach-async@40</c> or <c>parallel-for@4-apm</c>.</summary>
    public string Name { get; }

    /// <summary>The family's id: the strategy, endpoint, receiver or kind, such as <c>foreach-async</c>.</summary>
    public string Family { get; }

    /// <summary>The form items are called in, for scenarios that pair strategies with forms; null otherwise.</summary>
    public WorkForm? Form { get; }

    /// <summary>The variant's parameter values by name, as results record them: <c>degree</c> = <c>40</c> or <c>default</c>.</summary>
    public IReadOnlyDictionary<string, string> Parameters { get; }

    /// <summary>What the variant does, in .NET terms.</summary>
    public string Description { get; }

    /// <summary>The value of parameter <paramref name="name"/> as a whole number; null when the variant has none, or it
    /// is a word such as <c>default</c>.</summary>
    public int? WholeNumber(string name) => Key.WholeNumber(name);

    /// <summary>Variants are the same when their structure is: the same <see cref="Key"/> (and so the same name).</summary>
    public bool Equals(Variant? other) => other is not null && Key.Equals(other.Key);

    /// <summary>The key's hash.</summary>
    public override int GetHashCode() => Key.GetHashCode();

    /// <summary>The variant's name.</summary>
    public override string ToString() => Name;
}
