using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Scenarios;

/// <summary>What a scenario is given to run one trial.</summary>
public sealed class TrialContext
{
    /// <summary>The context of one trial of <paramref name="variant"/>.</summary>
    public TrialContext(Variant variant, ParameterValues parameters, int seed, TrialMeter meter, bool prime = true)
    {
        Prime = prime;
        Variant = variant;
        Parameters = parameters;
        Seed = seed;
        Meter = meter;
    }

    /// <summary>The variant to run: its family, form and parameter values.</summary>
    public Variant Variant { get; }

    /// <summary>The run's parameters, with what the run's fixture added.</summary>
    public ParameterValues Parameters { get; }

    /// <summary>The run's seed: the same seed must give the same work.</summary>
    public int Seed { get; }

    /// <summary>
    /// Whether to run the variant once, unmeasured, on a dry workload first, so the JIT's work on the
    /// variant's code is not charged to the measured run.
    /// </summary>
    public bool Prime { get; }

    /// <summary>Started right before the variant runs and stopped right after.</summary>
    public TrialMeter Meter { get; }

    private string? _serviceEventPort;

    /// <summary>
    /// The runner's diagnostic port for the one service the trial observes (fanout's product service), as the
    /// trial's request brought it; null when the runner reads no service's events.
    /// </summary>
    internal string? ServiceEventPort
    {
        init => _serviceEventPort = value;
    }

    /// <summary>
    /// The port, once: later calls get null. It goes to one service's process only, since a runtime that connects
    /// to a port nobody reads waits there for ever.
    /// </summary>
    internal string? TakeServiceEventPort() => Interlocked.Exchange(ref _serviceEventPort, null);
}
