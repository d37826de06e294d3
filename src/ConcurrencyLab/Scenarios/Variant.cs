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
    }

    /// <summary>The name results and tables show, such as <c>foreach-async@40</c> or <c>parallel-for@4-apm</c>.</summary>
    public string Name { get; }

    /// <summary>The family's id: the strategy, endpoint, receiver or kind, such as <c>foreach-async</c>.</summary>
    public string Family { get; }

    /// <summary>The form items are called in, for scenarios that pair strategies with forms; null otherwise.</summary>
    public WorkForm? Form { get; }

    /// <summary>The variant's parameter values by name, as text: <c>degree</c> = <c>40</c> or <c>default</c>.</summary>
    public IReadOnlyDictionary<string, string> Parameters { get; }

    /// <summary>What the variant does, in .NET terms.</summary>
    public string Description { get; }

    /// <summary>The value of parameter <paramref name="name"/> as a whole number; null when the variant has none, or it is a word such as <c>default</c>.</summary>
    public int? WholeNumber(string name) => Results.VariantValues.WholeNumber(Parameters, name);

    /// <summary>Variants are the same when their structure is: the same family, form and parameter values (and so the same name).</summary>
    public bool Equals(Variant? other) =>
        other is not null && Name == other.Name && Family == other.Family && Form == other.Form
        && Parameters.Count == other.Parameters.Count && Parameters.All(p => other.Parameters.TryGetValue(p.Key, out var value) && value == p.Value);

    /// <summary>A hash of the name, family and form.</summary>
    public override int GetHashCode() => HashCode.Combine(Name, Family, Form);

    /// <summary>The variant's name.</summary>
    public override string ToString() => Name;
}
