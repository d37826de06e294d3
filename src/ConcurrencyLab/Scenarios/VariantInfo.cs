namespace ConcurrencyLab.Scenarios;

/// <summary>A variant's canonical name and what it does.</summary>
public sealed record VariantInfo(string Name, string Description);
