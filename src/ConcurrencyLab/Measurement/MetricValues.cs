using System.Collections;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// A trial's values of metrics, set through the metrics' descriptors (<c>values[Errors] = 3</c>) so no id is
/// spelled twice, and read by id as results and reports do.
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1710:Identifiers should have correct suffix", Justification = "Values of " +
    "metrics, read as a dictionary by id; 'MetricDictionary' would name the shape, not the thing.")]
public sealed class MetricValues : IReadOnlyDictionary<string, double>
{
    private readonly Dictionary<string, double> _values = new(StringComparer.Ordinal);

    /// <summary>The value of <paramref name="metric"/>; setting it replaces any earlier one.</summary>
    /// <exception cref="KeyNotFoundException">On reading: no value was set for the metric.</exception>
    /// <exception cref="ArgumentOutOfRangeException">On setting: the value is not finite, which no file could hold.</exception>
    public double this[Metric metric]
    {
        get
        {
            ArgumentNullException.ThrowIfNull(metric);
            return _values[metric.Id];
        }

        set
        {
            ArgumentNullException.ThrowIfNull(metric);
            if (!double.IsFinite(value))
            {
                throw new ArgumentOutOfRangeException(nameof(value), value, $"{metric.Id} must be a finite number.");
            }

            _values[metric.Id] = value;
        }
    }

    /// <inheritdoc/>
    public double this[string key] => _values[key];

    /// <inheritdoc/>
    public IEnumerable<string> Keys => _values.Keys;

    /// <inheritdoc/>
    public IEnumerable<double> Values => _values.Values;

    /// <inheritdoc/>
    public int Count => _values.Count;

    /// <summary>The value of <paramref name="metric"/>, or null when none was set.</summary>
    public double? Get(Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        return _values.TryGetValue(metric.Id, out var value) ? value : null;
    }

    /// <summary>Sets every value <paramref name="other"/> holds, by id.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is not finite, which no file could hold.</exception>
    internal void AddRange(IReadOnlyDictionary<string, double> other)
    {
        ArgumentNullException.ThrowIfNull(other);
        foreach (var (id, value) in other)
        {
            if (!double.IsFinite(value))
            {
                throw new ArgumentOutOfRangeException(nameof(other), value, $"{id} must be a finite number.");
            }

            _values[id] = value;
        }
    }

    /// <inheritdoc/>
    public bool ContainsKey(string key) => _values.ContainsKey(key);

    /// <inheritdoc/>
    public bool TryGetValue(string key, out double value) => _values.TryGetValue(key, out value);

    /// <inheritdoc/>
    public IEnumerator<KeyValuePair<string, double>> GetEnumerator() => _values.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}
