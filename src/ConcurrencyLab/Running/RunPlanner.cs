using System.Globalization;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Running;

/// <summary>
/// Turns <see cref="RunOptions"/> into a <see cref="RunPlan"/>, collecting every problem (unknown
/// scenario, bad parameter, unknown variant, a strategy paired with a form it cannot use) before any
/// trial starts, rather than stopping at the first.
/// </summary>
internal static partial class RunPlanner
{
    /// <summary>The parameter a scenario's strategies take their degrees from; <c>auto</c> searches them.</summary>
    private const string DegreesName = "dop";

    /// <summary>Builds the plan, or returns false with one line per problem, each naming the <see cref="RunOptions"/> member it is about.</summary>
    public static bool TryCreate(RunOptions options, IReadOnlyList<Scenario> catalog, out RunPlan plan, out IReadOnlyList<string> errors) =>
        TryCreate(options, catalog, CodeNames, out plan, out errors);

    /// <summary>
    /// As <see cref="TryCreate(RunOptions, IReadOnlyList{Scenario}, out RunPlan, out IReadOnlyList{string})"/>, with
    /// each setting named by <paramref name="naming"/> (from a <see cref="RunOptions"/> member's name, or
    /// <c>RuntimeSettings</c> for the runtime's settings together): the command line names its flags, code its members.
    /// </summary>
    public static bool TryCreate(
        RunOptions options,
        IReadOnlyList<Scenario> catalog,
        Func<string, string> naming,
        out RunPlan plan,
        out IReadOnlyList<string> errors)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(catalog);
        ArgumentNullException.ThrowIfNull(naming);
        plan = null!;

        // Every problem is found before any is said: the settings, the scenarios chosen, then each scenario's plan.
        var repeat = options.Repeat ?? (options.Quick ? RunOptions.QuickRepeat : RunOptions.DefaultRepeat);
        var warmup = options.Warmup ?? (options.Quick ? RunOptions.QuickWarmup : RunOptions.DefaultWarmup);
        var problems = SettingsProblems(options, naming, repeat, warmup);
        var chosen = Choose(options, catalog, problems);
        var plans = new List<ScenarioPlan>();
        long counted = 0;
        foreach (var scenario in chosen)
        {
            if (PlanOne(scenario, options, naming, problems, ref counted) is { } scenarioPlan)
            {
                plans.Add(scenarioPlan);
            }
        }

        // Parameters and scenarios write a parameter as its flag, --name; the caller's naming says it its way.
        var declared = chosen.SelectMany(c => c.Parameters).Select(p => p.Name).Concat(options.Parameters.Keys).ToHashSet(StringComparer.Ordinal);
        errors = [.. problems.Select(p => NameParameters(p, declared, naming))];
        if (problems.Count > 0)
        {
            return false;
        }

        var made = new RunPlan(plans, Settings(options, chosen, repeat, warmup), options.TrialTimeout);
        if (Refusal(made, options, naming) is { } refusal)
        {
            errors = [refusal];
            return false;
        }

        plan = made;
        return true;
    }

    // The run's own settings, each in its range.
    private static List<string> SettingsProblems(RunOptions options, Func<string, string> naming, int repeat, int warmup)
    {
        var problems = new List<string>();
        if (repeat is < 1 or > 1000)
        {
            problems.Add($"{naming(nameof(RunOptions.Repeat))} must be a whole number from 1 to 1000, not {repeat}.");
        }

        if (warmup is < 0 or > 100)
        {
            problems.Add($"{naming(nameof(RunOptions.Warmup))} must be a whole number from 0 to 100, not {warmup}.");
        }

        if (options.TrialTimeout < RunOptions.MinTrialTimeout || options.TrialTimeout > RunOptions.MaxTrialTimeout)
        {
            problems.Add($"{naming(nameof(RunOptions.TrialTimeout))} must be a positive number of seconds, at most " +
                $"{Text(RunOptions.MaxTrialTimeout.TotalSeconds)} (and at least {Text(RunOptions.MinTrialTimeout.TotalSeconds)}).");
        }

        if (options.SampleInterval != TimeSpan.Zero
            && (options.SampleInterval < RunOptions.MinSampleInterval || options.SampleInterval > RunOptions.MaxSampleInterval))
        {
            problems.Add($"{naming(nameof(RunOptions.SampleInterval))} must be 0 (off) or a positive number of milliseconds, at most " +
                $"{Text(RunOptions.MaxSampleInterval.TotalMilliseconds)} (and at least {Text(RunOptions.MinSampleInterval.TotalMilliseconds)}).");
        }

        problems.AddRange(RuntimeEnvironmentProblems(options, naming));
        return problems;
    }

    // The scenarios named (all but those run only when named, when none is), and the parameters none of them takes.
    private static List<Scenario> Choose(RunOptions options, IReadOnlyList<Scenario> catalog, List<string> problems)
    {
        var chosen = new List<Scenario>();
        if (options.Scenarios.Count == 0)
        {
            chosen.AddRange(catalog.Where(s => !s.OnlyWhenNamed));
        }

        foreach (var name in options.Scenarios)
        {
            var scenario = catalog.FirstOrDefault(s => string.Equals(s.Name, name, StringComparison.OrdinalIgnoreCase));
            if (scenario is null)
            {
                problems.Add($"unknown scenario '{name}'; known: {string.Join(", ", catalog.Select(s => s.Name))}.");
            }
            else if (!chosen.Contains(scenario))
            {
                chosen.Add(scenario);
            }
        }

        // A parameter is accepted when at least one chosen scenario takes it; each scenario gets its own.
        foreach (var name in options.Parameters.Keys)
        {
            if (chosen.Count > 0 && !chosen.Any(s => s.Parameters.Any(p => p.Name == name)))
            {
                problems.Add($"--{name} is not a parameter of {string.Join(" or ", chosen.Select(s => s.Name))}.");
            }
        }

        return chosen;
    }

    // One scenario's plan: its parameters (with --dop auto and --grow read first), checked together, then its
    // variants; null, with its problems added, where it cannot be made.
    private static ScenarioPlan? PlanOne(Scenario scenario, RunOptions options, Func<string, string> naming, List<string> problems, ref long counted)
    {
        var given = options.Parameters
            .Where(p => scenario.Parameters.Any(d => d.Name == p.Key))
            .ToDictionary(p => p.Key, p => p.Value);
        if (SearchAsked(scenario, given, problems) is not { } search)
        {
            return null;
        }

        // --grow runs every variant at each size: the plan is made at the smallest (a sweep's list at them all).
        GrowPlan? grow = null;
        if (options.Grow is { } growText)
        {
            grow = GrowOf(scenario, growText, given, problems);
            if (grow is null)
            {
                return null;
            }

            given[grow.Name] = grow.IsSweep ? string.Join(",", grow.Sizes) : Text(grow.Sizes[0]);
        }

        // A scenario whose --dop defaults to auto searches unless a degree is given: as --dop, or in a variant's
        // name (parallel-for@8 is a degree the user chose), whose plan then starts from the default degrees.
        if (scenario is BatchScenario { SearchesDegreesByDefault: true } batch && !given.ContainsKey(DegreesName))
        {
            if (options.Variants.Any(batch.NamesADegree))
            {
                given[DegreesName] = string.Join(",", batch.StartingDegrees);
            }
            else
            {
                search = true;
            }
        }

        var parameters = ParameterValues.Create(scenario.Parameters, given, options.Quick, out var parameterErrors);
        problems.AddRange(parameterErrors);
        var crossErrors = parameterErrors.Count > 0 ? [] : scenario.Validate(parameters, options.Seed).ToList();
        problems.AddRange(crossErrors);
        if (parameterErrors.Count > 0 || crossErrors.Count > 0)
        {
            return null;
        }

        try
        {
            return PlanScenario(scenario, parameters, options, problems, naming, grow, ref counted) is { } scenarioPlan
                ? scenarioPlan with
                {
                    SearchDegrees = search,
                    Grow = grow is null ? null
                        : grow with { Ideals = grow.Sizes.ToDictionary(
                            size => size, size => scenario.Ideal(grow.At(parameters, size), options.Seed)) },
                }
                : null;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The scenario's own code runs here first (a user's workload factory among it, which says what
            // forms the workload has): its failure is bad input, not a crash.
            problems.Add($"{scenario.Name}: building the workload failed: {ex.GetType().Name}: {ex.Message}".ReplaceLineEndings(" "));
            return null;
        }
    }

    // --dop auto searches the degrees before the run: the plan is made at the default degrees, which the degrees
    // found replace. Whether it was asked for; null, with the problem added, where it cannot be.
    private static bool? SearchAsked(Scenario scenario, Dictionary<string, string> given, List<string> problems)
    {
        if (!given.TryGetValue(DegreesName, out var dop) || !dop.Contains(BatchScenario.SearchWord, StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        if (!string.Equals(dop.Trim(), BatchScenario.SearchWord, StringComparison.OrdinalIgnoreCase))
        {
            problems.Add($"--{DegreesName} '{dop}': auto searches the degree, so it cannot be given with degrees; give auto, or a list of degrees.");
            return null;
        }

        if (scenario is not BatchScenario)
        {
            problems.Add($"--{DegreesName} auto: {scenario.Name} has no strategies whose degree the lab can search.");
            return null;
        }

        given.Remove(DegreesName);
        return true;
    }

    private static RunSettings Settings(RunOptions options, IReadOnlyList<Scenario> chosen, int repeat, int warmup) => new()
    {
        Repeat = repeat,
        Adaptive = !options.RepeatExactly && !options.FixedOrder
            && repeat > chosen.Select(EarlyStopping.FewestTrials).DefaultIfEmpty(EarlyStopping.MinimumTrials).Min(),
        Warmup = warmup,
        Seed = options.Seed,
        Quick = options.Quick,
        Isolated = !options.InProcess,
        FixedOrder = options.FixedOrder,
        TrialTimeoutSec = options.TrialTimeout.TotalSeconds,
        SampleIntervalMs = options.SampleInterval.TotalMilliseconds,
        Prime = options.Prime,
        Events = options.InProcess ? RuntimeEvents.Off : options.Events,
        RuntimeEnvironment = options.RuntimeEnvironment,
    };

    // A plan past what a results file holds could not be read back; one estimated at a day or more is more likely a
    // slip (a range typed for a list, sweeps multiplied) than a wish, and runs only when the caller says so.
    private static string? Refusal(RunPlan plan, RunOptions options, Func<string, string> naming)
    {
        var variantCount = plan.Scenarios.Sum(p => p.Variants.Count);
        var size = string.Create(
            CultureInfo.InvariantCulture, $"this run plans {variantCount:N0} variants, {plan.TotalTrials:N0} trials, estimated at " +
                $"{plan.SpokenEstimate()}");
        return variantCount > RunOptions.MostVariants || plan.TotalTrials > RunOptions.MostTrials
            ? string.Create(
                CultureInfo.InvariantCulture, $"{size}: past the {RunOptions.MostVariants:N0} variants and " +
                    $"{RunOptions.MostTrials:N0} trials a results file holds; give fewer variants, fewer values to the sweeps, or fewer " +
                    $"{naming(nameof(RunOptions.Repeat))}.")
            : !options.AllowLargePlan && plan.Estimate.Least > RunOptions.LargePlanDuration
                ? $"{size}: {RunPlan.Spoken(RunOptions.LargePlanDuration)} or more at least, so it starts only when " +
                    $"{naming(nameof(RunOptions.AllowLargePlan))} says it is meant."
                : null;
    }

    private static string Text(double value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>The key
    /// <see cref="TryCreate(RunOptions, IReadOnlyList{Scenario}, Func{string, string}, out RunPlan, out IReadOnlyList{string})"/>
    /// names the runtime's settings by, together.</summary>
    public const string RuntimeSettingsKey = "RuntimeSettings";

    // How code names a setting: by the RunOptions member that holds it; a scenario's parameter (--items) by its key
    // in RunOptions.Parameters.
    private static string CodeNames(string member) => member switch
    {
        RuntimeSettingsKey => "RuntimeEnvironment and RuntimeSweeps",
        _ when member.StartsWith("--", StringComparison.Ordinal) => $"Parameters[\"{member[2..]}\"]",
        _ => member,
    };

    // Each --name in a problem that names a declared parameter, as the caller names it (the command line keeps it).
    internal static string NameParameters(string problem, IReadOnlySet<string> declared, Func<string, string> naming) =>
        ParameterFlag().Replace(problem, m => declared.Contains(m.Groups[1].Value) ? naming(m.Value) : m.Value);

    [System.Text.RegularExpressions.GeneratedRegex(@"(?<![\w-])--([a-z0-9][a-z0-9-]*)")]
    private static partial System.Text.RegularExpressions.Regex ParameterFlag();

    // The runtime's settings reach a trial only through a fresh process, and only DOTNET_ ones; the lab's own
    // diagnostic port is its to set.
    private static IEnumerable<string> RuntimeEnvironmentProblems(RunOptions options, Func<string, string> naming)
    {
        if ((options.RuntimeEnvironment.Count > 0 || options.RuntimeSweeps.Count > 0) && options.InProcess)
        {
            yield return $"{naming(RuntimeSettingsKey)} reach only trials in processes of their own, not {naming(nameof(RunOptions.InProcess))}.";
        }

        foreach (var (variable, value) in options.RuntimeEnvironment)
        {
            if (!variable.StartsWith("DOTNET_", StringComparison.Ordinal) || variable.Length == "DOTNET_".Length
                || variable.Any(c => !(char.IsAsciiLetterOrDigit(c) || c == '_')))
            {
                yield return $"{naming(nameof(RunOptions.RuntimeEnvironment))} takes DOTNET_NAME=VALUE, not '{variable}={value}'.";
            }
            else if (variable.StartsWith(Diagnostics.RuntimeEventSession.PortVariable, StringComparison.OrdinalIgnoreCase))
            {
                yield return $"{naming(nameof(RunOptions.RuntimeEnvironment))} cannot set {variable}: the lab sets it to read each trial's events.";
            }
            else if (value.Any(char.IsControl))
            {
                yield return $"{naming(nameof(RunOptions.RuntimeEnvironment))} {variable}: its value has a control character.";
            }
        }
    }

    /// <summary>The most sizes one <c>--grow</c> takes.</summary>
    public const int MostGrowSizes = 12;

    // --grow NAME=SIZE,...: a whole-number parameter of the scenario, two or more sizes it accepts; null, with the
    // problem added, otherwise.
    private static GrowPlan? GrowOf(Scenario scenario, string text, Dictionary<string, string> given, List<string> problems)
    {
        var at = text.IndexOf('=', StringComparison.Ordinal);
        if (at <= 0)
        {
            problems.Add($"--grow takes NAME=SIZE,SIZE,... (such as items=100,1000,10000), not '{text}'.");
            return null;
        }

        var name = text[..at].Trim().TrimStart('-');
        var whole = scenario.Parameters.Where(p => p is Parameter<int> or Parameter<IReadOnlyList<int>> && p.Name != DegreesName).Select(p => p.Name)
            .ToList();
        var parameter = scenario.Parameters.FirstOrDefault(p => p.Name == name);
        var growable = whole.Count == 0 ? "none of its parameters" : string.Join(", ", whole.Select(w => "--" + w));
        if (name == DegreesName)
        {
            problems.Add($"--grow {DegreesName}: the degree is how the work is run, not the work; give --{DegreesName} a list of degrees, " +
                $"or auto. {scenario.Name} can grow {growable}.");
            return null;
        }

        if (parameter is null || !whole.Contains(name))
        {
            problems.Add($"--grow {name}: {(parameter is null ? $"{scenario.Name} has no parameter --{name}" : $"--{name} is not a whole number")}; {scenario.Name} can grow {growable}.");
            return null;
        }

        if (given.ContainsKey(name))
        {
            problems.Add($"--grow {name} and --{name} both set it: leave --{name} out.");
            return null;
        }

        var sizes = new List<int>();
        foreach (var part in text[(at + 1)..].Split(','))
        {
            var word = part.Trim();
            if (parameter.Check(word) is { } problem)
            {
                problems.Add($"--grow {name}: {problem}");
                return null;
            }

            if (!int.TryParse(word, NumberStyles.None, CultureInfo.InvariantCulture, out var size) || size < 1)
            {
                problems.Add($"--grow {name}: each size must be 1 or more, for a growth on a log scale, not '{word}'.");
                return null;
            }

            sizes.Add(size);
        }

        var distinct = sizes.Distinct().Order().ToList();
        if (distinct.Count < 2 || distinct.Count > MostGrowSizes)
        {
            problems.Add($"--grow {name}: a growth needs 2 to {MostGrowSizes} different sizes, not {distinct.Count} ('{text[(at + 1)..]}').");
            return null;
        }

        return new GrowPlan(name, distinct) { IsSweep = parameter is Parameter<IReadOnlyList<int>> };
    }

    /// <summary>The word <c>--variants</c> takes for every variant a scenario can run: every strategy in every form, at each degree.</summary>
    public const string AllVariants = "all";

    // The variants, baseline, notes and ideal of one scenario whose parameters are valid; null, with the problems
    // added, when a variant or the baseline named cannot run.
    private static ScenarioPlan? PlanScenario(
        Scenario scenario,
        ParameterValues parameters,
        RunOptions options,
        List<string> problems,
        Func<string, string> naming,
        GrowPlan? grow,
        ref long counted)
    {
        // The runtime's settings at several values multiply every variant, as a sweep does; so do --grow's sizes
        // of a parameter that is not already a sweep.
        var runtimeSweeps = RuntimeSettings.All.Where(s => options.RuntimeSweeps.ContainsKey(s.Parameter.Name))
            .Select(s => (s.Parameter, options.RuntimeSweeps[s.Parameter.Name])).ToList();
        if (grow is { IsSweep: false })
        {
            var described = scenario.Parameters.First(p => p.Name == grow.Name).Description;
            runtimeSweeps.Insert(
                0, (new VariantParameter(grow.Name, described, grow.Sizes[0], grow.Sizes[^1]) { ChangesWork = true,
                    Example = grow.Sizes[0] }, grow.Sizes));
        }

        var space = scenario.Variants(parameters).WithSweeps(runtimeSweeps);
        var firstLook = options.Variants.Count == 0 && options.FirstLook && scenario.FirstLook.Count > 0;

        // The names before the sweeps multiply them: "all" is every variant the scenario can run here, and a name
        // that leaves out a sweep of several values stands for the variant at each of them.
        var heads = options.Variants.Count > 0
            ? options.Variants.SelectMany(n => string.Equals(n.Trim(), AllVariants, StringComparison.OrdinalIgnoreCase)
                ? scenario.AllVariants(parameters).Select(v => v.Name) : [n]).ToList()
            : (firstLook ? scenario.FirstLook : scenario.DefaultVariants(parameters).Select(v => v.Name)).ToList();

        // Counted before any is made: a product of sweeps past what any run plans is refused without enumerating it.
        foreach (var head in heads)
        {
            var expanded = space.ExpandedCount(head);
            counted = expanded > long.MaxValue - counted ? long.MaxValue : counted + expanded;
        }

        if (counted > RunOptions.MostVariants)
        {
            problems.Add(
                string.Create(
                    CultureInfo.InvariantCulture, $"this run would plan up to {(counted == long.MaxValue ? "more than 9 " +
                        "quintillion" : counted.ToString("N0", CultureInfo.InvariantCulture))} variants, past the " +
                        $"{RunOptions.MostVariants:N0} a results file holds: give fewer variants, or fewer values to the sweeps, which " +
                        $"multiply each other."));
            return null;
        }

        var variants = new List<Variant>();
        var known = new HashSet<string>(StringComparer.Ordinal);
        var refused = false;
        foreach (var name in heads.SelectMany(space.Expand))
        {
            if (space.TryParse(name, out var variant, out var error))
            {
                if (known.Add(variant.Name))
                {
                    variants.Add(variant);
                }
            }
            else if (options.Variants.Count > 0)
            {
                problems.Add(error);
                refused = true;
            }
        }

        var notes = scenario.Notes(parameters, options.Quick).ToList();
        if (options.RuntimeEnvironment.Count > 0)
        {
            notes.Add($"trials ran with {string.Join(", ", options.RuntimeEnvironment.OrderBy(e => e.Key, StringComparer.Ordinal).Select(e => $"{e.Key}={e.Value}"))}.");
        }

        // Cores asked for, one value for the run or several as a sweep: above the machine's, they are emulated.
        IEnumerable<int> asked = options.RuntimeSweeps.GetValueOrDefault(RuntimeSettings.Cores.Parameter.Name) ?? [];
        if (options.RuntimeEnvironment.TryGetValue(RuntimeSettings.Cores.Variable, out var fixedCores)
            && int.TryParse(fixedCores, CultureInfo.InvariantCulture, out var count))
        {
            asked = asked.Append(count);
        }

        var emulated = asked.Where(c => c > Environment.ProcessorCount).Order().ToList();
        if (emulated.Count > 0)
        {
            notes.Add($"trials ran with DOTNET_PROCESSOR_COUNT={string.Join(",", emulated)} on {Environment.ProcessorCount} cores: the " +
                $"runtime's policies for that many cores (its pool minimum, default degrees) are emulated, not the CPUs.");
        }

        // A first look compares with its first variant, the published case.
        var baseline = options.Baseline is null && firstLook && variants.Count > 0 ? variants[0].Name
            : options.Baseline is null ? space.Expand(scenario.DefaultBaseline(parameters).Name)[0]
            : space.TryParse(options.Baseline, out var named, out _) ? named.Name
            : options.Baseline;

        if (!variants.Any(v => v.Name == baseline))
        {
            if (options.Baseline is not null)
            {
                problems.Add($"{naming(nameof(RunOptions.Baseline))} '{options.Baseline}' is not among the variants run in {scenario.Name}.");
                refused = true;
            }
            else if (variants.Count > 0)
            {
                notes.Add($"the usual baseline {baseline} is not run here; ratios are to {variants[0].Name}.");
                baseline = variants[0].Name;
            }
        }

        var ideal = scenario.Ideal(parameters, options.Seed);
        return refused ? null : new ScenarioPlan(scenario, parameters, variants, baseline, ideal, notes) { Space = space };
    }
}
