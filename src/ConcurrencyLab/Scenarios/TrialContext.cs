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
}
