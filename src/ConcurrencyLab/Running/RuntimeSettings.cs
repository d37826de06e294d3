using System.Globalization;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// The runtime's settings a run can vary, each a number a variant carries (<c>whenall:cores=8</c>) and a
/// variable the trial's runtime reads as it starts. Given several values, a setting multiplies every variant,
/// so a sweep over it draws as a line like a degree's.
/// </summary>
internal static class RuntimeSettings
{
    /// <summary>The processor count the runtime sees: <c>DOTNET_PROCESSOR_COUNT</c>.</summary>
    public static readonly VariantParameter Cores = new("cores", "the processor count the trial's runtime sees", 1, 4096) { Describe = n => $"; {n} cores as the runtime sees them" };

    /// <summary>The pool's minimum worker threads: <c>DOTNET_ThreadPool_ForceMinWorkerThreads</c>, in hexadecimal.</summary>
    public static readonly VariantParameter PoolMinimum = new("pool-min", "the pool's minimum worker threads", 1, 32767) { Describe = n => $"; a pool minimum of {n}" };

    /// <summary>Hill climbing, 1 on and 0 off: <c>DOTNET_HillClimbing_Disable</c>.</summary>
    public static readonly VariantParameter HillClimbing = new("hill-climbing", "the pool's hill climbing, 1 on or 0 off", 0, 1) { Describe = n => n == "0" ? "; hill climbing off" : "; hill climbing on" };

    /// <summary>The server GC, 1, or the workstation GC, 0: <c>DOTNET_gcServer</c>.</summary>
    public static readonly VariantParameter ServerGc = new("server-gc", "1 for the server GC, 0 for the workstation GC", 0, 1) { Describe = n => n == "1" ? "; server GC" : "; workstation GC" };

    /// <summary>Every setting, in the order names write them.</summary>
    public static IReadOnlyList<VariantParameter> All { get; } = [Cores, PoolMinimum, HillClimbing, ServerGc];

    /// <summary>The variable and its value a setting's value becomes.</summary>
    public static (string Name, string Value) Variable(VariantParameter setting, int value) => setting.Name switch
    {
        "cores" => ("DOTNET_PROCESSOR_COUNT", value.ToString(CultureInfo.InvariantCulture)),
        "pool-min" => ("DOTNET_ThreadPool_ForceMinWorkerThreads", value.ToString("x", CultureInfo.InvariantCulture)),
        "hill-climbing" => ("DOTNET_HillClimbing_Disable", value == 0 ? "1" : "0"),
        _ => ("DOTNET_gcServer", value == 1 ? "1" : "0"),
    };

    /// <summary>The variables a variant's settings set in its trial's process (none when it carries no setting).</summary>
    public static IEnumerable<(string Name, string Value)> Environment(IReadOnlyDictionary<string, string> variantParameters)
    {
        ArgumentNullException.ThrowIfNull(variantParameters);
        foreach (var setting in All)
        {
            if (Results.VariantValues.WholeNumber(variantParameters, setting.Name) is { } value)
            {
                yield return Variable(setting, value);
            }
        }
    }
}
