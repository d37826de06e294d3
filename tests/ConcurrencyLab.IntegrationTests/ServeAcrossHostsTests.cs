using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// fanout's services on two hosts of their own: two network namespaces this test makes, joined by a virtual cable, with
/// addresses inside them only (nothing leaves this machine). The product service on one calls the external service on
/// the other only where --allow-host names it, and conclab load on the first host loads the product service across.
/// </summary>
public sealed partial class ServeAcrossHostsTests
{
    [SkippableFact]
    public async Task TheProductService_CallsTheExternalService_OnAnotherHost_OnlyWhereAllowed()
    {
        // CI (.ci/run) installs iproute2 and runs as root: there, a missing one fails the test instead of skipping it.
        var can = OperatingSystem.IsLinux() && (File.Exists("/usr/sbin/ip") || File.Exists("/sbin/ip") || File.Exists("/usr/bin/ip")) && Environment.UserName == "root";
        Skip.If(!can && Environment.GetEnvironmentVariable("CONCLAB_REQUIRE_NETNS") != "1", "network namespaces need Linux, its ip (iproute2) and root");
        Assert.True(can, "CONCLAB_REQUIRE_NETNS=1, but this is not Linux as root with ip (iproute2)");
        using var folder = new TempFolder();
        await using var hosts = await TwoHosts.MakeAsync();
        var (a, b) = (hosts.AddressA, hosts.AddressB);

        // Host A: the external service. Host B: the product service, calling A.
        using var external = hosts.Start(hosts.A, folder.Path, "serve", "fanout-external", "--host", a, "--allow-host", a, "--port", "5001", "--http2-port", "5002", "--time-scale", "0.01");
        Assert.True(await RunningProgram.UntilAsync(() => Ready().IsMatch(external.Output), TimeSpan.FromSeconds(60)), external.ToString());

        // Without --allow-host for A, the product service refuses to call it: one line, exit 2, before it listens.
        var refused = await ProgramRunner.RunProgramAsync("ip", folder.Path, ["netns", "exec", hosts.B, "dotnet", ProgramRunner.ConclabDll, "serve", "fanout-product", "--host", b, "--allow-host", b, "--port", "5000", "--external", $"http://{a}:5001/"]);
        Assert.True(refused.ExitCode == 2, refused.ToString());
        Assert.Contains($"must be on loopback, not {a}, unless --allow-host names it", refused.Error, StringComparison.Ordinal);

        using var product = hosts.Start(hosts.B, folder.Path, "serve", "fanout-product", "--host", b, "--allow-host", b, "--port", "5000", "--external", $"http://{a}:5001/", "--allow-host", a);
        Assert.True(await RunningProgram.UntilAsync(() => Ready().IsMatch(product.Output), TimeSpan.FromSeconds(60)), product.ToString());

        // The load from host A, across to B, whose every request makes three calls back across to A.
        var load = await ProgramRunner.RunProgramAsync("ip", folder.Path, [
            "netns", "exec", hosts.A, "dotnet", ProgramRunner.ConclabDll, "load", "--url", $"http://{b}:5000/", "--allow-host", b,
            "--endpoint", "async=/product/whenall-async/1", "--endpoint", "http2=/product/async-http2/1",
            "--rate", "20", "--step", "1", "--warmup", "0.3", "--repeat", "1", "--out", "out"]);
        Assert.True(load.ExitCode == 0, load.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        foreach (var variant in json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants").EnumerateArray())
        {
            var step = variant.GetProperty("steps")[0];
            Assert.Equal(step.GetProperty("planned").GetInt32(), step.GetProperty("completed").GetInt32());

            // No answer comes before the slowest call across (20 ms at this scale).
            Assert.True(step.GetProperty("service").GetProperty("p50Ms").GetDouble() >= 20, step.ToString());
        }

        product.Signal(15);
        external.Signal(15);
        Assert.Equal(0, await product.WaitAsync(TimeSpan.FromSeconds(15)));
        Assert.Equal(0, await external.WaitAsync(TimeSpan.FromSeconds(15)));
    }

    [GeneratedRegex(@"^listening http://\S+ http2=http://\S+$", RegexOptions.Multiline)]
    private static partial Regex Ready();

    /// <summary>Two network namespaces joined by a veth pair, 10.231.N.1 in the first and .2 in the second; removed when disposed.</summary>
    private sealed class TwoHosts : IAsyncDisposable
    {
        private TwoHosts(string tag, int subnet)
        {
            A = $"conclab-it-{tag}-a";
            B = $"conclab-it-{tag}-b";
            AddressA = $"10.231.{subnet.ToString(CultureInfo.InvariantCulture)}.1";
            AddressB = $"10.231.{subnet.ToString(CultureInfo.InvariantCulture)}.2";
            Cable = $"cl{tag}";
        }

        public string A { get; }

        public string B { get; }

        public string AddressA { get; }

        public string AddressB { get; }

        private string Cable { get; }

        public static async Task<TwoHosts> MakeAsync()
        {
            var tag = Guid.NewGuid().ToString("N")[..8];
            var hosts = new TwoHosts(tag, Random.Shared.Next(1, 255));
            try
            {
                foreach (var command in new[]
                {
                    $"netns add {hosts.A}", $"netns add {hosts.B}",
                    $"link add {hosts.Cable}a type veth peer name {hosts.Cable}b",
                    $"link set {hosts.Cable}a netns {hosts.A}", $"link set {hosts.Cable}b netns {hosts.B}",
                    $"-n {hosts.A} addr add {hosts.AddressA}/24 dev {hosts.Cable}a", $"-n {hosts.B} addr add {hosts.AddressB}/24 dev {hosts.Cable}b",
                    $"-n {hosts.A} link set {hosts.Cable}a up", $"-n {hosts.B} link set {hosts.Cable}b up",
                    $"-n {hosts.A} link set lo up", $"-n {hosts.B} link set lo up",
                })
                {
                    var done = await ProgramRunner.RunProgramAsync("ip", Path.GetTempPath(), command.Split(' '));
                    Assert.True(done.ExitCode == 0, $"ip {command}: {done}");
                }

                return hosts;
            }
            catch
            {
                await hosts.DisposeAsync();
                throw;
            }
        }

        /// <summary>conclab with <paramref name="args"/>, in namespace <paramref name="host"/>.</summary>
        public RunningProgram Start(string host, string folder, params string[] args) =>
            RunningProgram.Start("ip", folder, ["netns", "exec", host, "dotnet", ProgramRunner.ConclabDll, .. args]);

        public async ValueTask DisposeAsync()
        {
            // Deleting a namespace takes its end of the cable with it, and the cable's other end too.
            foreach (var host in new[] { A, B })
            {
                await ProgramRunner.RunProgramAsync("ip", Path.GetTempPath(), ["netns", "del", host]);
            }
        }
    }
}
