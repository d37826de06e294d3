using System.Globalization;
using System.Runtime.InteropServices;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>Network namespaces this test makes, joined in pairs by veth cables, each pair on a /24 of 10.231 of its own; all removed when disposed.</summary>
internal sealed class Namespaces : IAsyncDisposable
{
    // Skipped where namespaces cannot be made. CI (.ci/run) installs iproute2 and runs as root: there, a missing one
    // fails the test instead of skipping it.
    public static void Require()
    {
        var can = OperatingSystem.IsLinux() && (File.Exists("/usr/sbin/ip") || File.Exists("/sbin/ip") || File.Exists("/usr/bin/ip")) && Environment.UserName == "root";
        Skip.If(!can && Environment.GetEnvironmentVariable("CONCLAB_REQUIRE_NETNS") != "1", "network namespaces need Linux, its ip (iproute2) and root");
        Assert.True(can, "CONCLAB_REQUIRE_NETNS=1, but this is not Linux as root with ip (iproute2)");
    }

    /// <summary>Runs <paramref name="make"/> on a thread of its own inside namespace <paramref name="space"/>: a socket it opens is that namespace's, wherever it is used after.</summary>
    public static T Inside<T>(string space, Func<T> make)
    {
        T made = default!;
        Exception? failed = null;
        var thread = new Thread(() =>
        {
            try
            {
                using var handle = File.OpenHandle($"/var/run/netns/{space}");
                if (SetNamespace((int)handle.DangerousGetHandle(), NewNetwork) != 0)
                {
                    throw new InvalidOperationException($"setns into {space} failed: errno {Marshal.GetLastPInvokeError()}");
                }

                made = make();
            }
            catch (Exception ex)
            {
                failed = ex;
            }
        });
        thread.Start();
        thread.Join();
        return failed is null ? made : throw new InvalidOperationException($"inside {space}: {failed.Message}", failed);
    }

    /// <summary>Gives loopback in <paramref name="space"/> one more address, such as a documentation address that stands for another host.</summary>
    public static Task AddToLoopbackAsync(string space, string address) => IpAsync($"-n {space} addr add {address}/32 dev lo");

    private const int NewNetwork = 0x40000000;

    [DllImport("libc", EntryPoint = "setns", SetLastError = true)]
    private static extern int SetNamespace(int fd, int type);

    private readonly string _tag = Guid.NewGuid().ToString("N")[..6];
    private readonly List<string> _made = [];
    private readonly int _firstSubnet = Random.Shared.Next(254);
    private int _cables;

    /// <summary>A namespace of its own, its loopback up.</summary>
    public async Task<string> AddAsync(string name)
    {
        var space = $"conclab-it-{_tag}-{name}";
        await IpAsync($"netns add {space}");
        _made.Add(space);
        await IpAsync($"-n {space} link set lo up");
        return space;
    }

    /// <summary>A cable between <paramref name="x"/> and <paramref name="y"/>; the address each end has.</summary>
    public async Task<(string X, string Y)> LinkAsync(string x, string y)
    {
        // Each cable of these namespaces on a /24 of its own: two on one /24 would give a namespace two routes to it.
        var subnet = $"10.231.{((_firstSubnet + _cables) % 254 + 1).ToString(CultureInfo.InvariantCulture)}";
        var cable = $"cl{_tag}{_cables++}";
        foreach (var command in new[]
        {
            $"link add {cable}x type veth peer name {cable}y",
            $"link set {cable}x netns {x}", $"link set {cable}y netns {y}",
            $"-n {x} addr add {subnet}.1/24 dev {cable}x", $"-n {y} addr add {subnet}.2/24 dev {cable}y",
            $"-n {x} link set {cable}x up", $"-n {y} link set {cable}y up",
        })
        {
            await IpAsync(command);
        }

        return ($"{subnet}.1", $"{subnet}.2");
    }

    /// <summary>conclab with <paramref name="args"/>, in namespace <paramref name="space"/>.</summary>
    public static RunningProgram Start(string space, string folder, params string[] args) =>
        RunningProgram.Start("ip", folder, ["netns", "exec", space, "dotnet", ProgramRunner.ConclabDll, .. args]);

    public async ValueTask DisposeAsync()
    {
        // Deleting a namespace takes its ends of the cables with it, and their other ends too.
        foreach (var space in _made)
        {
            await ProgramRunner.RunProgramAsync("ip", Path.GetTempPath(), ["netns", "del", space]);
        }
    }

    private static async Task IpAsync(string command)
    {
        var done = await ProgramRunner.RunProgramAsync("ip", Path.GetTempPath(), command.Split(' '));
        Assert.True(done.ExitCode == 0, $"ip {command}: {done}");
    }
}
