using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>A trial ready to measure: its workload, and the fixture it runs against (null when it has none).</summary>
public sealed record PreparedTrial(Workload Workload, IAsyncDisposable? Fixture);
