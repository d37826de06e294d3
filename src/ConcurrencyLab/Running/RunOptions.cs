using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Results;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Running;

/// <summary>What a user asked for; <see cref="RunPlanner"/> turns it into a validated <see cref="RunPlan"/>.</summary>
public sealed record RunOptions
{
    /// <summary>Default measured trials per variant.</summary>
    public const int DefaultRepeat = 5;

    /// <summary>Default measured trials per variant under <see cref="Quick"/>.</summary>
    public const int QuickRepeat = 3;

    /// <summary>
    /// Default discarded trials per variant before the measured ones (none under <see cref="Quick"/>: a warmup
    /// trial runs in its own process and warms only the machine, which the first round does as well).
    /// </summary>
    public const int DefaultWarmup = 1;

    /// <summary>Default discarded trials per variant under <see cref="Quick"/>.</summary>
    public const int QuickWarmup = 0;

    /// <summary>The default seed of every workload.</summary>
    public const int DefaultSeed = Scenario.DefaultSeed;

    /// <summary>How long a trial's measured region may last before the trial is stopped and recorded as timed out, unless said otherwise.</summary>
    public static readonly TimeSpan DefaultTrialTimeout = TimeSpan.FromSeconds(120);

    /// <summary>The shortest trial timeout a run accepts: a millisecond, less than any trial could finish in.</summary>
    internal static readonly TimeSpan MinTrialTimeout = TimeSpan.FromMilliseconds(1);

    /// <summary>The longest trial timeout a run accepts: a day.</summary>
    internal static readonly TimeSpan MaxTrialTimeout = TimeSpan.FromDays(1);

    /// <summary>
    /// How long a trial may take before its measured region begins (its process starting, the scenario's
    /// set-up, priming), on top of the trial timeout, which covers the region alone.
    /// </summary>
    internal static readonly TimeSpan TrialStartUpAllowance = TimeSpan.FromSeconds(60);

    /// <summary>How often the sampler reads threads, the pool's queue and CPU, unless said otherwise.</summary>
    public static readonly TimeSpan DefaultSampleInterval = TimeSpan.FromMilliseconds(10);

    /// <summary>The shortest sample interval a run accepts, but for 0 (off): a millisecond; a sampler any busier would
    /// cost the trial more than it tells.</summary>
    internal static readonly TimeSpan MinSampleInterval = TimeSpan.FromMilliseconds(1);

    /// <summary>The longest sample interval a run accepts: a minute.</summary>
    internal static readonly TimeSpan MaxSampleInterval = TimeSpan.FromMinutes(1);

    /// <summary>The longest a run may be estimated to take at least unless <see cref="AllowLargePlan"/> says so: a day.</summary>
    internal static readonly TimeSpan LargePlanDuration = TimeSpan.FromHours(24);

    /// <summary>
    /// The most variants a run plans: as many as a results file holds for <c>report</c> and <c>compare</c> to read
    /// back. Counted before any is made, so a product of sweeps past it is refused at once.
    /// </summary>
    public const int MostVariants = Results.ResultsFile.MaxVariants;

    /// <summary>The most trials a run plans, warmups included: as many as a results file holds.</summary>
    public const int MostTrials = Results.ResultsFile.MaxTrials;

    /// <summary>Scenarios to run by name; empty means all.</summary>
    public IReadOnlyList<string> Scenarios { get; init; } = [];

    /// <summary>Variants to run by name; empty means each scenario's defaults.</summary>
    public IReadOnlyList<string> Variants { get; init; } = [];

    /// <summary>Scenario parameters by name (without dashes), as typed.</summary>
    public IReadOnlyDictionary<string, string> Parameters { get; init; } = new Dictionary<string, string>();

    /// <summary>
    /// How each variant's cost grows with the work: <c>NAME=SIZE,SIZE,...</c> (<c>items=100,1000,10000</c>), a
    /// whole-number parameter of the scenario (its own or a sweep) and two or more sizes within its range. Every
    /// variant runs at each size, named <c>whenall:items=1000</c>, and the results carry the growth exponent of
    /// each variant's median (<see cref="Results.ScenarioResult.Growth"/>). Null for none.
    /// </summary>
    public string? Grow { get; init; }

    /// <summary>
    /// Measured trials per variant: the most, since a variant stops once it has enough (out of contention, or its
    /// interval tight: <see cref="RunSettings.Adaptive"/>) unless <see cref="RepeatExactly"/>; null for the default at the chosen scale.
    /// </summary>
    public int? Repeat { get; init; }

    /// <summary>Run every variant <see cref="Repeat"/> measured trials, none stopping early (<c>--repeat-exactly</c>);
    /// implied by <see cref="FixedOrder"/>, whose later variants inherit what earlier ones left.</summary>
    public bool RepeatExactly { get; init; }

    /// <summary>Discarded trials per variant before the measured ones; null for the default.</summary>
    public int? Warmup { get; init; }

    /// <summary>The seed every workload is built from; the same seed gives the same work.</summary>
    public int Seed { get; init; } = DefaultSeed;

    /// <summary>Each scenario's small scale, which finishes in well under a minute.</summary>
    public bool Quick { get; init; }

    /// <summary>
    /// Where no variants are named, each built-in scenario's first look (the variants that carry its published
    /// finding and the answer done right) instead of all its defaults: what a bare <c>conclab run</c> runs.
    /// </summary>
    public bool FirstLook { get; init; }

    /// <summary>Run trials in this process instead of fresh child processes.</summary>
    public bool InProcess { get; init; }

    /// <summary>
    /// Run the variants in the order <see cref="Variants"/> names them in every round, instead of rotating the
    /// order so that none always runs first. With <see cref="InProcess"/>, the procedure of a post that ran its
    /// cases one after another in one process, whose later cases inherit the pool the earlier ones grew.
    /// </summary>
    public bool FixedOrder { get; init; }

    /// <summary>How long a trial's measured region may last before the trial is stopped and recorded as timed out (see
    /// <see cref="TrialStartUpAllowance"/>).</summary>
    public TimeSpan TrialTimeout { get; init; } = DefaultTrialTimeout;

    /// <summary>How often the sampler reads the trial's process; zero turns the sampler off.</summary>
    public TimeSpan SampleInterval { get; init; } = DefaultSampleInterval;

    /// <summary>Run each variant once on a dry workload in the trial's process before measuring it.</summary>
    public bool Prime { get; init; } = true;

    /// <summary>Which of the runtime's own events each isolated trial's account is made from; <see cref="DefaultEvents"/> unless set.</summary>
    public RuntimeEvents Events { get; init; } = DefaultEvents;

    /// <summary>The runtime events read by default.</summary>
    public const RuntimeEvents DefaultEvents = RuntimeEvents.Full;

    /// <summary>
    /// <c>DOTNET_</c> variables set in every trial's process before its runtime starts: the runtime's settings
    /// for the run (<c>DOTNET_PROCESSOR_COUNT</c>, <c>DOTNET_ThreadPool_ForceMinWorkerThreads</c>,
    /// <c>DOTNET_HillClimbing_Disable</c>, <c>DOTNET_gcServer</c>...). Each trial records what it saw. Not with
    /// <see cref="InProcess"/>, whose runtime has long started.
    /// </summary>
    public IReadOnlyDictionary<string, string> RuntimeEnvironment { get; init; } = new Dictionary<string, string>();

    /// <summary>
    /// Runtime settings given several values, by name (<c>cores</c>, <c>pool-min</c>, <c>hill-climbing</c>,
    /// <c>server-gc</c>): each multiplies every variant (<c>whenall:cores=2</c>, <c>whenall:cores=8</c>), and each
    /// trial's process starts with its variant's value. Not with <see cref="InProcess"/>.
    /// </summary>
    public IReadOnlyDictionary<string, IReadOnlyList<int>> RuntimeSweeps { get; init; } = new Dictionary<string, IReadOnlyList<int>>();

    /// <summary>The variant ratios are computed against; null for the scenario's default.</summary>
    public string? Baseline { get; init; }

    /// <summary>
    /// Whether a plan estimated to take at least <see cref="LargePlanDuration"/> runs; otherwise it is refused before
    /// anything runs, with its count and estimate. No plan runs past <see cref="MostVariants"/> or <see cref="MostTrials"/>.
    /// </summary>
    public bool AllowLargePlan { get; init; }
}
