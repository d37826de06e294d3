using System.Diagnostics;
using ConcurrencyLab.Experiments.Hash;

namespace ConcurrencyLab.Tests.Scenarios.Hash;

/// <summary>
/// The emulated slower disk on the kernel itself: a file read cold at 4 MiB/s takes about 2 s where this machine's
/// device reads it in a few milliseconds. Skipped where the kernel offers no cgroup v1 blkio controller, or not as
/// root, or on a filesystem with no block device.
/// It limits this test process's own reads for about 2 s, so it runs alone.
/// </summary>
[Collection(nameof(DeviceThrottleTests))]
[CollectionDefinition(nameof(DeviceThrottleTests), DisableParallelization = true)]
public sealed class DeviceThrottleTests : IDisposable
{
    private readonly string _folder = Path.Combine(Path.GetTempPath(), $"conclab-throttle-test-{Guid.NewGuid():N}");

    public DeviceThrottleTests() => Directory.CreateDirectory(_folder);

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [SkippableFact]
    public void AFileReadThroughTheLimit_TakesManyTimesLonger_AndTheGroupIsGoneAfter()
    {
        var unavailable = DeviceThrottle.Unavailable(_folder);
        Skip.If(unavailable is not null, unavailable);
        Skip.If(!PageCache.IsSupported, "no page-cache control on this machine");
        var path = Path.Combine(_folder, "data");
        var bytes = new byte[8 << 20];
        Random.Shared.NextBytes(bytes);
        File.WriteAllBytes(path, bytes);

        var free = ReadCold(path);
        TimeSpan limited;
        string device;
        using (var throttle = DeviceThrottle.Start(_folder, 4))
        {
            device = throttle.Device;
            limited = ReadCold(path);
            Assert.Contains(Groups(), g => File.ReadAllText(Path.Combine(g, "cgroup.procs")).Split('\n').Contains(Environment.ProcessId.ToString()));
        }

        // 8 MiB at 4 MiB/s is about 2 s; the device as it is reads it in far less.
        Assert.True(limited > 3 * free && limited > TimeSpan.FromSeconds(1), $"limited {limited}, free {free}, device {device}");
        Assert.Empty(Groups());
    }

    private static TimeSpan ReadCold(string path)
    {
        Assert.Null(PageCache.Evict(path));
        var watch = Stopwatch.StartNew();
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 4096);
        var buffer = new byte[1 << 20];
        while (stream.Read(buffer) > 0)
        {
        }

        return watch.Elapsed;
    }

    // The lab's groups of this process.
    private static string[] Groups() =>
        Directory.GetDirectories("/sys/fs/cgroup/blkio", $"conclab-{Environment.ProcessId}-*", SearchOption.AllDirectories);
}
