using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Measurement;

public sealed class ProcessAgeTests
{
    [SkippableFact]
    public void Since_ThisProcessStart_AgreesWithProcessStartTime()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "a start in clock ticks since boot is read from /proc, which only Linux has");
        var ticks = long.Parse(ProcessIdentity.StartTimeOf(Environment.ProcessId)!, NumberStyles.None, CultureInfo.InvariantCulture);

        using var self = Process.GetCurrentProcess();
        var expected = DateTime.UtcNow - self.StartTime.ToUniversalTime();
        var age = ProcessAge.Since(ticks);

        // Both rest on the same tick; Process adds a coarse wall clock (a few ms), and the two reads are a moment apart.
        Assert.NotNull(age);
        Assert.InRange((age.Value - expected).Duration().TotalMilliseconds, 0, 50);
    }

    [SkippableFact]
    public void Since_AStartAfterNowOrBeforeBoot_IsNull()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "a start in clock ticks since boot is read from /proc, which only Linux has");
        var ticks = long.Parse(ProcessIdentity.StartTimeOf(Environment.ProcessId)!, NumberStyles.None, CultureInfo.InvariantCulture);

        // A thousand years of ticks after this process started has not come yet.
        Assert.Null(ProcessAge.Since(ticks + (1000L * 365 * 24 * 3600 * 100)));
        Assert.Null(ProcessAge.Since(-1));
        Assert.NotNull(ProcessAge.Since(0));
    }
}
