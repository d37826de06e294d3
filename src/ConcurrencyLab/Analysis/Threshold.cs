using System.Globalization;
using System.Text.RegularExpressions;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Analysis;

/// <summary>
/// A limit on a variant's results that a CI run can fail on, written as conclab's <c>--assert</c> takes it:
/// <c>[scenario/]variant:quantity op value</c>. The variant is a name, or <c>*</c> for every variant. The
/// quantity is <c>median</c> (wall time, ms; a value may end in <c>ideal</c>, as in <c>median&lt;=1.2ideal</c>),
/// <c>efficiency</c>, <c>ratio</c>, <c>failed</c> (trials not ok), <c>lost</c> (items not completed, over all
/// trials) or any metric's id, whose median over the ok trials is compared (<c>peakPoolThreads&lt;=8</c>,
/// <c>starvationInjections==0</c>). The operator is one of <c>&lt;=</c>, <c>&lt;</c>, <c>&gt;=</c>,
/// <c>&gt;</c>, <c>==</c>.
/// </summary>
public sealed partial record Threshold
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    private Threshold(string text, string? scenario, string variant, string quantity, ThresholdOperator op, double value, bool ofIdeal)
    {
        (Text, Scenario, Variant, Quantity, Operator, Value, OfIdeal) = (text, scenario, variant, quantity, op, value, ofIdeal);
        Measures = Quantities.Where(q => q.Text == quantity).Select(q => q.Quantity).DefaultIfEmpty(ThresholdQuantity.Metric).First();
    }

    /// <summary>The threshold as it was written.</summary>
    public string Text { get; }

    /// <summary>The scenario it applies to; null for every scenario that has the variant.</summary>
    public string? Scenario { get; }

    /// <summary>The variant's name, or <c>*</c> for every variant.</summary>
    public string Variant { get; }

    /// <summary>What is compared, as written: <c>median</c>, <c>efficiency</c>, <c>ratio</c>, <c>failed</c>, <c>lost</c> or a metric's id.</summary>
    public string Quantity { get; }

    /// <summary>What is compared, read: one of the quantities every variant has, or
    /// <see cref="ThresholdQuantity.Metric"/> (<see cref="Quantity"/> is its id).</summary>
    public ThresholdQuantity Measures { get; }

    // Each quantity every variant has, as it is written: the one place its text is read.
    private static readonly (string Text, ThresholdQuantity Quantity)[] Quantities =
    [
        ("median", ThresholdQuantity.Median), ("efficiency", ThresholdQuantity.Efficiency), ("ratio", ThresholdQuantity.Ratio),
        ("failed", ThresholdQuantity.Failed), ("lost", ThresholdQuantity.Lost),
    ];

    /// <summary>The comparison, as <c>&lt;=</c>, <c>&lt;</c>, <c>&gt;=</c>, <c>&gt;</c> or <c>==</c> write it.</summary>
    public ThresholdOperator Operator { get; }

    // Each operator as it is written: the one place its text is read and printed.
    private static readonly (string Text, ThresholdOperator Operator)[] Operators =
    [
        ("<=", ThresholdOperator.AtMost), ("<", ThresholdOperator.Below), (">=", ThresholdOperator.AtLeast), (">", ThresholdOperator.Above),
            ("==", ThresholdOperator.Equal),
    ];

    /// <summary><paramref name="op"/> as <c>--assert</c> writes it.</summary>
    public static string Symbol(ThresholdOperator op) => Operators.First(o => o.Operator == op).Text;

    /// <summary>The limit, or its multiple of the scenario's ideal where <see cref="OfIdeal"/> is set.</summary>
    public double Value { get; }

    /// <summary>Whether <see cref="Value"/> is a multiple of the scenario's ideal (medians only).</summary>
    public bool OfIdeal { get; }

    /// <summary>The longest threshold read, in characters: far beyond any real one, short enough to refuse at once.</summary>
    public const int MaxLength = 500;

    /// <summary>The quantities every variant has, besides its metrics' ids.</summary>
    public static IReadOnlyList<string> OwnQuantities { get; } = [.. Quantities.Select(q => q.Text)];

    /// <summary>Reads <paramref name="text"/>; false with a one-line reason when it is not a threshold.</summary>
    public static bool TryParse(string? text, out Threshold? threshold, out string? error)
    {
        threshold = null;
        if (text is { Length: > MaxLength })
        {
            error = $"--assert takes a threshold of at most {MaxLength} characters, such as whenall:median<=1.2ideal, not one of {text.Length}.";
            return false;
        }

        // Matched without backtracking: the time is linear in the text, whatever it holds.
        var match = Grammar().Match(text ?? string.Empty);
        if (!match.Success)
        {
            error = $"--assert takes [scenario/]variant:quantity<=value, such as whenall:median<=1.2ideal or *:peakPoolThreads<=8, not '{text}'.";
            return false;
        }

        var quantity = match.Groups["quantity"].Value;
        var ofIdeal = match.Groups["ideal"].Success;
        if (ofIdeal && quantity != Quantities[0].Text)
        {
            error = $"--assert '{text}': only a median can be a multiple of the ideal.";
            return false;
        }

        if (!double.TryParse(match.Groups["value"].Value, NumberStyles.Float, Invariant, out var value) || !double.IsFinite(value))
        {
            error = $"--assert '{text}': '{match.Groups["value"].Value}' is not a number.";
            return false;
        }

        error = null;
        var op = Operators.First(o => o.Text == match.Groups["op"].Value).Operator;
        threshold = new Threshold(text!.Trim(), match.Groups["scenario"].Success ? match.Groups["scenario"].Value
            : null, match.Groups["variant"].Value, quantity, op, value, ofIdeal);
        return true;
    }

    /// <summary>
    /// Why this threshold's quantity is none of <paramref name="known"/> (the metrics' ids a run measures) nor one of
    /// <see cref="OwnQuantities"/>, naming the closest; null when it is one.
    /// </summary>
    public string? UnknownQuantity(IEnumerable<string> known)
    {
        ArgumentNullException.ThrowIfNull(known);
        var all = OwnQuantities.Concat(known).Distinct(StringComparer.Ordinal).ToList();
        if (all.Contains(Quantity, StringComparer.Ordinal))
        {
            return null;
        }

        var closest = all.OrderBy(q => Scenarios.Closest.Distance(q.ToUpperInvariant(), Quantity.ToUpperInvariant())).First();
        return $"--assert '{Text}': no quantity '{Quantity}' is measured; did you mean '{closest}'? ({string.Join(", ", OwnQuantities)} or " +
            $"a metric's id)";
    }

    /// <summary>Whether one of <paramref name="variants"/> (scenario and variant names, as planned) is one this threshold names.</summary>
    public bool Names(IEnumerable<(string Scenario, string Variant)> variants)
    {
        ArgumentNullException.ThrowIfNull(variants);
        return Variant == "*" ? variants.Any(v => Scenario is null || v.Scenario == Scenario)
            : variants.Any(v => (Scenario is null || v.Scenario == Scenario) && v.Variant == Variant);
    }

    /// <summary>Every check this threshold makes on <paramref name="run"/>: one per variant it names, met or not.</summary>
    public IReadOnlyList<ThresholdCheck> Check(LabResult run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return Check(run.Record);
    }

    /// <summary>Every check this threshold makes on <paramref name="run"/>, as a results file holds it.</summary>
    internal IReadOnlyList<ThresholdCheck> Check(RunResult run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var checks = new List<ThresholdCheck>();
        foreach (var scenario in run.Scenarios.Where(s => Scenario is null || s.Name == Scenario))
        {
            foreach (var variant in scenario.Variants.Where(v => Variant == "*" || v.Name == Variant))
            {
                var measured = Measure(variant);
                var limit = OfIdeal ? Value * scenario.IdealMs : Value;
                var met = measured is { } m && Operator switch
                {
                    ThresholdOperator.AtMost => m <= limit,
                    ThresholdOperator.Below => m < limit,
                    ThresholdOperator.AtLeast => m >= limit,
                    ThresholdOperator.Above => m > limit,
                    ThresholdOperator.Equal => m == limit,
                    _ => throw new InvalidOperationException($"no comparison {Operator}"),
                };
                var limitText = OfIdeal
                    ? $"{Value.ToString("0.###", Invariant)} x the ideal {scenario.IdealMs.ToString("0.#", Invariant)} = " +
                        $"{limit.ToString("0.###", Invariant)}" : limit.ToString("0.###", Invariant);
                var message = measured is { } value
                    ? $"{scenario.Name}/{variant.Name}: {Quantity} {value.ToString("0.###", Invariant)}, limit {Symbol(Operator)} {limitText}"
                    : $"{scenario.Name}/{variant.Name}: no {Quantity} to compare (no trial was ok, or none recorded it), limit " +
                        $"{Symbol(Operator)} {limitText}";
                checks.Add(new ThresholdCheck(this, scenario.Name, variant.Name, measured, met, message));
            }
        }

        return checks;
    }

    private double? Measure(VariantResult variant) => Measures switch
    {
        ThresholdQuantity.Median => variant.Summary?.MedianWallMs,
        ThresholdQuantity.Efficiency => variant.Summary?.Efficiency,
        ThresholdQuantity.Ratio => variant.Summary?.RatioToBaseline,
        ThresholdQuantity.Failed => variant.Trials.Count(t => t.Status != TrialStatus.Ok),
        ThresholdQuantity.Lost => variant.Trials.Sum(t => Math.Max(0, t.ItemsPlanned - t.ItemsCompleted)),
        ThresholdQuantity.Metric => variant.Summary?.Medians.TryGetValue(Quantity, out var value) == true ? value : null,
        _ => throw new InvalidOperationException($"no quantity {Measures}"),
    };

    [GeneratedRegex(@"^\s*(?:(?<scenario>[A-Za-z0-9_.-]+)/)?(?<variant>\*|[^:\s]+)\s*:\s*(?<quantity>[A-Za-z][A-Za-z0-9_-]*)\s*(?<op><=|>=|==|<|>)\s*(?<value>[-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(?<ideal>ideal)?\s*$", RegexOptions.NonBacktracking)]
    private static partial Regex Grammar();
}

/// <summary>One threshold checked against one variant.</summary>
/// <param name="Threshold">The threshold.</param>
/// <param name="Scenario">The scenario's name.</param>
/// <param name="Variant">The variant's name.</param>
/// <param name="Measured">The value compared; null when there was none.</param>
/// <param name="Met">Whether the limit held.</param>
/// <param name="Message">What was compared with what, in one line.</param>
public sealed record ThresholdCheck(Threshold Threshold, string Scenario, string Variant, double? Measured, bool Met, string Message);

/// <summary>How a <see cref="Threshold"/> compares a measured quantity with its limit.</summary>
public enum ThresholdOperator
{
    /// <summary><c>&lt;=</c>: at most the limit.</summary>
    AtMost,

    /// <summary><c>&lt;</c>: below the limit.</summary>
    Below,

    /// <summary><c>&gt;=</c>: at least the limit.</summary>
    AtLeast,

    /// <summary><c>&gt;</c>: above the limit.</summary>
    Above,

    /// <summary><c>==</c>: exactly the limit.</summary>
    Equal,
}

/// <summary>What a <see cref="Threshold"/> compares with its limit.</summary>
public enum ThresholdQuantity
{
    /// <summary>The median wall time, in milliseconds (<c>median</c>).</summary>
    Median,

    /// <summary>The efficiency against the ideal (<c>efficiency</c>).</summary>
    Efficiency,

    /// <summary>The ratio of the median to the baseline's (<c>ratio</c>).</summary>
    Ratio,

    /// <summary>The trials that were not ok (<c>failed</c>).</summary>
    Failed,

    /// <summary>The items not completed, over all trials (<c>lost</c>).</summary>
    Lost,

    /// <summary>A metric's median over the ok trials, named by its id.</summary>
    Metric,
}
