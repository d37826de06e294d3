using ConcurrencyLab.Experiments;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Tests.Scenarios;

public sealed class NamedScenariosTests
{
    [Fact]
    public void FindingOne_BuildsThatOneAlone_AndEachIsBuiltOnce()
    {
        var built = new List<string>();
        Func<Scenario> Make(string name) => () =>
        {
            built.Add(name);
            return ScenarioCatalog.Tool.First(s => s.Name == name);
        };

        var named = new NamedScenarios(("delay", Make("delay")), ("hash", Make("hash")), ("mix", Make("mix")));

        Assert.Equal("hash", NamedScenarios.Find(named, "hash")!.Name);
        Assert.Equal(["hash"], built);
        Assert.Null(named.Find("nosuch"));
        Assert.Same(named[1], NamedScenarios.Find(named, "hash"));
        Assert.Equal(["delay", "hash", "mix"], named.Select(s => s.Name));
        Assert.Equal(["hash", "delay", "mix"], built);
    }

    [Fact]
    public void TheCatalog_NamesEachScenarioAsItIsNamed_AndTheToolSharesTheBuiltInOnes()
    {
        Assert.Equal(["delay", "scan", "poll", "fanout", "hash", "mix"], ScenarioCatalog.Tool.Select(s => s.Name));
        Assert.All(ScenarioCatalog.BuiltIn, s => Assert.Same(s, NamedScenarios.Find(ScenarioCatalog.Tool, s.Name)));
        Assert.Same(ScenarioCatalog.Mix, ScenarioCatalog.Tool[^1]);

        var wrong = new NamedScenarios(("scan", () => ScenarioCatalog.BuiltIn[0]));
        Assert.Contains("listed as 'scan' is named 'delay'", Assert.Throws<InvalidOperationException>(() => wrong[0]).Message, StringComparison.Ordinal);
    }
}
