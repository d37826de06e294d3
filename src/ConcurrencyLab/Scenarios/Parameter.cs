using System.Globalization;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A scenario parameter, declared once: its command-line name (without dashes), what it means, its defaults at
/// full and quick scale, and what it accepts. Values travel as invariant-culture text, so a child process sees
/// exactly what its parent planned; a scenario reads them back typed, through the <see cref="Parameter{T}"/>
/// that declared them (<c>parameters.Get(Items)</c>).
/// </summary>
public abstract class Parameter
{
    private protected Parameter(string name, string description, string defaultValue, string? quickValue)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(description);
        ArgumentNullException.ThrowIfNull(defaultValue);
        Name = name;
        Description = description;
        DefaultValue = defaultValue;
        QuickValue = quickValue;
    }

    /// <summary>The name on the command line, without dashes: <c>items</c> for <c>--items</c>.</summary>
    public string Name { get; }

    /// <summary>What the parameter means, in a line.</summary>
    public string Description { get; }

    /// <summary>The default at full scale, as text.</summary>
    public string DefaultValue { get; }

    /// <summary>The default under <c>--quick</c>, when it differs from <see cref="DefaultValue"/>.</summary>
    public string? QuickValue { get; }

    /// <summary>Whether the parameter is on or off: on the command line, a flag that takes no value.</summary>
    public virtual bool IsSwitch => false;

    /// <summary>The default at the given scale.</summary>
    public string DefaultFor(bool quick) => quick && QuickValue is not null ? QuickValue : DefaultValue;

    /// <summary>What it accepts, for help: <c>a whole number from 1 to 100000</c>; null where its parser alone knows.</summary>
    internal string? Accepts { get; init; }

    /// <summary>The words it accepts, for completion and help; empty where it takes other values.</summary>
    internal IReadOnlyList<string> Choices { get; init; } = [];

    /// <summary>Checks <paramref name="text"/>; returns null when it is valid, else a one-line reason naming the option.</summary>
    public abstract string? Check(string text);

    /// <summary>A whole number from <paramref name="minimum"/> to <paramref name="maximum"/>.</summary>
    public static Parameter<int> WholeNumber(
        string name,
        int defaultValue,
        string description,
        int minimum = int.MinValue,
        int maximum = int.MaxValue,
        int? quick = null)
    {
        var range = new Range(minimum, maximum);
        return new(name, description, Text(defaultValue), quick is { } q ? Text(q) : null, text =>
            !long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value)
                ? (0, $"--{name} must be a whole number{range}, not '{text}'.")
            : !range.Holds(value) ? (0, $"--{name} must be{range}, not {text}.")
            : ((int)value, null))
        {
            Accepts = $"a whole number{range}",
        };
    }

    /// <summary>A finite number from <paramref name="minimum"/> to <paramref name="maximum"/>.</summary>
    public static Parameter<double> Number(
        string name,
        double defaultValue,
        string description,
        double minimum = double.MinValue,
        double maximum = double.MaxValue,
        double? quick = null)
    {
        var range = new Range(minimum, maximum);
        return new(name, description, Text(defaultValue), quick is { } q ? Text(q) : null, text =>
            !double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !double.IsFinite(value)
                ? (0, $"--{name} must be a number{range}, not '{text}'.")
            : !range.Holds(value) ? (0, $"--{name} must be{range}, not {text}.")
            : (value, null))
        {
            Accepts = $"a number{range}",
        };
    }

    /// <summary>The most values a sweep (a list of distinct values) takes: each is a variant or more, and a list past this is a slip.</summary>
    internal const int MostListValues = 1_000;

    // A refused text quoted back whole up to a line's worth, then cut: an error is one line.
    private static string Shortened(string text) => text.Length <= 80 ? text : text[..77] + "...";

    /// <summary>
    /// A comma-separated list of whole numbers from <paramref name="minimum"/> to <paramref name="maximum"/>, such
    /// as the degrees <c>4,40</c>. A sweep (<paramref name="distinct"/>) drops repeats, keeping the order given;
    /// a list of values does not, and may require exactly <paramref name="count"/> of them, which
    /// <paramref name="listing"/> names for a user who gave another number (<c>three delays in ms</c>).
    /// </summary>
    public static Parameter<IReadOnlyList<int>> WholeNumbers(
        string name,
        IReadOnlyList<int> defaultValue,
        string description,
        int minimum = int.MinValue,
        int maximum = int.MaxValue,
        IReadOnlyList<int>? quick = null,
        bool distinct = true,
        int? count = null,
        string? listing = null)
    {
        ArgumentNullException.ThrowIfNull(defaultValue);
        var range = new Range(minimum, maximum);
        var exactly = count is { } n ? $"exactly {n.ToString(CultureInfo.InvariantCulture)} " : string.Empty;
        string Refused(string text) => listing is null
            ? $"--{name} must be a comma-separated list of {exactly}whole numbers{range}, not '{text}'."
            : $"--{name} must list {listing}{range}; not '{text}'.";
        return new(name, description, Text(defaultValue), quick is null ? null : Text(quick), text =>
        {
            var values = new List<int>();
            var seen = new HashSet<int>();
            var parts = text.Split(',', StringSplitOptions.TrimEntries);
            if (distinct && parts.Length > MostListValues)
            {
                return ([], string.Create(
                    CultureInfo.InvariantCulture, $"--{name} takes at most {MostListValues:N0} values, not {parts.Length:N0}."));
            }

            foreach (var part in parts)
            {
                if (!long.TryParse(part, NumberStyles.None, CultureInfo.InvariantCulture, out var value) || !range.Holds(value))
                {
                    return ([], Refused(Shortened(text)));
                }

                if (!distinct || seen.Add((int)value))
                {
                    values.Add((int)value);
                }
            }

            return count is { } expected && values.Count != expected
                ? ([], Refused(text))
                : (values, null);
        })
        {
            Accepts = listing is null ? $"a comma-separated list of {exactly}whole numbers{range}" : $"{listing}{range}",
        };
    }

    /// <summary>One of a few words, each standing for a value: <c>cold</c> or <c>warm</c>.</summary>
    public static Parameter<T> Choice<T>(string name, T defaultValue, string description, params (string Text, T Value)[] choices)
    {
        ArgumentNullException.ThrowIfNull(choices);
        var words = choices.Select(c => c.Text).ToList();
        var allowed = words.Count == 1 ? words[0] : string.Join(", ", words.Take(words.Count - 1)) + " or " + words[^1];
        var defaultText = choices.First(c => EqualityComparer<T>.Default.Equals(c.Value, defaultValue)).Text;
        return new(name, description, defaultText, null, text =>
            choices.FirstOrDefault(c => c.Text == text) is { Text: not null } chosen ? (chosen.Value, null)
                : (defaultValue, $"--{name} must be {allowed}, not '{text}'."))
        {
            Accepts = allowed,
            Choices = words,
        };
    }

    /// <summary>Free text, such as a folder; empty means not given.</summary>
    public static Parameter<string> FreeText(string name, string defaultValue, string description) =>
        new(name, description, defaultValue, null, text => (text, null));

    /// <summary>A switch's value when it is given, as parameters are held: text, as a user would type it.</summary>
    internal const string SwitchOn = "true";

    /// <summary>A switch's value when it is not given.</summary>
    internal const string SwitchOff = "false";

    /// <summary>On or off, off unless given; on the command line a flag with no value.</summary>
    public static Parameter<bool> Switch(string name, string description) =>
        new(name, description, SwitchOff, null, text => text switch
        {
            SwitchOn => (true, null),
            SwitchOff => (false, null),
            _ => (false, $"--{name} is on or off: {SwitchOn} or {SwitchOff}, not '{text}'."),
        })
        { Flag = true };

    /// <summary>
    /// A value of a type of the scenario's own, read by <paramref name="parse"/>, which returns the value or a
    /// one-line reason naming the option. The default is given as the text a user would type.
    /// </summary>
    public static Parameter<T> Of<T>(string name, string defaultValue, string description,
        Func<string, (T Value, string? Problem)> parse, string? quick = null) =>
        new(name, description, defaultValue, quick, parse);

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Text(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    private static string Text(IEnumerable<int> values) => string.Join(',', values.Select(Text));

    /// <summary>A range as a message says it: <c> from 1 to 100000</c>, <c> of at least 0</c>.</summary>
    private readonly record struct Range(double Minimum, double Maximum)
    {
        public bool Holds(double value) => value >= Minimum && value <= Maximum;

        public override string ToString()
            => (Minimum > int.MinValue && Minimum > double.MinValue, Maximum < int.MaxValue && Maximum < double.MaxValue) switch
        {
            (true, true) => $" from {Plain(Minimum)} to {Plain(Maximum)}",
            (true, false) => $" of at least {Plain(Minimum)}",
            (false, true) => $" of at most {Plain(Maximum)}",
            _ => string.Empty,
        };

        // 0.000001, not 1E-06: the way a user would type it.
        private static string Plain(double value) => value.ToString("0.##########", CultureInfo.InvariantCulture);
    }
}

/// <summary>A parameter whose values are <typeparamref name="T"/>s; reads its value from a scenario's <see cref="ParameterValues"/>.</summary>
/// <typeparam name="T">The type a scenario works with, such as <see cref="int"/> or an enum.</typeparam>
public sealed class Parameter<T> : Parameter
{
    private readonly Func<string, (T Value, string? Problem)> _parse;

    internal Parameter(string name, string description, string defaultValue, string? quickValue, Func<string, (T Value, string? Problem)> parse)
        : base(name, description, defaultValue, quickValue)
    {
        ArgumentNullException.ThrowIfNull(parse);
        _parse = parse;
    }

    /// <inheritdoc/>
    public override bool IsSwitch => Flag;

    /// <summary>Reads <paramref name="text"/>: the value, or a one-line reason it is not one.</summary>
    internal (T Value, string? Problem) Parse(string text) => _parse(text);

    internal bool Flag { get; init; }

    /// <inheritdoc/>
    public override string? Check(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return _parse(text).Problem;
    }

    /// <summary>The parameter's value in <paramref name="values"/>, which were checked when they were made.</summary>
    /// <exception cref="ArgumentException"><paramref name="values"/> lack this parameter or hold a value it does not accept.</exception>
    public T Read(ParameterValues values)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (!values.Values.TryGetValue(Name, out var text))
        {
            throw new ArgumentException($"The parameters have no --{Name}.", nameof(values));
        }

        var (value, problem) = _parse(text);
        return problem is null ? value : throw new ArgumentException(problem, nameof(values));
    }
}
