using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Scenarios;

public sealed class VariantSpaceTests
{
    // A family with a degree after '@' and a second parameter, as a runtime setting could be.
    private static readonly VariantSpace Space = new(
        "test",
        "strategy",
        [
            new VariantFamily("pool", "work on the pool")
            {
                Forms = [WorkForm.Sync, WorkForm.Tap],
                Parameters =
                [
                    new VariantParameter("degree", "how many items run at once", 1, 64) { DefaultWord = "default" },
                    new VariantParameter("min-threads", "the pool's minimum", 1, 1000) { DefaultWord = "default", Example = 100 },
                ],
            },
            new VariantFamily("plain", "one at a time"),
        ])
    {
        Aliases = new Dictionary<string, string> { ["published-pool"] = "pool@8-tap" },
    };

    [Theory]
    [InlineData("pool@4", "pool@4", "4", "default", WorkForm.Sync)]
    [InlineData("pool@4:min-threads=100", "pool@4:min-threads=100", "4", "100", WorkForm.Sync)]
    [InlineData("POOL@4-TAP:MIN-THREADS=100", "pool@4-tap:min-threads=100", "4", "100", WorkForm.Tap)]
    [InlineData("pool", "pool@default", "default", "default", WorkForm.Sync)]
    [InlineData("published-pool", "published-pool", "8", "default", WorkForm.Tap)]
    [InlineData("pool@8-tap", "published-pool", "8", "default", WorkForm.Tap)]
    [InlineData("published-pool:min-threads=100", "published-pool:min-threads=100", "8", "100", WorkForm.Tap)]
    [InlineData("pool@8-tap:min-threads=100", "published-pool:min-threads=100", "8", "100", WorkForm.Tap)]
    public void Names_AreReadIntoStructure_AndPrintedBackFromIt(string text, string name, string degree, string minThreads, WorkForm form)
    {
        Assert.True(Space.TryParse(text, out var variant, out var problem), problem);

        Assert.Equal(name, variant.Name);
        Assert.Equal("pool", variant.Family);
        Assert.Equal(form, variant.Form);
        Assert.Equal(degree, variant.Parameters["degree"]);
        Assert.Equal(minThreads, variant.Parameters["min-threads"]);
        Assert.True(Space.TryParse(variant.Name, out var again, out _));
        Assert.Equal(variant, again);
    }

    [Fact]
    public void AFamilyWithNoFormsOrParameters_IsItsNameAlone()
    {
        var plain = Space.Create("plain");

        Assert.Equal("plain", plain.Name);
        Assert.Null(plain.Form);
        Assert.Empty(plain.Parameters);
        Assert.Equal("one at a time", plain.Description);
    }

    [Theory]
    [InlineData("pool@4:min-threads=0", "the min-threads must be a positive whole number or 'default'")]
    [InlineData("pool@4:threads=8", "'threads=8' is not a parameter of pool; it takes min-threads=N")]
    [InlineData("plain@4", "plain takes no degree ('@')")]
    [InlineData("plain-tap", "plain has no forms")]
    [InlineData("pool-apm", "pool cannot call items in the apm form; it takes sync, tap")]
    [InlineData("nothing", "is not a test variant: unknown strategy 'nothing'; it has pool, plain")]
    public void BadNames_AreRefused_InOneLineSayingWhy(string text, string reason)
    {
        Assert.False(Space.TryParse(text, out _, out var problem));
        Assert.Contains(reason, problem, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', problem);
    }

    [Fact]
    public void TheScenariosOwnRefusal_IsTold_AfterTheFamilysChecks()
    {
        var picky = new VariantSpace("test", "strategy", Space.Families) { Refuse = v => v.Form == WorkForm.Tap ? "the workload has no tap form" : null };

        Assert.False(picky.TryParse("pool@4-tap", out _, out var problem));
        Assert.Equal("variant 'pool@4-tap': the workload has no tap form", problem);
        Assert.True(picky.TryParse("pool@4", out _, out _));
    }

    [Fact]
    public void AVariantMadeInCode_PassesTheChecksATypedNameDoes()
    {
        var picky = new VariantSpace("test", "strategy", Space.Families) { Refuse = v => v.Form == WorkForm.Tap ? "the workload has no tap form" : null };

        Assert.Equal("pool@4:min-threads=100", picky.Create("pool", WorkForm.Sync, "4", new Dictionary<string, string> { ["min-threads"] = "100" }).Name);
        Assert.Contains("plain has no forms", Assert.Throws<ArgumentException>(() => picky.Create("plain", WorkForm.Tap)).Message, StringComparison.Ordinal);
        Assert.Contains("the workload has no tap form", Assert.Throws<ArgumentException>(() => picky.Create("pool", WorkForm.Tap, "4")).Message, StringComparison.Ordinal);
        Assert.Contains("'threads=8' is not a parameter of pool", Assert.Throws<ArgumentException>(() => picky.Create("pool", null, "4", new Dictionary<string, string> { ["threads"] = "8" })).Message, StringComparison.Ordinal);
        Assert.Contains("accepts a degree of at most 64", Assert.Throws<ArgumentException>(() => picky.Create("pool", 65)).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AUsersWorkloadWithOnlyATaskForm_HasASequentialBaselineItCanRun()
    {
        var scenario = new ConcurrencyLab.Scenarios.WorkloadScenario("mine", _ => new TaskOnly());
        var parameters = ParameterValues.Create(scenario.Parameters, null, quick: false, out _);

        Assert.Equal("sequential-tap", scenario.DefaultBaseline(parameters).Name);
    }

    [Fact]
    public void TheGrammar_IsSaidFromTheFamilies()
    {
        Assert.Equal("strategy[@degree][-form][:min-threads=N]", Space.Grammar);
        Assert.Equal(string.Empty, new VariantSpace("poll", "receiver", [new VariantFamily("threads", "a thread each")]).Grammar);
        Assert.Equal("endpoint@requests", new VariantSpace("fanout", "endpoint", [new VariantFamily("waitall", "x") { Parameters = [new VariantParameter("requests", "how many", 1, 10)] }]).Grammar);
    }

    /// <summary>A workload with a task form only, as many a user writes.</summary>
    private sealed class TaskOnly : Workload
    {
        public override int Count => 3;

        public override IReadOnlyList<WorkForm> Forms { get; } = [WorkForm.Tap];

        public override ValueTask RunAsync(int index, CancellationToken cancellationToken) => ValueTask.CompletedTask;
    }
}
