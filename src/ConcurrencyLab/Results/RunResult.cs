using ConcurrencyLab.Measurement;
using ConcurrencyLab.Statistics;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Results;

/// <summary>
/// Everything one <c>conclab run</c> measured: the root of <c>results.json</c>. Its shape is a contract that
/// other tools read; bump <see cref="CurrentSchemaVersion"/> when a field changes meaning or goes away.
/// </summary>
internal sealed record RunResult
{
    /// <summary>
    /// The schema version this build writes. 2: a trial's measurements and a scenario's checks are one
    /// <c>metrics</c> map, a summary's medians one <c>medians</c> map, and a scenario describes its own metrics in
    /// <c>metrics</c> (which replaces <c>reportedChecks</c> and <c>flaggedChecks</c>). 3: a claim's <c>verdict</c> is a
    /// value (<c>holds</c>, <c>doesNotHold</c>, <c>holdsOnly</c>, <c>couldNotJudge</c>, <c>notTested</c>) instead of
    /// words, with its conditions and figures as numbers. Version 1 and 2 files are still read.
    /// </summary>
    public const int CurrentSchemaVersion = 3;

    /// <summary>The version of this file's layout: 3 since verdicts became values; version 1 and 2 files are read too.</summary>
    public int SchemaVersion { get; init; } = CurrentSchemaVersion;

    /// <summary>The program that wrote the file.</summary>
    public string Tool { get; init; } = "conclab";

    /// <summary>The version of the lab that measured the run (<c>0.1.0+</c> the source's revision); null in files
    /// written before it was recorded.</summary>
    public string? ToolVersion { get; init; }

    /// <summary>The version of the lab in this process, as <see cref="ToolVersion"/> records it.</summary>
    public static string CurrentToolVersion { get; } =
        typeof(RunResult).Assembly.GetCustomAttributes(typeof(System.Reflection.AssemblyInformationalVersionAttribute), false)
            .OfType<System.Reflection.AssemblyInformationalVersionAttribute>().FirstOrDefault()?.InformationalVersion
        ?? typeof(RunResult).Assembly.GetName().Version?.ToString() ?? "unknown";

    /// <summary>UTC time the run started, ISO 8601.</summary>
    public required string StartedAt { get; init; }

    /// <summary>The machine and runtime the run measured.</summary>
    public required EnvironmentInfo Environment { get; init; }

    /// <summary>How the run was made: trials, warmup, seed, isolation, timeouts.</summary>
    public required RunSettings Settings { get; init; }

    /// <summary>Each scenario run, in the order it ran.</summary>
    public required IReadOnlyList<ScenarioResult> Scenarios { get; init; }

    /// <summary>Whether the run was cut short by cancellation (Ctrl+C); the trials measured before are all here.</summary>
    public bool Cancelled { get; init; }

    /// <summary>What the reader should know about the run as a whole, such as a progress display that failed.</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];
}

/// <summary>How the run was configured.</summary>
internal sealed record RunSettings
{
    /// <summary>Measured trials per variant: the most, when <see cref="Adaptive"/>.</summary>
    public int Repeat { get; init; }

    /// <summary>
    /// Whether a variant could stop before <see cref="Repeat"/> trials, once out of contention or tight (its
    /// <see cref="VariantResult.Stop"/> says which); false under <c>--repeat-exactly</c> and in older files, whose variants ran them all.
    /// </summary>
    public bool Adaptive { get; init; }

    /// <summary>Discarded trials per variant before the measured ones.</summary>
    public int Warmup { get; init; }

    /// <summary>The seed every workload was built from.</summary>
    public int Seed { get; init; }

    /// <summary>Whether the scenarios ran at their quick scale.</summary>
    public bool Quick { get; init; }

    /// <summary>Whether trials ran in fresh child processes (the default) or in the runner's own process.</summary>
    public bool Isolated { get; init; }

    /// <summary>Whether the variants ran in the order named in every round rather than rotated; false in older files.</summary>
    public bool FixedOrder { get; init; }

    /// <summary>How long a trial's measured region could last, in seconds.</summary>
    public double TrialTimeoutSec { get; init; }

    /// <summary>Milliseconds between samples; 0 when the sampler was off.</summary>
    public double SampleIntervalMs { get; init; }

    /// <summary>Whether each trial ran its variant once on a dry workload before measuring.</summary>
    public bool Prime { get; init; }

    /// <summary>Which of the runtime's events each trial's account was made from; off in files written before accounts,
    /// and for trials run in-process.</summary>
    public RuntimeEvents Events { get; init; }

    /// <summary>The <c>DOTNET_</c> variables every trial's process started with (the runtime's settings for the run);
    /// empty when none, and in older files.</summary>
    public IReadOnlyDictionary<string, string> RuntimeEnvironment { get; init; } = new Dictionary<string, string>();
}

/// <summary>One scenario's results.</summary>
internal sealed record ScenarioResult
{
    /// <summary>The scenario's name, as on the command line.</summary>
    public required string Name { get; init; }

    /// <summary>The scenario's parameters as the run used them, by name, as text.</summary>
    public required IReadOnlyDictionary<string, string> Parameters { get; init; }

    /// <summary>The lower bound on wall time no variant can beat.</summary>
    public required double IdealMs { get; init; }

    /// <summary>Why <see cref="IdealMs"/> is the bound.</summary>
    public required string IdealReason { get; init; }

    /// <summary>Whether the ideal was measured from the results (the scenario gave none) rather than given; false in older files.</summary>
    public bool IdealMeasured { get; init; }

    /// <summary>Reference rates measured on this machine at the start of the scenario, from which the ideal was
    /// derived; empty when the ideal needs none.</summary>
    public IReadOnlyDictionary<string, double> Bounds { get; init; } = new Dictionary<string, double>();

    /// <summary>
    /// Each item's least time in any measured trial, as the runner folded them: what an item takes at its fastest.
    /// Null where the scenario does not time its items, where the trials ran more than one workload (a sweep of the
    /// work, <c>--grow</c>), and in older files.
    /// </summary>
    public ItemLeastTimes? ItemTimes { get; init; }

    /// <summary>The variant the ratios are computed against.</summary>
    public required string Baseline { get; init; }

    /// <summary>Each variant run, with its summary and trials.</summary>
    public required IReadOnlyList<VariantResult> Variants { get; init; }

    /// <summary>
    /// The scenario's own metrics, described (such as messages per second, or hosts misclassified, which should
    /// be 0); the lab's own, <see cref="StandardMetrics"/>, are not repeated here.
    /// </summary>
    public IReadOnlyList<Metric> Metrics { get; init; } = [];

    /// <summary>
    /// The variant parameters whose values change the work itself (fanout's <c>requests</c>, a workload's sweeps):
    /// a recommendation weighs only variants at the same values against each other. Empty in older files.
    /// </summary>
    public IReadOnlyList<string> WorkParameters { get; init; } = [];

    /// <summary>
    /// Every published claim of the post the scenario reproduces, each judged where the run met its conditions and
    /// <see cref="Verdict.NotTested"/> where it did not (empty for a scenario that reproduces no post, and in older files).
    /// </summary>
    public IReadOnlyList<ClaimResult> Claims { get; init; } = [];

    /// <summary>
    /// What the scenario expects a metric of every variant's trials to be for their times to measure the work the run
    /// describes (mix: each item's CPU by its thread's own clock, against the CPU asked). A variant whose median strays
    /// beyond the tolerance is left out of the answer (<see cref="Recommendation.NotJudged"/>). Empty when the scenario
    /// expects nothing of the kind, and in older files.
    /// </summary>
    public IReadOnlyList<ExpectedMetric> Expectations { get; init; } = [];

    /// <summary>The degrees searched before the run (<c>--dop auto</c>), one per strategy that takes a degree; empty
    /// when none was searched, and in older files.</summary>
    public IReadOnlyList<DegreeSearchResult> DegreeSearches { get; init; } = [];

    /// <summary>How each variant's cost grew with the parameter <c>--grow</c> grew; null when the run grew none.</summary>
    public GrowthResult? Growth { get; init; }

    /// <summary>The program <c>conclab why</c> watched, for a watch; null for every other scenario.</summary>
    public WatchedProgram? Watched { get; init; }

    /// <summary>How busy other processes kept the machine over the scenario's run; null in older files and off Linux.</summary>
    public MachineLoad? MachineLoad { get; init; }

    /// <summary>A service under open-loop load (<c>conclab load</c>): its variants' steps and saturation points; null
    /// for a run of batches. A load scenario has no <see cref="Variants"/> of trials.</summary>
    public LoadResult? Load { get; init; }

    /// <summary>
    /// The answer after the table, one per set of values of <see cref="WorkParameters"/> (one when there are none):
    /// which variant to use and which to avoid, and why, with the figures. Empty when no variant had an ok trial; null
    /// in files written before answers were stored, whose reports compute them from the results.
    /// </summary>
    public IReadOnlyList<Recommendation>? Recommendations { get; init; }

    /// <summary>Every metric the scenario's trials may hold: the lab's own, then the scenario's (one described as the lab's is the lab's).</summary>
    internal IEnumerable<Metric> AllMetrics() => StandardMetrics.All.Concat(Metrics.Where(m => !StandardMetrics.All.Any(s => s.Id == m.Id)));

    /// <summary>The metrics that should be 0 (hosts misclassified, messages lost) and are not in <paramref name="variant"/>'s medians.</summary>
    internal IReadOnlyList<Metric> WrongMetrics(VariantResult variant) =>
        [.. AllMetrics().Where(m => m.FlagsWhenNotZero && variant.Summary?.Median(m) is not (null or 0))];

    /// <summary>Anything the reader should know: scale changes, digests that differ, a hung in-process trial.</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];
}

/// <summary>Each item's least time over every measured trial of a scenario's one workload, whatever the variant.</summary>
internal sealed record ItemLeastTimes
{
    /// <summary>The items in the batch.</summary>
    public required int Items { get; init; }

    /// <summary>The items' least times, on average, in milliseconds.</summary>
    public required double MeanMs { get; init; }

    /// <summary>The longest of the least times, in milliseconds.</summary>
    public required double LongestMs { get; init; }

    /// <summary>How many trials timed the items.</summary>
    public required int Timings { get; init; }

    /// <summary>How many variants those trials ran.</summary>
    public required int Variants { get; init; }
}

/// <summary>One variant's trials and their summary.</summary>
internal sealed record VariantResult
{
    /// <summary>The variant's name, as tables show it.</summary>
    public required string Name { get; init; }

    /// <summary>What the variant does, in .NET terms.</summary>
    public required string Description { get; init; }

    /// <summary>The variant's family (strategy, endpoint, receiver); null in files written before conclab recorded it.</summary>
    public string? Family { get; init; }

    /// <summary>The form items were called in, where the scenario has forms.</summary>
    public WorkForm? Form { get; init; }

    /// <summary>The variant's parameter values by name, as text (<c>degree</c>: <c>40</c>); what reports group sweeps by.</summary>
    public IReadOnlyDictionary<string, string> Parameters { get; init; } = new Dictionary<string, string>();

    /// <summary>The value of parameter <paramref name="name"/> as a whole number; null when there is none, or it is a
    /// word such as <c>default</c>.</summary>
    public int? WholeNumber(string name) => VariantValues.WholeNumber(Parameters, name);

    /// <summary>Ok only when every trial was ok; otherwise the worst a trial met.</summary>
    public required TrialStatus Status { get; init; }

    /// <summary>The variant's measured trials, warmups left out.</summary>
    public required IReadOnlyList<TrialResult> Trials { get; init; }

    /// <summary>Null when no trial succeeded.</summary>
    public VariantSummary? Summary { get; init; }

    /// <summary>Why the variant ran fewer measured trials than <see cref="RunSettings.Repeat"/>; null when it ran them
    /// all (or the run was cancelled first).</summary>
    public EarlyStop? Stop { get; init; }

    /// <summary>
    /// The runtime's account of its median trial, added up; null where no ok trial has a complete account, and in
    /// files written before it was stored (whose reports add it up from the trials).
    /// </summary>
    public AccountSummary? Account { get; init; }
}

/// <summary>Statistics over a variant's successful trials.</summary>
internal sealed record VariantSummary
{
    /// <summary>How many trials were ok, and so summarised.</summary>
    public int Trials { get; init; }

    /// <summary>The median wall time of the ok trials, in milliseconds.</summary>
    public double MedianWallMs { get; init; }

    /// <summary>The shortest wall time among the ok trials, in milliseconds.</summary>
    public double MinWallMs { get; init; }

    /// <summary>The longest wall time among the ok trials, in milliseconds.</summary>
    public double MaxWallMs { get; init; }

    /// <summary>Lower end of the 95% confidence interval of the median wall time.</summary>
    public double CiLowMs { get; init; }

    /// <summary>Upper end of the 95% confidence interval of the median wall time.</summary>
    public double CiHighMs { get; init; }

    /// <summary>Ideal over median wall time: 1 means the variant reached the lower bound.</summary>
    public double? Efficiency { get; init; }

    /// <summary>
    /// The ideal <see cref="Efficiency"/> is against, in milliseconds, where it is not the scenario's (with
    /// <c>--grow</c>, the ideal at the variant's size); null where it is the scenario's.
    /// </summary>
    public double? IdealMs { get; init; }

    /// <summary>
    /// <see cref="Efficiency"/> where it is one (above 0, at most 1), as every report says it: a file that says a
    /// variant beat its ideal (sent, edited, or written before the lab said so as a note) gets no efficiency.
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore]
    internal double? ShownEfficiency => Efficiency is > 0 and <= 1 ? Efficiency : null;

    /// <summary>Median wall time over the baseline's; null when the baseline has no successful trial.</summary>
    public double? RatioToBaseline { get; init; }

    /// <summary>Max over min wall time.</summary>
    public double Spread { get; init; }

    /// <summary>
    /// The median over the ok trials of every metric they recorded, by id (wall time included). A metric where a
    /// negative value means never has -1 here when its median is never.
    /// </summary>
    public IReadOnlyDictionary<string, double> Medians { get; init; } = new Dictionary<string, double>();

    /// <summary>The median of <paramref name="metric"/>, or null when no ok trial recorded it.</summary>
    public double? Median(Metric metric)
    {
        ArgumentNullException.ThrowIfNull(metric);
        return Medians.TryGetValue(metric.Id, out var value) ? value : null;
    }

    /// <summary>
    /// The median of every metric the ok trials recorded, by id, in the order the trials hold them: what
    /// <see cref="Medians"/> holds. A trial that did not record a metric does not count for it. Where a metric's
    /// negative values mean never, those count above every other value, and a median that is never is written -1.
    /// </summary>
    internal static IReadOnlyDictionary<string, double> MediansOf(IReadOnlyList<TrialResult> okTrials, IEnumerable<Metric> scenarioMetrics)
    {
        ArgumentNullException.ThrowIfNull(okTrials);
        ArgumentNullException.ThrowIfNull(scenarioMetrics);
        var never = StandardMetrics.All.Concat(scenarioMetrics).Where(m => m.NegativeMeansNever).Select(m => m.Id).ToHashSet(StringComparer.Ordinal);
        var medians = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var id in okTrials.SelectMany(t => t.Metrics.Keys).Distinct(StringComparer.Ordinal))
        {
            var median = MedianEstimate.MedianOf(okTrials
                .Where(t => t.Metrics.ContainsKey(id))
                .Select(t => never.Contains(id) && t.Metrics[id] < 0 ? double.PositiveInfinity : t.Metrics[id]));
            medians[id] = double.IsPositiveInfinity(median) ? -1 : median;
        }

        return medians;
    }
}

/// <summary>Where the run happened.</summary>
internal sealed record EnvironmentInfo
{
    /// <summary>The operating system, as the runtime describes it.</summary>
    public required string Os { get; init; }

    /// <summary>The .NET runtime, as it describes itself.</summary>
    public required string Runtime { get; init; }

    /// <summary><c>Environment.ProcessorCount</c>: the cores the runtime sees.</summary>
    public required int ProcessorCount { get; init; }

    /// <summary><c>server</c> or <c>workstation</c>, and whether concurrent GC is on.</summary>
    public required string GcMode { get; init; }

    /// <summary>The process's architecture: X64, Arm64.</summary>
    public required string Architecture { get; init; }

    /// <summary>The machine's name, when it was recorded.</summary>
    public string MachineName { get; init; } = string.Empty;

    /// <summary>
    /// Whether the trials' code ran precompiled (ReadyToRun, as the lab's Release build of the tool and a ReadyToRun
    /// publish make it): the lab's assembly, the program's own, or any loaded assembly built on the lab (the scenarios, a user's
    /// workload). It changes a trial's start-up, its <c>jitMs</c> and how the workload's loops are compiled in the region
    /// (docs/method.md); null when not known (older files, a single-file program, runs whose trials are other programs, and
    /// <see cref="Current"/>, which reads only the machine).
    /// </summary>
    public bool? ReadyToRun { get; init; }

    /// <summary>Reads the current process's environment.</summary>
    public static EnvironmentInfo Current() => new()
    {
        Os = System.Runtime.InteropServices.RuntimeInformation.OSDescription,
        Runtime = System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription,
        ProcessorCount = System.Environment.ProcessorCount,
        GcMode = (System.Runtime.GCSettings.IsServerGC ? "server" : "workstation")
            + (System.AppContext.TryGetSwitch("System.GC.Concurrent", out var concurrent) && !concurrent ? ", non-concurrent" : ", concurrent"),
        Architecture = System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant(),
        MachineName = System.Environment.MachineName,
    };

    /// <summary>
    /// The environment of a run whose trials are this program's code (in its child processes or in this one): with
    /// <see cref="ReadyToRun"/> read from the files of that code. Read once per run, as it is recorded; the machine alone
    /// (<see cref="Current"/>) costs no file reads.
    /// </summary>
    internal static EnvironmentInfo ForTrialsOfThisProgram() => Current() with { ReadyToRun = AnyReadyToRun(TrialCode()) };

    /// <summary>
    /// The files of the code a trial runs: the lab's assembly, the program's own, and every loaded assembly that references
    /// the lab (the scenarios and their workloads, a user's own); the framework and third-party libraries are left out.
    /// </summary>
    internal static IReadOnlyList<string> TrialCode()
    {
        var lab = typeof(EnvironmentInfo).Assembly;
        var labName = lab.GetName().Name;
        var built = AppDomain.CurrentDomain.GetAssemblies()
            .Where(a => !a.IsDynamic && a.GetReferencedAssemblies().Any(r => r.Name == labName))
            .Select(a => a.Location);
        return [.. new[] { lab.Location, System.Reflection.Assembly.GetEntryAssembly()?.Location }.Concat(built)
            .Where(p => !string.IsNullOrEmpty(p)).Select(p => p!).Distinct(StringComparer.Ordinal)];
    }

    /// <summary>Whether any of the assembly files holds precompiled code: false when every one could be read and none
    /// does, null when none could be read.</summary>
    internal static bool? AnyReadyToRun(IEnumerable<string?> paths)
    {
        var known = paths.Select(p => p is null ? null : IsReadyToRun(p)).Where(r => r is not null).ToList();
        return known.Count == 0 ? null : known.Any(r => r == true);
    }

    /// <summary>Whether the assembly file at <paramref name="path"/> holds precompiled code; null when it cannot be read.</summary>
    internal static bool? IsReadyToRun(string path)
    {
        if (string.IsNullOrEmpty(path))
        {
            return null;
        }

        try
        {
            using var file = File.OpenRead(path);
            using var reader = new System.Reflection.PortableExecutable.PEReader(file);
            return reader.PEHeaders.CorHeader is { } header ? header.ManagedNativeHeaderDirectory.Size > 0 : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or BadImageFormatException)
        {
            return null;
        }
    }
}

/// <summary>Reading a variant's parameter values, for the planned variant and the recorded one alike.</summary>
internal static class VariantValues
{
    /// <summary>The value of parameter <paramref name="name"/> as a whole number; null when absent or not a number.</summary>
    public static int? WholeNumber(IReadOnlyDictionary<string, string> parameters, string name) =>
        parameters.TryGetValue(name, out var text)
            && int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var value) ? value
                : null;

    /// <summary>
    /// The work a variant runs, as its values of <paramref name="workParameters"/> (<c>requests=100 delay=10</c>; "-" for
    /// one it does not set): variants with the same are weighed against each other, by the recommender and by early
    /// stopping alike, and no others.
    /// </summary>
    public static string WorkGroup(IReadOnlyList<string> workParameters, IReadOnlyDictionary<string, string> parameters) =>
        string.Join(" ", workParameters.Select(p => $"{p}={parameters.GetValueOrDefault(p, "-")}"));
}

/// <summary>A value a scenario expects a metric of each variant's trials to take (<see cref="ScenarioResult.Expectations"/>).</summary>
internal sealed record ExpectedMetric
{
    /// <summary>The metric's id, one of the scenario's metrics.</summary>
    public required string Metric { get; init; }

    /// <summary>The value expected, above 0.</summary>
    public required double Value { get; init; }

    /// <summary>How far from <see cref="Value"/>, as a fraction of it, a variant's median may be and still be judged: above 0 and below 1.</summary>
    public required double Tolerance { get; init; }

    /// <summary>Whether <paramref name="median"/> is within the tolerance of the value.</summary>
    internal bool Holds(double median) => Math.Abs(median - Value) <= Tolerance * Value;

    /// <summary>Whether it can be weighed in <paramref name="scenario"/>: a metric of the scenario's, a finite value
    /// above 0, and a tolerance above 0 and below 1.</summary>
    internal bool IsWeighable(ScenarioResult scenario) => IsWeighable(scenario.AllMetrics());

    /// <summary>Whether it can be weighed among <paramref name="metrics"/>, a scenario's: one of them, a finite value
    /// above 0, and a tolerance above 0 and below 1.</summary>
    internal bool IsWeighable(IEnumerable<Metric> metrics) =>
        Metric is not null && metrics.Any(m => m.Id == Metric) && double.IsFinite(Value) && Value > 0 && Tolerance is > 0 and < 1;
}
