using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>Everything a process needs to run one trial, as it travels to a child process.</summary>
internal sealed record TrialRequest
{
    public required string Scenario { get; init; }

    /// <summary>The variant as structure (family, form, parameter values), so the child reads no name.</summary>
    public required Variant Variant { get; init; }

    public required IReadOnlyDictionary<string, string> Parameters { get; init; }

    public required int Seed { get; init; }

    public required double SampleIntervalMs { get; init; }

    public int Repeat { get; init; }

    /// <summary>Run the variant once on a dry workload before measuring (see <see cref="Scenarios.TrialContext.Prime"/>).</summary>
    public bool Prime { get; init; } = true;

    /// <summary>
    /// The parent's timeout for this trial. A child exits by itself a little after it, so a trial cannot
    /// outlive a parent that died without killing it.
    /// </summary>
    public double TimeoutMs { get; init; }

    /// <summary>Hint for the sampler's buffer.</summary>
    public double ExpectedDurationMs { get; init; }

    /// <summary>The runner's diagnostic port for the one service the trial observes (fanout's product service); null when events are off.</summary>
    public string? ServiceEventPort { get; init; }

    /// <summary>
    /// The process of the trial before this one, with its start time (<see cref="Hosting.ProcessIdentity.StartTimeOf"/>),
    /// when the runner started this one while that one was still exiting: this trial's region waits for it to be gone.
    /// </summary>
    public ProcessInstance? After { get; init; }
}
