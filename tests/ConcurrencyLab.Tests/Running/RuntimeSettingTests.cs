using ConcurrencyLab.Running;

namespace ConcurrencyLab.Tests.Running;

/// <summary>The one rule for a runtime setting, whoever gives it: one value a variable, several a sweep.</summary>
public sealed class RuntimeSettingTests
{
    [Fact]
    public void OneValue_IsAVariableEveryTrialStartsWith_AndSeveralAreASweep()
    {
        var one = RuntimeSettings.Cores.Apply(new RunOptions(), [2]);
        Assert.Equal("2", one.RuntimeEnvironment["DOTNET_PROCESSOR_COUNT"]);
        Assert.Empty(one.RuntimeSweeps);

        var several = RuntimeSettings.Cores.Apply(new RunOptions(), [2, 8, 2]);
        Assert.Equal([2, 8], several.RuntimeSweeps["cores"]);
        Assert.False(several.RuntimeEnvironment.ContainsKey("DOTNET_PROCESSOR_COUNT"));
    }

    [Fact]
    public void ANewValue_ReplacesTheSettingsOld_WhicheverWayItWasGiven_AndLeavesTheOthers()
    {
        var swept = RuntimeSettings.Cores.Apply(new RunOptions { RuntimeEnvironment = new Dictionary<string, string> { ["DOTNET_gcServer"] = "1" } }, [2, 8]);

        var fixedAgain = RuntimeSettings.Cores.Apply(swept, [4]);

        Assert.Empty(fixedAgain.RuntimeSweeps);
        Assert.Equal("4", fixedAgain.RuntimeEnvironment["DOTNET_PROCESSOR_COUNT"]);
        Assert.Equal("1", fixedAgain.RuntimeEnvironment["DOTNET_gcServer"]);
        Assert.Same(swept, RuntimeSettings.Cores.Apply(swept, []));
    }
}
