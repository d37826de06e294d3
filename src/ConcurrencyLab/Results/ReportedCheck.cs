namespace ConcurrencyLab.Results;

/// <summary>
/// A trial check a scenario wants shown as a column of its tables (such as messages per second), reported
/// as the median over a variant's successful trials.
/// </summary>
/// <param name="Name">The key in each trial's <c>checks</c>.</param>
/// <param name="Header">What a reader sees.</param>
/// <param name="Unit">Unit of the value, empty when it has none.</param>
/// <param name="HigherIsBetter">Whether a larger value is better; null when neither is.</param>
public sealed record ReportedCheck(string Name, string Header, string Unit, bool? HigherIsBetter)
{
    /// <summary>
    /// Whether a negative value means the thing timed never happened (such as a receiver that never kept up).
    /// Such a trial then counts above every other in the median, and a median among them reads <c>never</c>.
    /// </summary>
    public bool NegativeMeansNever { get; init; }
}
