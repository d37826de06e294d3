using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// The lab as its users get it: packed, then restored into a project outside the repository (the sample, as a
/// user would write it) with a package cache of its own, so nothing already on the machine helps; and the
/// conclab tool installed from the same packages.
/// </summary>
public sealed class PackageTests(PackageTests.Packed packed) : IClassFixture<PackageTests.Packed>
{
    [Fact]
    public async Task TheSample_RestoresWithoutAWarning_PullsInNoChartsOrWebServer_AndRunsFromItsOwnCommandLine()
    {
        using var folder = new TempFolder();
        var project = Path.Combine(folder.Path, "MyWorkload");
        Directory.CreateDirectory(project);
        foreach (var file in Directory.EnumerateFiles(Path.Combine(ProgramRunner.RepositoryRoot, "samples", "MyWorkload")).Where(f => f.EndsWith(".cs", StringComparison.Ordinal) || f.EndsWith(".csproj", StringComparison.Ordinal)))
        {
            File.Copy(file, Path.Combine(project, Path.GetFileName(file)));
        }

        packed.WriteNuGetConfig(project);
        var build = await packed.DotnetAsync(project, "build", "-c", "Release", $"-p:ConcurrencyLabVersion={packed.Version}");

        Assert.True(build.ExitCode == 0, build.ToString());
        Assert.DoesNotMatch(@"warning [A-Z]+\d+", build.Output);
        Assert.Contains("0 Warning(s)", build.Output, StringComparison.Ordinal);
        var deps = await File.ReadAllTextAsync(Path.Combine(project, "bin", "Release", "net10.0", "MyWorkload.deps.json"));
        foreach (var heavy in new[] { "ScottPlot", "SkiaSharp", "HarfBuzz", "Microsoft.AspNetCore" })
        {
            Assert.DoesNotContain(heavy, deps, StringComparison.Ordinal);
        }

        // The event parser's Windows-only native libraries (ETW, DIA) stay out of a consumer's output.
        foreach (var windowsOnly in new[] { "amd64", "x86", "arm64" })
        {
            Assert.False(Directory.Exists(Path.Combine(project, "bin", "Release", "net10.0", windowsOnly)), windowsOnly);
        }

        // Options first, as a user types them after `dotnet run --`: run the one scenario with them.
        // A temporary folder of the run's own: other tests running beside this one write set-up files too, so only
        // this folder says whether this run cleaned up after itself.
        var program = Path.Combine(project, "bin", "Release", "net10.0", "MyWorkload.dll");
        var temp = Directory.CreateDirectory(Path.Combine(folder.Path, "tmp")).FullName;
        var run = await ProgramRunner.RunProgramAsync("dotnet", folder.Path, [program, "--variants", "whenall,sequential", "--repeat", "2", "--items", "12", "--wait-ms", "5,15", "--plain", "--out", "out"], TimeSpan.FromMinutes(3), new Dictionary<string, string> { ["TMPDIR"] = temp });

        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("Peak in flight", run.Output, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        var variants = scenario.GetProperty("variants").EnumerateArray().ToDictionary(v => v.GetProperty("name").GetString()!);
        Assert.Equal(["sequential:wait-ms=15", "sequential:wait-ms=5", "whenall:wait-ms=15", "whenall:wait-ms=5"], variants.Keys.Order(StringComparer.Ordinal));
        foreach (var (name, variant) in variants)
        {
            Assert.Equal("ok", variant.GetProperty("status").GetString());
            var trials = variant.GetProperty("trials").EnumerateArray().ToList();
            Assert.Equal(2, trials.Count);
            Assert.All(trials, t =>
            {
                Assert.Equal(12, t.GetProperty("itemsCompleted").GetInt32());
                var metrics = t.GetProperty("metrics");

                // The workload's own metric: a sequential loop has one item under way at a time, WhenAll all twelve.
                Assert.Equal(name.StartsWith("whenall", StringComparison.Ordinal) ? 12 : 1, metrics.GetProperty("peak-in-flight").GetDouble());
                Assert.True(metrics.GetProperty("startUpMs").GetDouble() > 0);
            });
        }

        Assert.Contains(scenario.GetProperty("metrics").EnumerateArray(), m => m.GetProperty("id").GetString() == "peak-in-flight");
        Assert.Empty(Directory.EnumerateFileSystemEntries(temp));
    }

    [Fact]
    public async Task TheTemplate_InstallsFromItsPackage_AndMakesAProjectThatBuildsWithoutAWarning_AndRuns()
    {
        using var folder = new TempFolder();

        // A template hive of the test's own: nothing installed on the machine, nothing it had installed used.
        var hive = Path.Combine(folder.Path, "hive");
        var install = await packed.DotnetAsync(folder.Path, "new", "install", Path.Combine(packed.Feed, $"ConcurrencyLab.Templates.{packed.Version}.nupkg"), "--debug:custom-hive", hive);
        Assert.True(install.ExitCode == 0, install.ToString());
        Assert.Contains("conclab-workload", install.Output, StringComparison.Ordinal);

        var project = Path.Combine(folder.Path, "Resize");
        // As the README's quick start makes it: the feed the pack wrote, named once, so the project builds with no --source.
        var made = await packed.DotnetAsync(folder.Path, "new", "conclab-workload", "-n", "Resize", "-o", project, "--labVersion", packed.Version, "--labFeed", packed.Feed, "--debug:custom-hive", hive);
        Assert.True(made.ExitCode == 0, made.ToString());
        Assert.True(File.Exists(Path.Combine(project, "Resize.csproj")), made.ToString());
        Assert.Contains("namespace Resize;", await File.ReadAllTextAsync(Path.Combine(project, "ItemWorkload.cs")), StringComparison.Ordinal);

        // A version is a version: a value that would add to the project file loses every character a version lacks.
        var hostile = Path.Combine(folder.Path, "Hostile");
        var forged = await packed.DotnetAsync(folder.Path, "new", "conclab-workload", "-n", "Hostile", "-o", hostile, "--labVersion", "1.0\"/><Target Name=\"X\" BeforeTargets=\"Build\"><Exec Command=\"touch pwned\"/></Target><X A=\"", "--debug:custom-hive", hive);
        Assert.True(forged.ExitCode == 0, forged.ToString());
        var hostileProject = await File.ReadAllTextAsync(Path.Combine(hostile, "Hostile.csproj"));
        Assert.DoesNotContain("<Exec", hostileProject, StringComparison.Ordinal);
        Assert.Contains("Version=\"1.0TargetNameXBeforeTargetsBuildExecCommandtouchpwnedTargetXA\"", hostileProject, StringComparison.Ordinal);
        System.Xml.Linq.XDocument.Parse(hostileProject);

        Assert.Contains(packed.Feed, await File.ReadAllTextAsync(Path.Combine(project, "NuGet.config")), StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(hostile, "NuGet.config")), "a project made without --labFeed has no NuGet.config");
        var build = await packed.DotnetAsync(project, "build", "-c", "Release");
        Assert.True(build.ExitCode == 0, build.ToString());
        Assert.DoesNotMatch(@"warning [A-Z]+\d+", build.Output);
        Assert.Contains("0 Warning(s)", build.Output, StringComparison.Ordinal);

        // --dop 4 instead of the degrees searched: the search is 108 trials of its own, 75 s of a CI run.
        var program = Path.Combine(project, "bin", "Release", "net10.0", "Resize.dll");
        var run = await ProgramRunner.RunProgramAsync("dotnet", folder.Path, [program, "--quick", "--repeat", "1", "--dop", "4", "--plain", "--out", "out"], TimeSpan.FromMinutes(3));

        Assert.True(run.ExitCode == 0, run.ToString());
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(folder.Path, "out", "results.json")));
        var scenario = json.RootElement.GetProperty("scenarios")[0];
        Assert.Equal("workload", scenario.GetProperty("name").GetString());
        var variants = scenario.GetProperty("variants").EnumerateArray().ToList();
        Assert.True(variants.Count >= 10, run.ToString());
        Assert.All(variants, v => Assert.Equal("ok", v.GetProperty("status").GetString()));
        Assert.All(variants, v => Assert.Equal(40, v.GetProperty("trials")[0].GetProperty("itemsCompleted").GetInt32()));
    }

    [Fact]
    public async Task TheTool_InstallsFromThePackages_AndListsTheExperiments()
    {
        using var folder = new TempFolder();
        var tools = Path.Combine(folder.Path, "tools");
        packed.WriteNuGetConfig(folder.Path);
        var install = await packed.DotnetAsync(folder.Path, "tool", "install", "conclab", "--tool-path", tools, "--version", packed.Version);
        Assert.True(install.ExitCode == 0, install.ToString());

        var list = await ProgramRunner.RunProgramAsync(Path.Combine(tools, "conclab"), folder.Path, ["list"], TimeSpan.FromMinutes(1));

        Assert.True(list.ExitCode == 0, list.ToString());
        foreach (var scenario in new[] { "delay:", "scan:", "poll:", "fanout:", "hash:" })
        {
            Assert.Contains(scenario, list.Output, StringComparison.Ordinal);
        }
    }

    /// <summary>The packages, made once for the class under a version of their own, in a folder that goes with the tests.</summary>
    public sealed class Packed : IAsyncLifetime, IDisposable
    {
        private readonly TempFolder _folder = new();

        public string Version { get; } = $"0.1.0-test.{DateTime.UtcNow:yyyyMMddHHmmss}.{Environment.ProcessId}";

        public string Feed => Path.Combine(_folder.Path, "feed");

        // A package cache of the tests' own: a clean restore, and nothing added to the machine's.
        private string Cache => Path.Combine(_folder.Path, "cache");

        public async Task InitializeAsync()
        {
            // The solution's packable projects (the lab's seven and the templates), in one pack: the projects are built
            // for this test run already, so packing them again is packing what was tested.
            var solution = Path.Combine(ProgramRunner.RepositoryRoot, "ConcurrencyLab.slnx");
            var pack = await DotnetAsync(_folder.Path, "pack", solution, "-c", ProgramRunner.Configuration, "--no-build", "-o", Feed, $"-p:Version={Version}");
            Assert.True(pack.ExitCode == 0, pack.ToString());
            string[] expected = ["ConcurrencyLab", "ConcurrencyLab.Load", "ConcurrencyLab.Reproduction", "ConcurrencyLab.Experiments", "ConcurrencyLab.Charts",
                "ConcurrencyLab.CommandLine", "conclab", "ConcurrencyLab.Templates"];
            Assert.Equal(expected.Order(StringComparer.Ordinal), Directory.EnumerateFiles(Feed, "*.nupkg")
                .Select(f => Path.GetFileName(f)[..^$".{Version}.nupkg".Length]).Order(StringComparer.Ordinal));
        }

        public Task DisposeAsync()
        {
            Dispose();
            return Task.CompletedTask;
        }

        public void Dispose() => _folder.Dispose();

        /// <summary>A NuGet.config in <paramref name="folder"/> that adds the packages to the machine's own sources.</summary>
        internal void WriteNuGetConfig(string folder) => File.WriteAllText(Path.Combine(folder, "NuGet.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <add key="conclab-test" value="{Feed}" />
              </packageSources>
            </configuration>
            """);

        internal Task<ProgramRunner.Result> DotnetAsync(string workingDirectory, params string[] args) =>
            ProgramRunner.RunProgramAsync("dotnet", workingDirectory, args, TimeSpan.FromMinutes(5), new Dictionary<string, string>
            {
                ["NUGET_PACKAGES"] = Cache,
                ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
                ["DOTNET_NOLOGO"] = "1",
            });
    }
}
