namespace ConcurrencyLab.Measurement;

/// <summary>
/// How long ago a process started, by the kernel's own count (Linux): its start in clock ticks since boot, as
/// <c>/proc/PID/stat</c> gives it, against the boot clock (<c>CLOCK_BOOTTIME</c>) now. This is the figure
/// <c>Process.StartTime</c> rests on there. Reading it directly spares a trial's process the cost of loading and
/// compiling <c>System.Diagnostics.Process</c> before its region, about 18 ms (a program of its own, 25 starts of
/// each, alternating: medians 60.6 ms with <c>Process.GetCurrentProcess().StartTime</c>, 42.5 ms without).
/// </summary>
internal static class ProcessAge
{
    /// <summary>
    /// The time since a process started <paramref name="startTicksSinceBoot"/> clock ticks after boot; null off Linux,
    /// where the tick or the boot clock cannot be read, or for a start after now.
    /// </summary>
    public static TimeSpan? Since(long startTicksSinceBoot)
    {
        if (!OperatingSystem.IsLinux() || startTicksSinceBoot < 0 || MachineTime.ResolutionMs <= 0)
        {
            return null;
        }

        if (PosixClocks.Read(PosixClocks.BootTime) is not { } sinceBootNs)
        {
            return null;
        }

        var ageMs = (sinceBootNs / 1e6) - (startTicksSinceBoot * MachineTime.ResolutionMs);
        return ageMs >= 0 ? TimeSpan.FromMilliseconds(ageMs) : null;
    }
}
