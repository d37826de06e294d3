using CsCheck;
using ConcurrencyLab.Experiments;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Scenarios;

/// <summary>A variant's identity as structure: keys with value equality, printed and read by the scenario's space alone.</summary>
public sealed class VariantKeyTests
{
    private static readonly VariantKey Pool = new("pool", WorkForm.Tap, [KeyValuePair.Create("degree", VariantValue.Of(8)), KeyValuePair.Create("items", VariantValue.Of(100))]);

    [Fact]
    public void Keys_AreEqualByValue_WhateverOrderTheirValuesCameIn()
    {
        var same = new VariantKey("pool", WorkForm.Tap, [KeyValuePair.Create("items", VariantValue.Of(100)), KeyValuePair.Create("degree", VariantValue.Of(8))]);

        Assert.Equal(Pool, same);
        Assert.Equal(Pool.GetHashCode(), same.GetHashCode());
        Assert.NotEqual(Pool, Pool.With("degree", VariantValue.Of(9)));
        Assert.NotEqual(Pool, Pool.With("degree", VariantValue.Of("default")));
        Assert.NotEqual(Pool, new VariantKey("pool", WorkForm.Apm, Pool.Values));
        Assert.NotEqual(Pool, new VariantKey("other", WorkForm.Tap, Pool.Values));
    }

    [Fact]
    public void WithWithoutAndProject_MakeNewKeys_AndLeaveTheOldOneAsItWas()
    {
        var auto = Pool.With("degree", VariantValue.Of("AUTO"));

        Assert.Equal("auto", auto.Values["degree"].Word);
        Assert.Null(auto.WholeNumber("degree"));
        Assert.Equal(8, Pool.WholeNumber("degree"));
        Assert.Equal(["degree"], Pool.Without("items").Values.Keys);
        Assert.Same(Pool, Pool.Without("cores"));
        Assert.Equal(["items"], Pool.Project(["items", "cores"]).Values.Keys);
        Assert.Equal(Pool.Without("degree"), Pool.Project(["items"]));
    }

    [Fact]
    public void AValue_IsANumberOrAWord_AsResultsRecordIt()
    {
        Gen.Int[0, int.MaxValue].Sample(n => Assert.Equal(VariantValue.Of(n), VariantValue.Read(n.ToString(System.Globalization.CultureInfo.InvariantCulture))));
        Assert.Equal("default", VariantValue.Read("default").Word);
        Assert.Null(VariantValue.Read("-3").Number);
        Assert.Null(VariantValue.Read("1e3").Number);
    }

    [Fact]
    public void EveryVariantOfEveryScenario_IsNamedFromItsKey_AndItsNameReadsBackToTheSameKey()
    {
        var checkedVariants = 0;
        foreach (var scenario in ScenarioCatalog.BuiltIn)
        {
            var parameters = ParameterValues.Create(scenario.Parameters, null, quick: false, out _);
            var space = scenario.Variants(parameters);
            foreach (var variant in scenario.AllVariants(parameters))
            {
                Assert.Equal(variant.Name, space.NameOf(variant.Key));
                Assert.True(space.TryParse(variant.Name, allowUnavailable: true, out var read, out var problem), problem);
                Assert.Equal(variant.Key, read.Key);
                Assert.Equal(variant.Key, VariantKey.Recorded(new VariantResult { Name = "x", Description = "x", Family = variant.Family, Form = variant.Form, Parameters = variant.Parameters, Status = TrialStatus.Ok, Trials = [] }));
                checkedVariants++;
            }
        }

        Assert.True(checkedVariants > 50, $"only {checkedVariants} variants were checked");
    }

    [Fact]
    public void ASweptVariant_IsNamedWithItsSweep_AndAValueNoFamilyTakes_IsNamedAfterIt()
    {
        var delay = new ConcurrencyLab.Experiments.Delay.DelayScenario();
        var space = delay.Variants(ParameterValues.Create(delay.Parameters, null, quick: false, out _)).WithSweeps([(RuntimeSettings.Cores.Parameter, [2, 8])]);
        Assert.True(space.TryParse("parallel-for@4:cores=8", out var variant, out var problem), problem);

        Assert.Equal("parallel-for@4", space.NameOf(variant.Key.Without("cores")));
        Assert.Equal("parallel-for@4:cores=2", space.NameOf(variant.Key.With("cores", VariantValue.Of(2))));
        Assert.Equal("parallel-for@4:cores=8:build=native-aot", space.NameOf(variant.Key.With("build", VariantValue.Of("native-aot"))));
    }

    [Theory]
    [InlineData("parallel-for@8", true)]
    [InlineData("Parallel-For@16-apm:wait-ms=10", true)]
    [InlineData("parallel-for@default", false)]
    [InlineData("whenall", false)]
    [InlineData("nonsense@8", false)]
    [InlineData("whenall:items=8", false)]
    public void ADegreeChosenInAName_IsReadByTheSpace_NotByAPattern(string name, bool chooses) =>
        Assert.Equal(chooses, ((BatchScenario)ScenarioCatalog.BuiltIn.First(s => s.Name == "delay")).NamesADegree(name));
}
