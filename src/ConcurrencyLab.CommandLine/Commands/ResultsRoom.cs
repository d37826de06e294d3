using System.Globalization;
using ConcurrencyLab.Running;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// Whether the output folder has room for a run's results, found out before anything is measured: a run that fills the
/// disk measures for an hour and then writes nothing. The size is estimated from the plan, generously: every trial's
/// samples over its expected time (or a second), its metrics and account, and the charts and reports around them.
/// </summary>
internal static class ResultsRoom
{
    // Bytes a trial takes besides its samples (metrics, account, a CSV row), and a sample in JSON and CSV together.
    private const long PerTrial = 8 * 1024;
    private const long PerSample = 200;

    // The reports and charts of a scenario, whatever its trials.
    private const long PerScenario = 1024 * 1024;

    /// <summary>The bytes the results of <paramref name="plan"/> may take, about.</summary>
    public static long Estimate(RunPlan plan)
    {
        ArgumentNullException.ThrowIfNull(plan);
        var interval = Math.Max(1, plan.Settings.SampleIntervalMs);
        long bytes = 0;
        foreach (var scenario in plan.Scenarios)
        {
            var seconds = Math.Max(1, scenario.Scenario.ExpectedTrialDuration(scenario.Parameters).TotalSeconds);
            var trials = (long)scenario.Variants.Count * (plan.Settings.Repeat + plan.Settings.Warmup);
            bytes += PerScenario + (trials * (PerTrial + (long)(seconds * 1000 / interval * PerSample)));
        }

        return bytes;
    }

    /// <summary>Why <paramref name="folder"/> cannot take <paramref name="plan"/>'s results, in one line; null when it can, or cannot say.</summary>
    public static string? Problem(string folder, RunPlan plan)
    {
        var needed = Estimate(plan);
        try
        {
            var free = new DriveInfo(Path.GetFullPath(folder)).AvailableFreeSpace;
            return free >= needed
                ? null
                : string.Create(
                    CultureInfo.InvariantCulture, $"--out {folder} has {Mib(free)} MiB free, and this run's results take about " +
                        $"{Mib(needed)} MiB; free some room, or give a folder on another disk.");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
        {
            // A file system that does not say how full it is: the writes will.
            return null;
        }
    }

    private static string Mib(long bytes) => (bytes / (1024.0 * 1024)).ToString(bytes < 10 << 20 ? "0.0" : "0", CultureInfo.InvariantCulture);
}
