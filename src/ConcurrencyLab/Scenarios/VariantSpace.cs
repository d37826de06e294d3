using System.Collections.Immutable;
using System.Text;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// The variants a scenario can run: its families, and how their names are written. This is the one place a variant's
/// name is printed from its structure
/// (<see cref="Create(string, WorkForm?, string?, IReadOnlyDictionary{string, string}?)"/>) and the one place a name a
/// user typed is read back (<see cref="TryParse(string, out Variant, out string)"/>):
/// <c>family[@value][-form][:name=value]</c>, such as <c>foreach-async@40</c>, <c>parallel-for@default-apm</c> or
/// <c>sequential-tap</c>. The form is left out when it is the family's own.
/// </summary>
public sealed class VariantSpace
{
    private readonly Dictionary<string, VariantFamily> _families;
    private readonly Dictionary<string, string> _namesByCanonical;

    /// <summary>The variants of scenario <paramref name="scenario"/>, whose families are <paramref name="noun"/>s such as strategies.</summary>
    public VariantSpace(string scenario, string noun, IReadOnlyList<VariantFamily> families)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(scenario);
        ArgumentException.ThrowIfNullOrWhiteSpace(noun);
        ArgumentNullException.ThrowIfNull(families);
        Scenario = scenario;
        Noun = noun;
        Families = families;
        _families = families.ToDictionary(f => f.Id, StringComparer.Ordinal);
        _namesByCanonical = [];
    }

    /// <summary>The scenario's name, for messages.</summary>
    public string Scenario { get; }

    /// <summary>What a family is in this scenario: <c>strategy</c>, <c>endpoint</c>, <c>receiver</c>.</summary>
    public string Noun { get; }

    /// <summary>Every family, in the order listings show them.</summary>
    public IReadOnlyList<VariantFamily> Families { get; }

    /// <summary>
    /// Names a published experiment used, each for the variant whose lab name it maps to
    /// (<c>task-run-apm</c> for <c>task-run-waitall-apm</c>): that variant is shown under the published name,
    /// and both names are read.
    /// </summary>
    public IReadOnlyDictionary<string, string> Aliases
    {
        get => _aliases;
        init
        {
            _aliases = value ?? throw new ArgumentNullException(nameof(value));
            _namesByCanonical.Clear();
            foreach (var (alias, canonical) in value)
            {
                _namesByCanonical[canonical] = alias;
            }
        }
    }

    private readonly IReadOnlyDictionary<string, string> _aliases = ImmutableDictionary<string, string>.Empty;

    /// <summary>
    /// The scenario's own reason to refuse a variant its families allow, such as a form the workload lacks
    /// (<c>the delay workload has no apm form</c>); null to accept it.
    /// </summary>
    public Func<Variant, string?>? Refuse { get; init; }

    /// <summary>
    /// Numbers every family's variants also vary by, each with the values a run gives it (a user's sweep, such
    /// as <c>wait-ms</c> at 10 and 30): always written <c>:name=value</c>, and left out only when the parameter's
    /// <see cref="VariantParameter.DefaultWord"/> is the value (a sweep of one value).
    /// </summary>
    internal IReadOnlyList<(VariantParameter Parameter, IReadOnlyList<int> Values)> Sweeps { get; set; } = [];

    /// <summary>The same space with <paramref name="more"/> sweeps after its own (a run's runtime settings, such as cores at 2 and 8).</summary>
    internal VariantSpace WithSweeps(IReadOnlyList<(VariantParameter Parameter, IReadOnlyList<int> Values)> more)
    {
        ArgumentNullException.ThrowIfNull(more);
        if (more.Count == 0)
        {
            return this;
        }

        var copy = (VariantSpace)MemberwiseClone();
        copy.Sweeps = [.. Sweeps, .. more];
        return copy;
    }

    /// <summary>
    /// The names <paramref name="text"/> stands for: itself, or, when it leaves out a sweep of several values,
    /// itself at each of them (<c>whenall</c> is <c>whenall:wait-ms=10</c> and <c>whenall:wait-ms=30</c>).
    /// </summary>
    internal IReadOnlyList<string> Expand(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var names = new List<string> { text };
        foreach (var (parameter, values) in Sweeps)
        {
            if (values.Count < 2 || text.Contains($":{parameter.Name}=", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            names = [.. names.SelectMany(
                n => values.Select(v => $"{n}:{parameter.Name}={v.ToString(System.Globalization.CultureInfo.InvariantCulture)}"))];
        }

        return names;
    }

    /// <summary>How many names <see cref="Expand(string)"/> gives for <paramref name="text"/>, counted without making
    /// them (at most <see cref="long.MaxValue"/>).</summary>
    internal long ExpandedCount(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        long count = 1;
        foreach (var (parameter, values) in Sweeps)
        {
            if (values.Count >= 2 && !text.Contains($":{parameter.Name}=", StringComparison.OrdinalIgnoreCase))
            {
                count = count > long.MaxValue / values.Count ? long.MaxValue : count * values.Count;
            }
        }

        return count;
    }

    // A family's parameters after the first, then the sweeps every family shares: the ones written ':name=value'.
    private IEnumerable<VariantParameter> Named(VariantFamily family) => family.Parameters.Skip(1).Concat(Sweeps.Select(s => s.Parameter));

    /// <summary>
    /// How names are written here, for a listing: <c>strategy[@degree][-form]</c>, <c>endpoint@requests[:min-threads=N]</c>;
    /// empty when every name is a family's alone.
    /// </summary>
    public string Grammar
    {
        get
        {
            var value = ValueNoun();
            var forms = Families.Any(f => f.Forms.Count > 1);
            var optional = Families.Any(f => f.Parameters.Count == 0 || f.Parameters[0].DefaultWord is not null);
            var named = Families.SelectMany(Named).Select(p => p.Name).Distinct().Select(n => $"[:{n}=N]");
            if (value is null && !forms && !named.Any())
            {
                return string.Empty;
            }

            var at = value is null ? string.Empty : optional ? $"[@{value}]" : $"@{value}";
            return $"{Noun}{at}{(forms ? "[-form]" : string.Empty)}{string.Concat(named)}";
        }
    }

    /// <summary>The family called <paramref name="id"/>, or null.</summary>
    public VariantFamily? Find(string id) => _families.GetValueOrDefault(id);

    /// <summary>
    /// The variant of family <paramref name="family"/> in <paramref name="form"/> (null: the family's own) with
    /// the parameter values given, the first parameter's from <paramref name="value"/>; a parameter not given
    /// takes its <see cref="VariantParameter.DefaultWord"/>. The checks are a typed name's.
    /// </summary>
    /// <exception cref="ArgumentException">The family, form or a value is not one this space allows, or the scenario refuses the variant.</exception>
    public Variant Create(string family, WorkForm? form = null, string? value = null, IReadOnlyDictionary<string, string>? others = null)
    {
        ArgumentNullException.ThrowIfNull(family);
        var found = Find(family) ?? throw new ArgumentException($"{Scenario} has no {Noun} '{family}'.", nameof(family));
        var named = (others ?? new Dictionary<string, string>()).Select(o => (o.Key, (string?)o.Value));
        return TryBuild(found, value, named, form?.ToSuffix(), $"{found.Id} (made in code)", allowUnavailable: true, out var variant, out var problem)
            ? variant
            : throw new ArgumentException(problem, nameof(family));
    }

    /// <summary>The variant of family <paramref name="family"/> at <paramref name="value"/> of its first parameter, in its own form.</summary>
    public Variant Create(string family, int value) => Create(family, form: null, value.ToString(System.Globalization.CultureInfo.InvariantCulture));

    /// <summary>
    /// Reads a variant name a user typed (any case, either a published or a lab name) into a variant of this
    /// space, or says in one line why it cannot run here.
    /// </summary>
    public bool TryParse(string text, out Variant variant, out string problem) => TryParse(text, allowUnavailable: false, out variant, out problem);

    /// <summary>
    /// <see cref="TryParse(string, out Variant, out string)"/>, but a family this machine cannot run is read too
    /// when <paramref name="allowUnavailable"/> is set: a name recorded by a run elsewhere still has its structure.
    /// </summary>
    internal bool TryParse(string text, bool allowUnavailable, out Variant variant, out string problem)
    {
        ArgumentNullException.ThrowIfNull(text);
        variant = null!;
        var name = text.Trim().ToLowerInvariant();
        if (name.Length == 0)
        {
            problem = $"a variant name must not be empty; {Scenario} has {Known()}.";
            return false;
        }

        // A published name is an alias of the part before any ':' (task-run-apm:cores=8), not of the whole.
        var parts = name.Split(':');
        parts[0] = _aliases.GetValueOrDefault(parts[0], parts[0]);
        var (familyText, valueText, formText) = Split(parts[0]);
        if (Find(familyText) is not { } family)
        {
            var near = Closest.To(familyText, Families.Where(f => f.Unavailable is null).Select(f => f.Id));
            problem = $"variant '{text}' is not a {Scenario} variant: unknown " +
                $"{Noun} '{familyText}'{(near is null ? string.Empty : $" (did you mean '{near}'?)")}; it has {Known()}.";
            return false;
        }

        var named = new List<(string Name, string? Value)>();
        foreach (var part in parts.Skip(1))
        {
            var equals = part.IndexOf('=', StringComparison.Ordinal);
            named.Add(equals > 0 ? (part[..equals], part[(equals + 1)..]) : (part, null));
        }

        return TryBuild(family, valueText, named, formText, text, allowUnavailable, out variant, out problem);
    }

    /// <summary>
    /// The value a typed name gives its family's first parameter, read as the name is (<c>8</c> in
    /// <c>parallel-for@8:wait-ms=10</c>), with no other check; null when it gives none or names no family here.
    /// </summary>
    internal VariantValue? LeadValue(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var head = text.Trim().ToLowerInvariant().Split(':')[0];
        var (family, value, _) = Split(_aliases.GetValueOrDefault(head, head));
        return value is not null && Find(family) is { Parameters.Count: > 0 } ? VariantValue.Read(value) : null;
    }

    // Every check a variant of this space passes, whether it was typed or made in code: the family can run here,
    // its values are in range, the form is one it has, and the scenario does not refuse it.
    private bool TryBuild(
        VariantFamily family,
        string? valueText,
        IEnumerable<(string Name, string? Value)> named,
        string? formText,
        string text,
        bool allowUnavailable,
        out Variant variant,
        out string problem)
    {
        variant = null!;
        if (family.Unavailable is { } unavailable && !allowUnavailable)
        {
            problem = $"variant '{text}' {unavailable}.";
            return false;
        }

        var values = new SortedDictionary<string, string>(StringComparer.Ordinal);
        if (family.Parameters.Count == 0)
        {
            if (valueText is not null)
            {
                problem = $"variant '{text}': {family.Id} takes no {ValueNoun() ?? "value"} ('@').";
                return false;
            }
        }
        else if (!TryRead(text, family, family.Parameters[0], valueText, values, out problem))
        {
            return false;
        }

        foreach (var (parameterName, given) in named)
        {
            var parameter = given is null ? null : Named(family).FirstOrDefault(p => p.Name == parameterName);
            if (parameter is null)
            {
                var takes = Named(family).Select(p => p.Name).ToList();
                var part = given is null ? parameterName : $"{parameterName}={given}";
                problem = $"variant '{text}': '{part}' is not a parameter of {family.Id}; {(takes.Count == 0 ? "it takes none after " +
                    "':'" : "it takes " + string.Join(", ", takes.Select(n => n + "=N")))}.";
                return false;
            }

            if (!TryRead(text, family, parameter, given, values, out problem))
            {
                return false;
            }
        }

        foreach (var parameter in Named(family).Where(p => !values.ContainsKey(p.Name)))
        {
            if (!TryRead(text, family, parameter, null, values, out problem))
            {
                return false;
            }
        }

        WorkForm? form = family.Forms.Count > 0 ? family.Forms[0] : null;
        if (formText is not null)
        {
            if (!WorkForms.TryParse(formText, out var parsed))
            {
                problem = $"variant '{text}': '{formText}' is not a form; forms are {string.Join(", ", WorkForms.All.Select(f => f.ToSuffix()))}.";
                return false;
            }

            if (!family.Forms.Contains(parsed))
            {
                problem = family.Forms.Count == 0
                    ? $"variant '{text}': {family.Id} has no forms."
                    : $"variant '{text}': {family.Id} cannot call items in the {parsed.ToSuffix()} form; it takes " +
                        $"{string.Join(", ", family.Forms.Select(f => f.ToSuffix()))}.";
                return false;
            }

            form = parsed;
        }

        var candidate = Build(family, form, values);
        if (Refuse?.Invoke(candidate) is { } refused)
        {
            problem = $"variant '{text}': {refused}";
            return false;
        }

        variant = candidate;
        problem = string.Empty;
        return true;
    }

    // family[@value][-form]: with '@' the value runs to the first '-'; without it, a last '-' part is a form
    // only when what comes before it is not itself a family (sync-over-async is one family).
    private (string Family, string? Value, string? Form) Split(string head)
    {
        var at = head.IndexOf('@', StringComparison.Ordinal);
        if (at >= 0)
        {
            var rest = head[(at + 1)..];
            var dash = rest.IndexOf('-', StringComparison.Ordinal);
            return dash < 0 ? (head[..at], rest, null) : (head[..at], rest[..dash], rest[(dash + 1)..]);
        }

        var last = head.LastIndexOf('-');
        return _families.ContainsKey(head) || last <= 0 || !WorkForms.TryParse(head[(last + 1)..], out _)
            ? (head, null, null)
            : (head[..last], null, head[(last + 1)..]);
    }

    private static bool TryRead(
        string text,
        VariantFamily family,
        VariantParameter parameter,
        string? given,
        SortedDictionary<string, string> values,
        out string problem)
    {
        var (value, trouble) = parameter.Read(given);
        var lead = family.Parameters.Count > 0 && parameter == family.Parameters[0];
        var range = $"from {parameter.Minimum} to {parameter.Maximum}";
        problem = trouble switch
        {
            VariantParameter.Problem.None => string.Empty,
            VariantParameter.Problem.TooLarge when parameter.DefaultWord is not null
                => $"variant '{text}': {family.Id} accepts a {parameter.Name} of at most {parameter.Maximum}.",
            VariantParameter.Problem.NotANumber when parameter.DefaultWord is not null =>
                $"variant '{text}': the {parameter.Name}{(lead ? " after '@'" : string.Empty)} must be a positive whole number or " +
                    $"'{parameter.DefaultWord}'.",
            _ when lead => $"variant '{text}' must say {parameter.Meaning}, {range}: {family.Id}@{parameter.Example}.",
            _ => $"variant '{text}' must say {parameter.Meaning}, {range}: :{parameter.Name}={parameter.Example}.",
        };
        if (value is null)
        {
            return false;
        }

        values[parameter.Name] = value;
        return true;
    }

    private Variant Build(VariantFamily family, WorkForm? form, SortedDictionary<string, string> values)
    {
        var description = new StringBuilder(family.Description);
        foreach (var parameter in family.Parameters)
        {
            description.Append(parameter.DescribeValue(values[parameter.Name]));
        }

        // A sweep of one value says nothing about one variant against another.
        foreach (var (sweep, _) in Sweeps.Where(s => values[s.Parameter.Name] != s.Parameter.DefaultWord))
        {
            description.Append(sweep.DescribeValue(values[sweep.Name]));
        }

        if (form is { } described)
        {
            description.Append("; ").Append(described.Describe());
        }

        var recorded = values.ToImmutableSortedDictionary(StringComparer.Ordinal);
        var key = new VariantKey(family.Id, form, VariantKey.Read(recorded));
        return new Variant(NameOf(key), family.Id, form, recorded, description.ToString());
    }

    /// <summary>
    /// The name of the variant <paramref name="key"/> stands for, as results and tables show it: the family, its
    /// first parameter after '@', the form where it is not the family's own, then every other value as
    /// <c>:name=value</c> (a family's own parameters and the sweeps left out at their default word, values the
    /// family does not know, such as a probe's <c>build</c>, always), under its published name where it has one.
    /// </summary>
    public string NameOf(VariantKey key)
    {
        ArgumentNullException.ThrowIfNull(key);
        var family = Find(key.Family);
        var name = new StringBuilder(key.Family);
        var first = family is { Parameters.Count: > 0 } ? family.Parameters[0].Name : null;
        if (first is not null && key.Values.TryGetValue(first, out var lead))
        {
            name.Append('@').Append(lead.ToString());
        }

        if (key.Form is { } chosen && (family is null || family.Forms.Count == 0 || chosen != family.Forms[0]))
        {
            name.Append('-').Append(chosen.ToSuffix());
        }

        var head = name.ToString();
        name.Clear().Append(_namesByCanonical.GetValueOrDefault(head, head));
        var known = family is null ? [] : Named(family).ToList();
        foreach (var parameter in known.Where(p => key.Values.TryGetValue(p.Name, out var value) && value.ToString() != p.DefaultWord))
        {
            name.Append(':').Append(parameter.Name).Append('=').Append(key.Values[parameter.Name].ToString());
        }

        foreach (var (other, value) in key.Values.Where(v => v.Key != first && known.All(p => p.Name != v.Key)))
        {
            name.Append(':').Append(other).Append('=').Append(value.ToString());
        }

        return name.ToString();
    }

    /// <summary>
    /// The key of a variant a results file recorded: its recorded structure, or, for a file that kept its name
    /// alone, the name read back here; null when neither can be had.
    /// </summary>
    internal VariantKey? KeyOf(Results.VariantResult variant)
    {
        ArgumentNullException.ThrowIfNull(variant);
        return VariantKey.Recorded(variant) ?? KeyOf(variant.Name);
    }

    // A recorded name read back; a last ':name=value' that no family here takes (a probe's :build=native-aot) is a
    // value of the key all the same, a word or a number.
    private VariantKey? KeyOf(string name)
    {
        if (TryParse(name, allowUnavailable: true, out var parsed, out _))
        {
            return parsed.Key;
        }

        var colon = name.LastIndexOf(':');
        var equals = colon < 0 ? -1 : name.IndexOf('=', colon);
        return equals > colon + 1 && equals < name.Length - 1 && KeyOf(name[..colon]) is { } known
            && !known.Values.ContainsKey(name[(colon + 1)..equals])
            ? known.With(name[(colon + 1)..equals], VariantValue.Read(name[(equals + 1)..]))
            : null;
    }

    private string Known() => string.Join(", ", Families.Where(f => f.Unavailable is null).Select(f => f.Id));

    // What the value after '@' is called here, for a family that takes none: "threads takes no degree".
    private string? ValueNoun() => Families.Where(f => f.Parameters.Count > 0).Select(f => f.Parameters[0].Name).FirstOrDefault();
}
