namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>
/// A run that tests one or more claims of a post: its scenario's variants and parameters, the processor counts
/// it runs under, and how it runs. Claims name runs by <see cref="Key"/>; a run several claims share runs once.
/// </summary>
internal sealed record ClaimRun
{
    /// <summary>A short name, unique within the post (<c>delay</c>, <c>delay-as-published</c>).</summary>
    public required string Key { get; init; }

    /// <summary>The variants to run; for <see cref="AsPublished"/>, in the order the post ran them.</summary>
    public required IReadOnlyList<string> Variants { get; init; }

    /// <summary>The variants under <c>--quick</c>, where its scale names others (fanout's N); null for <see cref="Variants"/>.</summary>
    public IReadOnlyList<string>? QuickVariants { get; init; }

    /// <summary>The variants at the scale asked for.</summary>
    public IReadOnlyList<string> VariantsAt(bool quick) => quick && QuickVariants is { } variants ? variants : Variants;

    /// <summary>The scenario's parameters at full scale, by name (those left out keep the scenario's defaults).</summary>
    public IReadOnlyDictionary<string, string> Parameters { get; init; } = new Dictionary<string, string>();

    /// <summary>The parameters under <c>--quick</c>, on top of the scenario's own quick scale.</summary>
    public IReadOnlyDictionary<string, string> QuickParameters { get; init; } = new Dictionary<string, string>();

    /// <summary>
    /// The processor counts the runtime is made to see (<c>DOTNET_PROCESSOR_COUNT</c>), each its own set of
    /// trials; empty for the machine's own. Published machines had 2 and 8 cores: a count above the real cores
    /// emulates the runtime's policies (pool minimum, default degrees), not the CPUs.
    /// </summary>
    public IReadOnlyList<int> Cores { get; init; } = [];

    /// <summary>
    /// Whether the run does what the post did: every variant once, in <see cref="Variants"/>' order, in one process
    /// that carries its pool from one to the next; repeated as passes, each a fresh process. Otherwise each trial
    /// runs in a fresh process of its own, the order rotated each round, as the lab does by default.
    /// </summary>
    public bool AsPublished { get; init; }

    /// <summary>The scales the run is made at: a run whose claims' conditions the quick scale cannot meet is not made there.</summary>
    public RunScale Scale { get; init; } = RunScale.Both;

    /// <summary>Whether the run is made at the scale asked for.</summary>
    public bool MadeAt(bool quick) => Scale == RunScale.Both || (Scale == RunScale.QuickOnly) == quick;

    /// <summary>Discarded trials per variant before the measured ones, for isolated runs; null for the lab's default.</summary>
    public int? Warmup { get; init; }

    /// <summary>Measured trials (or passes) per variant at full scale; null for the lab's default.</summary>
    public int? Repeat { get; init; }

    /// <summary>Measured trials (or passes) per variant under <c>--quick</c>; null for the lab's quick default.</summary>
    public int? QuickRepeat { get; init; }

    /// <summary>
    /// How long a trial's measured region may last at full scale, where the lab's default is too short (poll sending
    /// for 180 s, fanout's blocking cases at N = 1000); null for the default.
    /// </summary>
    public TimeSpan? TrialTimeout { get; init; }

    /// <summary>The trial timeout at the scale asked for: <see cref="TrialTimeout"/> at full scale, the lab's default otherwise.</summary>
    public TimeSpan TrialTimeoutAt(bool quick) => !quick && TrialTimeout is { } timeout ? timeout : Running.RunOptions.DefaultTrialTimeout;

    /// <summary>
    /// The builds of the trial probe the run times its cases in (<c>Reproduction.ProbeBuilds</c>), each case in each build a
    /// variant of its own; empty for a run of the lab's own build.
    /// </summary>
    public IReadOnlyList<ProbeBuild> Builds { get; init; } = [];

    /// <summary>How the run runs, in a few words, for the table's "run" column.</summary>
    public string Kind => AsPublished ? "as published: one process, fixed order"
        : Builds.Count > 0 ? "builds: a process of each build per trial"
        : "isolated: a process per trial";

    /// <summary>The parameters at the scale asked for.</summary>
    public IReadOnlyDictionary<string, string> ParametersAt(bool quick) =>
        quick ? Parameters.Concat(QuickParameters).GroupBy(p => p.Key).ToDictionary(g => g.Key, g => g.Last().Value) : Parameters;
}

/// <summary>The scales a <see cref="ClaimRun"/> is made at.</summary>
internal enum RunScale
{
    /// <summary>Under <c>--quick</c> and at full scale.</summary>
    Both,

    /// <summary>Under <c>--quick</c> only: at full scale another run measures the same.</summary>
    QuickOnly,

    /// <summary>At full scale only: the quick scale cannot meet its claims' conditions.</summary>
    FullOnly,
}

/// <summary>A post's claims and the runs that test them: what a scenario that reproduces a post declares.</summary>
/// <param name="Post">The post, as a reader knows it (file and subject).</param>
/// <param name="Runs">The runs, in the order they run.</param>
/// <param name="Claims">The claims, in the order the post makes them.</param>
internal sealed record PublishedClaims(string Post, IReadOnlyList<ClaimRun> Runs, IReadOnlyList<Claim> Claims);
