using System.Globalization;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>
/// A slower disk, emulated: the kernel's limit on how fast this process and the processes it starts read the block
/// device that holds a folder (cgroup v1's <c>blkio.throttle.read_bps_device</c>, on Linux, as root). The runner joins
/// a cgroup of its own for the run, so the bounds it measures and every trial process it starts read the device at
/// the limit, and leaves it, removing it, when disposed. A cgroup left by a run that was killed is removed by the next.
/// </summary>
internal sealed class DeviceThrottle : IDisposable
{
    private const string Root = "/sys/fs/cgroup/blkio";
    private const string Prefix = "conclab-";

    private readonly string _group;
    private readonly string _home;
    private bool _disposed;

    private DeviceThrottle(string group, string home, string device, double mibPerSec)
    {
        _group = group;
        _home = home;
        Device = device;
        MibPerSec = mibPerSec;
    }

    /// <summary>The block device limited, as the kernel numbers it: <c>254:0</c>.</summary>
    public string Device { get; }

    /// <summary>The limit on its reads, in MiB/s.</summary>
    public double MibPerSec { get; }

    /// <summary>Why a folder's device cannot be limited here; null when it can.</summary>
    public static string? Unavailable(string folder)
    {
        if (!OperatingSystem.IsLinux())
        {
            return "it needs Linux's cgroup v1 blkio controller";
        }

        if (!File.Exists(Path.Combine(Root, "blkio.throttle.read_bps_device")))
        {
            return $"this kernel offers no cgroup v1 blkio controller at {Root} (cgroup v2 alone has no per-device read limit to set here)";
        }

        if (Environment.UserName != "root")
        {
            return "setting a device's read limit needs root";
        }

        return DiskOf(folder) is (null, var why) ? why : null;
    }

    /// <summary>Limits the reads of the device holding <paramref name="folder"/> to <paramref name="mibPerSec"/>, for this
    /// process and those it starts from now on; throws <see cref="IOException"/> saying why where it cannot.</summary>
    public static DeviceThrottle Start(string folder, double mibPerSec)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(mibPerSec);
        if (Unavailable(folder) is { } why)
        {
            throw new IOException(why);
        }

        string group;
        try
        {
            var home = HomeGroup();
            RemoveLeftovers(home);
            var device = DiskOf(folder).Device!;
            group = Path.Combine(home, $"{Prefix}{Environment.ProcessId}-{Guid.NewGuid():N}");
            Directory.CreateDirectory(group);
            try
            {
                var bytes = (long)Math.Round(mibPerSec * 1024 * 1024);
                File.WriteAllText(Path.Combine(group, "blkio.throttle.read_bps_device"), $"{device} {bytes.ToString(CultureInfo.InvariantCulture)}");
                File.WriteAllText(Path.Combine(group, "cgroup.procs"), Environment.ProcessId.ToString(CultureInfo.InvariantCulture));
                return new DeviceThrottle(group, home, device, mibPerSec);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                TryRemove(group);
                throw new IOException($"the device {device} could not be limited: {ex.Message}", ex);
            }
        }
        catch (Exception ex) when (ex is UnauthorizedAccessException or NotSupportedException or ArgumentException)
        {
            throw new IOException($"the blkio controller would not take a group: {ex.Message}", ex);
        }
    }

    /// <summary>This process back in the root group, and the run's group removed.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        try
        {
            File.WriteAllText(Path.Combine(_home, "cgroup.procs"), Environment.ProcessId.ToString(CultureInfo.InvariantCulture));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Still in the group: it goes when the last of its processes ends, or with the next run's leftovers.
        }

        // A trial's process may still be ending in the group: the kernel refuses to remove it until the last one has.
        for (var attempt = 0; attempt < 20 && Directory.Exists(_group); attempt++)
        {
            TryRemove(_group);
            if (Directory.Exists(_group))
            {
                Thread.Sleep(50);
            }
        }
    }

    // The blkio group this process is in ("7:blkio:/user.slice" in /proc/self/cgroup), where the run's group goes
    // beneath and the process goes back to.
    private static string HomeGroup()
    {
        var line = File.ReadLines("/proc/self/cgroup").FirstOrDefault(l => l.Split(':') is [_, var controllers, _]
            && controllers.Split(',').Contains("blkio"));
        var path = line is null ? "/" : line[(line.IndexOf(":/", StringComparison.Ordinal) + 1)..];
        var home = Path.GetFullPath(Path.Combine(Root, path.TrimStart('/')));
        return Directory.Exists(home) && home.StartsWith(Root, StringComparison.Ordinal) ? home : Root;
    }

    // The whole disk under a folder's filesystem, as major:minor: a partition's limit is set on its disk.
    private static (string? Device, string Why) DiskOf(string folder)
    {
        var full = Path.GetFullPath(folder);
        string? device = null;
        var longest = -1;
        foreach (var line in File.ReadLines("/proc/self/mountinfo"))
        {
            // "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw": the third field is the device, the fifth the mount point.
            var fields = line.Split(' ');
            if (fields.Length < 5)
            {
                continue;
            }

            var point = fields[4].Replace("\\040", " ", StringComparison.Ordinal);
            var inside = full == point || full.StartsWith(point.TrimEnd('/') + "/", StringComparison.Ordinal);
            if (inside && point.Length > longest)
            {
                (device, longest) = (fields[2], point.Length);
            }
        }

        if (device is null || device.StartsWith("0:", StringComparison.Ordinal))
        {
            return (null, $"{full} is on a filesystem with no block device of its own (tmpfs, overlay), so no device read is there to limit");
        }

        var block = $"/sys/dev/block/{device}";
        if (!Directory.Exists(block))
        {
            return (null, $"the kernel lists no block device {device} for {full}");
        }

        var resolved = new DirectoryInfo(block).ResolveLinkTarget(true)?.FullName ?? block;
        if (File.Exists(Path.Combine(block, "partition")) && Directory.GetParent(resolved) is { } disk
            && File.Exists(Path.Combine(disk.FullName, "dev")))
        {
            device = File.ReadAllText(Path.Combine(disk.FullName, "dev")).Trim();
        }

        return (device, string.Empty);
    }

    // Groups of runs whose process is gone: removed where empty (the kernel refuses a group that still has processes).
    private static void RemoveLeftovers(string home)
    {
        foreach (var group in Directory.EnumerateDirectories(home, Prefix + "*"))
        {
            var name = Path.GetFileName(group)[Prefix.Length..];
            var dash = name.IndexOf('-', StringComparison.Ordinal);
            if (dash > 0 && int.TryParse(name[..dash], NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && !Alive(pid))
            {
                TryRemove(group);
            }
        }
    }

    private static bool Alive(int pid) => Directory.Exists($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}");

    private static void TryRemove(string group)
    {
        try
        {
            Directory.Delete(group);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Not empty yet, or gone: the next run tries again.
        }
    }
}
