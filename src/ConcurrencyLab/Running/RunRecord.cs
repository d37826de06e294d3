using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// What a run measured, before any statistics: every measured trial of every variant, with what its scenario's
/// set-up said and measured. <see cref="Analysis.Summarizer"/> turns it into a <see cref="RunResult"/>.
/// </summary>
internal sealed record RunRecord
{
    /// <summary>UTC time the run started, ISO 8601.</summary>
    public required string StartedAt { get; init; }

    /// <summary>Where the run happened: the runner's machine and runtime.</summary>
    public required EnvironmentInfo Environment { get; init; }

    /// <summary>How the run was configured: repeats, warmups, seed, isolation, timeouts.</summary>
    public required RunSettings Settings { get; init; }

    /// <summary>The scenarios run, in order; after a cancellation, only those begun.</summary>
    public required IReadOnlyList<ScenarioRecord> Scenarios { get; init; }

    /// <summary>Whether the run was cut short by cancellation; what was measured before is kept.</summary>
    public bool Cancelled { get; init; }

    /// <summary>What the reader should know about the run as a whole, such as a progress display that failed.</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];
}

/// <summary>One scenario's measured trials.</summary>
/// <param name="Plan">What was planned for it.</param>
/// <param name="Variants">Each planned variant's measured trials, warmups left out, in the plan's order.</param>
/// <param name="Notes">What the reader should know: the plan's notes, the set-up's, failed warmups, a cancellation.</param>
/// <param name="Ideal">The bound no variant can beat: the one the set-up measured, else the planned one.</param>
/// <param name="Bounds">Reference rates the set-up measured, by name; empty when it measured none.</param>
internal sealed record ScenarioRecord(
    ScenarioPlan Plan,
    IReadOnlyList<VariantTrials> Variants,
    IReadOnlyList<string> Notes,
    IdealBound Ideal,
    IReadOnlyDictionary<string, double> Bounds)
{
    /// <summary>The item whose least time in any measured trial was the longest; null when no trial timed its items.</summary>
    public Measurement.LongestItem? LongestItem { get; init; }

    /// <summary>How busy other processes kept the machine over the scenario's run; null where it could not be read.</summary>
    public MachineLoad? Load { get; init; }

    /// <summary>The degrees searched before the run (<c>--dop auto</c>); empty when none was.</summary>
    public IReadOnlyList<DegreeSearchResult> DegreeSearches { get; init; } = [];

    /// <summary>With <c>--grow</c>, the bound at each size (the set-up's where it measured one), by size; empty otherwise.</summary>
    public IReadOnlyDictionary<int, IdealBound> GrowIdeals { get; init; } = new Dictionary<int, IdealBound>();
}

/// <summary>A variant and its measured trials.</summary>
internal sealed record VariantTrials(Variant Variant, IReadOnlyList<TrialResult> Trials)
{
    /// <summary>Why it ran fewer trials than the run allowed; null when it ran them all.</summary>
    public EarlyStop? Stop { get; init; }
}
