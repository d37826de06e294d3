namespace ConcurrencyLab.Scenarios;

/// <summary>The physical lower bound on a scenario's wall time, and why no variant can beat it.</summary>
public sealed record IdealBound(double Ms, string Reason);
