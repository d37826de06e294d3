using System.Collections.Immutable;
using System.Globalization;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A variant's parameter value: a whole number, or a word its parameter takes in place of one (<c>default</c>, the
/// API's own degree; <c>auto</c>, a degree searched; a probe build's name).
/// </summary>
public readonly record struct VariantValue
{
    private VariantValue(int? number, string? word)
    {
        Number = number;
        Word = word;
    }

    /// <summary>The value as a whole number; null when it is a word.</summary>
    public int? Number { get; }

    /// <summary>The value as a word; null when it is a number.</summary>
    public string? Word { get; }

    /// <summary>The value <paramref name="number"/>.</summary>
    public static VariantValue Of(int number) => new(number, null);

    /// <summary>The word <paramref name="word"/>, in lower case.</summary>
    public static VariantValue Of(string word)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(word);
        return new(null, word.ToLowerInvariant());
    }

    /// <summary>A value as results record it: a whole number where the text is one, a word (kept as written) otherwise.</summary>
    internal static VariantValue Read(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var number) ? Of(number) : new(null, text);
    }

    /// <summary>The value as results record it and names show it: <c>40</c>, <c>default</c>.</summary>
    public override string ToString() => Number?.ToString(CultureInfo.InvariantCulture) ?? Word ?? string.Empty;
}

/// <summary>
/// What a variant is, as structure: its family, the form its items are called in, and its parameter values by
/// name. Two variants are the same when their keys are equal. A key is printed as a name, and a name read back
/// into a key, by the scenario's <see cref="VariantSpace"/> alone; everything else works on keys.
/// </summary>
public sealed class VariantKey : IEquatable<VariantKey>
{
    /// <summary>The key of family <paramref name="family"/> in <paramref name="form"/> with <paramref name="values"/>.</summary>
    public VariantKey(string family, WorkForm? form, IEnumerable<KeyValuePair<string, VariantValue>> values)
    {
        ArgumentNullException.ThrowIfNull(family);
        ArgumentNullException.ThrowIfNull(values);
        Family = family;
        Form = form;
        Values = values.ToImmutableSortedDictionary(StringComparer.Ordinal);
    }

    private VariantKey(string family, WorkForm? form, ImmutableSortedDictionary<string, VariantValue> values)
    {
        Family = family;
        Form = form;
        Values = values;
    }

    /// <summary>The family's id: the strategy, endpoint, receiver or kind, such as <c>foreach-async</c>.</summary>
    public string Family { get; }

    /// <summary>The form items are called in, for scenarios that pair strategies with forms; null otherwise.</summary>
    public WorkForm? Form { get; }

    /// <summary>The parameter values by name, in ordinal order of the names.</summary>
    public ImmutableSortedDictionary<string, VariantValue> Values { get; }

    /// <summary>The value of <paramref name="name"/> as a whole number; null when the key has none, or it is a word.</summary>
    public int? WholeNumber(string name) => Values.TryGetValue(name, out var value) ? value.Number : null;

    /// <summary>The same key with <paramref name="name"/> set to <paramref name="value"/>.</summary>
    public VariantKey With(string name, VariantValue value)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        return new(Family, Form, Values.SetItem(name, value));
    }

    /// <summary>The same key without a value for <paramref name="name"/> (itself when it has none).</summary>
    public VariantKey Without(string name) => Values.ContainsKey(name) ? new(Family, Form, Values.Remove(name)) : this;

    /// <summary>The same key with only the values of <paramref name="names"/> kept.</summary>
    public VariantKey Project(IEnumerable<string> names)
    {
        ArgumentNullException.ThrowIfNull(names);
        var kept = names.ToHashSet(StringComparer.Ordinal);
        return new(Family, Form, Values.Where(v => kept.Contains(v.Key)).ToImmutableSortedDictionary(StringComparer.Ordinal));
    }

    /// <summary>The values as results record them: <c>degree</c> = <c>40</c>.</summary>
    internal IReadOnlyDictionary<string, string> RecordedValues()
        => Values.ToImmutableSortedDictionary(v => v.Key, v => v.Value.ToString(), StringComparer.Ordinal);

    /// <summary>The key of a variant as results recorded it (family, form, values); null for a file that kept its name alone.</summary>
    internal static VariantKey? Recorded(Results.VariantResult variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return string.IsNullOrWhiteSpace(variant.Family) ? null : new(variant.Family, variant.Form, Read(variant.Parameters));
    }

    /// <summary>Values as results record them, typed.</summary>
    internal static IEnumerable<KeyValuePair<string, VariantValue>> Read(IReadOnlyDictionary<string, string> values) =>
        values.Select(v => KeyValuePair.Create(v.Key, VariantValue.Read(v.Value)));

    /// <inheritdoc/>
    public bool Equals(VariantKey? other) =>
        other is not null && Family == other.Family && Form == other.Form && Values.Count == other.Values.Count
        && Values.All(v => other.Values.TryGetValue(v.Key, out var value) && value == v.Value);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => Equals(obj as VariantKey);

    /// <inheritdoc/>
    public override int GetHashCode()
    {
        var hash = new HashCode();
        hash.Add(Family);
        hash.Add(Form);
        foreach (var (name, value) in Values)
        {
            hash.Add(name);
            hash.Add(value);
        }

        return hash.ToHashCode();
    }

    /// <summary>The key's structure for a debugger (<c>foreach-async[tap]{degree=40}</c>); a name is printed by the
    /// scenario's <see cref="VariantSpace"/>.</summary>
    public override string ToString() =>
        $"{Family}{(Form is { } form ? $"[{form.ToSuffix()}]" : string.Empty)}{{{string.Join(",", Values.Select(v => $"{v.Key}={v.Value}"))}}}";
}
