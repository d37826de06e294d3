using System.Globalization;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// One of the runtime's settings a run can vary (<see cref="RuntimeSettings"/> has them all): the number a variant
/// carries (<c>whenall:cores=8</c>) and the variable, with its value written as the runtime reads it, that the
/// trial's process starts with. <see cref="Apply"/> sets it on a run's options from code as the command line's
/// <c>--cores 2,8</c> does.
/// </summary>
public sealed class RuntimeSetting
{
    private readonly Func<int, string> _write;

    internal RuntimeSetting(VariantParameter parameter, string variable, Func<int, string> write)
    {
        Parameter = parameter;
        Variable = variable;
        _write = write;
    }

    /// <summary>The number as a variant carries it: its name (<c>cores</c>) and range.</summary>
    public VariantParameter Parameter { get; }

    /// <summary>The runtime's own variable (<c>DOTNET_PROCESSOR_COUNT</c>).</summary>
    public string Variable { get; }

    /// <summary>The variable's value for <paramref name="value"/>, as the runtime reads it (hexadecimal for the pool's minimum).</summary>
    public string Write(int value) => _write(value);

    /// <summary>The variable and its value for <paramref name="value"/>.</summary>
    internal (string Name, string Value) For(int value) => (Variable, Write(value));

    /// <summary>
    /// <paramref name="options"/> with this setting at <paramref name="values"/>, by the one rule every way in
    /// follows: one value is a variable every trial's process starts with; several are a sweep, each value a variant
    /// of its own (<c>whenall:cores=2</c>, <c>whenall:cores=8</c>). No value leaves the options as they are.
    /// </summary>
    public RunOptions Apply(RunOptions options, IReadOnlyList<int> values)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(values);
        var distinct = values.Distinct().ToList();
        if (distinct.Count == 0)
        {
            return options;
        }

        var environment = new Dictionary<string, string>(options.RuntimeEnvironment, StringComparer.Ordinal);
        var sweeps = new Dictionary<string, IReadOnlyList<int>>(options.RuntimeSweeps, StringComparer.Ordinal);
        if (distinct.Count == 1)
        {
            environment[Variable] = Write(distinct[0]);
            sweeps.Remove(Parameter.Name);
        }
        else
        {
            sweeps[Parameter.Name] = distinct;
            environment.Remove(Variable);
        }

        return options with { RuntimeEnvironment = environment, RuntimeSweeps = sweeps };
    }
}

/// <summary>
/// The runtime's settings a run can vary. Given several values, a setting multiplies every variant, so a sweep
/// over it draws as a line like a degree's.
/// </summary>
public static class RuntimeSettings
{
    private static string Decimal(int value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>The processor count the runtime sees: <c>DOTNET_PROCESSOR_COUNT</c>.</summary>
    public static readonly RuntimeSetting Cores = new(
        new VariantParameter("cores", "the processor count the trial's runtime sees", 1,
            4096) { Describe = n => $"; {n} cores as the runtime sees them" },
        "DOTNET_PROCESSOR_COUNT",
        Decimal);

    /// <summary>The pool's minimum worker threads: <c>DOTNET_ThreadPool_ForceMinWorkerThreads</c>, which the runtime reads in hexadecimal.</summary>
    public static readonly RuntimeSetting PoolMinimum = new(
        new VariantParameter("pool-min", "the pool's minimum worker threads", 1, 32767) { Describe = n => $"; a pool minimum of {n}" },
        "DOTNET_ThreadPool_ForceMinWorkerThreads",
        value => value.ToString("x", CultureInfo.InvariantCulture));

    /// <summary>Hill climbing, 1 on and 0 off: <c>DOTNET_HillClimbing_Disable</c>, the other way round.</summary>
    public static readonly RuntimeSetting HillClimbing = new(
        new VariantParameter("hill-climbing", "the pool's hill climbing, 1 on or 0 off", 0,
            1) { Describe = n => n == "0" ? "; hill climbing off" : "; hill climbing on" },
        "DOTNET_HillClimbing_Disable",
        value => value == 0 ? "1" : "0");

    /// <summary>The server GC, 1, or the workstation GC, 0: <c>DOTNET_gcServer</c>.</summary>
    public static readonly RuntimeSetting ServerGc = new(
        new VariantParameter("server-gc", "1 for the server GC, 0 for the workstation GC", 0,
            1) { Describe = n => n == "1" ? "; server GC" : "; workstation GC" },
        "DOTNET_gcServer",
        Decimal);

    /// <summary>Every setting, in the order names write them.</summary>
    public static IReadOnlyList<RuntimeSetting> All { get; } = [Cores, PoolMinimum, HillClimbing, ServerGc];

    /// <summary>The variables a variant's settings set in its trial's process (none when it carries no setting).</summary>
    internal static IEnumerable<(string Name, string Value)> Environment(IReadOnlyDictionary<string, string> variantParameters)
    {
        ArgumentNullException.ThrowIfNull(variantParameters);
        foreach (var setting in All)
        {
            if (Results.VariantValues.WholeNumber(variantParameters, setting.Parameter.Name) is { } value)
            {
                yield return setting.For(value);
            }
        }
    }
}
