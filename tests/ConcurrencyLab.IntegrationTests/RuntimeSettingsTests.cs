using System.Text.Json;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>The runtime's settings for a run reach every trial's process, which records what it saw.</summary>
public sealed class RuntimeSettingsTests
{
    [Fact]
    public async Task TheSettings_ReachTheTrialsProcess_WhichReportsWhatItSaw()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.RunAsync(ProgramRunner.TestWorkloadsDll, folder.Path,
            ["run", "sleep", "--items", "4", "--wait-ms", "10", "--variants", "whenall", "--repeat", "1", "--warmup", "0", "--events", "off", "--out", "out", "--plain",
             "--cores", "8", "--pool-min-threads", "12", "--hill-climbing", "off", "--gc", "server", "--runtime-env", "DOTNET_TieredPGO=0"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("DOTNET_PROCESSOR_COUNT=8 on", result.Output, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var metrics = json.RootElement.GetProperty("scenarios")[0].GetProperty("variants")[0].GetProperty("trials")[0].GetProperty("metrics");
        Assert.Equal(8, metrics.GetProperty("processorCount").GetDouble());
        Assert.Equal(12, metrics.GetProperty("poolMinimum").GetDouble());
        Assert.Equal(1, metrics.GetProperty("serverGc").GetDouble());

        var settings = json.RootElement.GetProperty("settings").GetProperty("runtimeEnvironment");
        Assert.Equal("c", settings.GetProperty("DOTNET_ThreadPool_ForceMinWorkerThreads").GetString());
        Assert.Equal("1", settings.GetProperty("DOTNET_HillClimbing_Disable").GetString());
        Assert.Equal("0", settings.GetProperty("DOTNET_TieredPGO").GetString());
    }

    [Fact]
    public async Task SeveralValues_MultiplyTheVariants_AndEachTrialSeesItsOwn()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.RunAsync(ProgramRunner.TestWorkloadsDll, folder.Path,
            ["run", "sleep", "--items", "4", "--wait-ms", "10", "--variants", "whenall,sequential", "--repeat", "1", "--warmup", "0", "--events", "off", "--out", "out", "--plain",
             "--cores", "1,4", "--gc", "server,workstation"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var variants = json.RootElement.GetProperty("scenarios")[0].GetProperty("variants").EnumerateArray().ToList();
        Assert.Equal(
            ["sequential:cores=1:server-gc=0", "sequential:cores=1:server-gc=1", "sequential:cores=4:server-gc=0", "sequential:cores=4:server-gc=1", "whenall:cores=1:server-gc=0", "whenall:cores=1:server-gc=1", "whenall:cores=4:server-gc=0", "whenall:cores=4:server-gc=1"],
            variants.Select(v => v.GetProperty("name").GetString()).Order(StringComparer.Ordinal));
        foreach (var variant in variants)
        {
            var parameters = variant.GetProperty("parameters");
            var metrics = variant.GetProperty("trials")[0].GetProperty("metrics");
            var cores = double.Parse(parameters.GetProperty("cores").GetString()!, System.Globalization.CultureInfo.InvariantCulture);
            Assert.Equal(cores, metrics.GetProperty("processorCount").GetDouble());

            // The runtime runs the workstation GC on one processor, whatever it is asked: the trial shows that too.
            var server = double.Parse(parameters.GetProperty("server-gc").GetString()!, System.Globalization.CultureInfo.InvariantCulture);
            Assert.Equal(cores == 1 ? 0 : server, metrics.GetProperty("serverGc").GetDouble());
        }

        // A sweep over a setting draws as a line, like a degree's.
        Assert.True(File.Exists(Path.Combine(folder.Path, "out", "charts", "sleep-sweep-cores.svg")) || File.Exists(Path.Combine(folder.Path, "out", "charts", "sleep-sweep.svg")));
    }

    [Fact]
    public async Task WithoutSettings_TheTrialSeesTheMachine()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.RunAsync(ProgramRunner.TestWorkloadsDll, folder.Path,
            ["run", "sleep", "--items", "4", "--wait-ms", "10", "--variants", "whenall", "--repeat", "1", "--warmup", "0", "--events", "off", "--out", "out", "--plain"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder.Path, "out", "results.json")));
        var metrics = json.RootElement.GetProperty("scenarios")[0].GetProperty("variants")[0].GetProperty("trials")[0].GetProperty("metrics");
        Assert.Equal(Environment.ProcessorCount, metrics.GetProperty("processorCount").GetDouble());
        Assert.Equal(0, metrics.GetProperty("serverGc").GetDouble());
    }

    [Theory]
    [InlineData("--runtime-env", "FOO=1", "--runtime-env takes DOTNET_NAME=VALUE")]
    [InlineData("--runtime-env", "DOTNET_DiagnosticPorts=/tmp/x", "the lab sets it")]
    [InlineData("--runtime-env", "novalue", "--runtime-env takes DOTNET_NAME=VALUE")]
    [InlineData("--cores", "0", "--cores takes a whole number from 1 to 4096")]
    [InlineData("--gc", "fast", "--gc takes server or workstation")]
    [InlineData("--hill-climbing", "maybe", "--hill-climbing takes on or off")]
    public async Task ABadSetting_IsOneLine_AndExits2(string option, string value, string expected)
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.RunAsync(ProgramRunner.TestWorkloadsDll, folder.Path, ["run", "sleep", "--out", "out", option, value]);

        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.Error.Trim().Split('\n'));
        Assert.Contains(expected, result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SettingsInProcess_AreRefused_SinceTheRuntimeHasStarted()
    {
        using var folder = new TempFolder();
        var result = await ProgramRunner.RunAsync(ProgramRunner.TestWorkloadsDll, folder.Path, ["run", "sleep", "--in-process", "--cores", "2"]);

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("not --in-process", result.Error, StringComparison.Ordinal);
    }
}
