using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Experiments;

namespace ConcurrencyLab.Tests.Scenarios;

public sealed class ParameterTests
{
    public static TheoryData<string> BuiltIn() => [.. ScenarioCatalog.BuiltIn.Select(s => s.Name)];

    [Theory]
    [MemberData(nameof(BuiltIn))]
    public void EveryDefault_AtBothScales_IsAValueItsParameterAccepts_AndNamesAreUnique(string name)
    {
        var scenario = ScenarioCatalog.BuiltIn.Single(s => s.Name == name);

        Assert.Equal(scenario.Parameters.Count, scenario.Parameters.Select(p => p.Name).Distinct().Count());
        foreach (var quick in new[] { false, true })
        {
            ParameterValues.Create(scenario.Parameters, null, quick, out var errors);
            Assert.Empty(errors);
            Assert.All(scenario.Parameters.Where(p => p.DefaultFor(quick).Length > 0), p => Assert.Null(p.Check(p.DefaultFor(quick))));
        }
    }

    [Fact]
    public void AWholeNumber_IsReadTyped_AndRefusedWithItsRange()
    {
        var items = Parameter.WholeNumber("items", 100, "number of items", minimum: 1, maximum: 1000, quick: 10);
        var values = ParameterValues.Create([items], new Dictionary<string, string> { ["items"] = " 250 " }, quick: true, out var errors);

        Assert.Empty(errors);
        Assert.Equal(250, values.Get(items));
        Assert.Equal(10, ParameterValues.Create([items], null, quick: true, out _).Get(items));
        Assert.Equal("--items must be from 1 to 1000, not 0.", items.Check("0"));
        Assert.Equal("--items must be a whole number from 1 to 1000, not 'many'.", items.Check("many"));
    }

    [Fact]
    public void ASweep_DropsRepeats_AListOfValuesKeepsThem()
    {
        var sweep = Parameter.WholeNumbers("dop", [4, 40], "degrees", minimum: 1, maximum: 100);
        var delays = Parameter.WholeNumbers("delays", [1, 2, 3], "delays", minimum: 0, maximum: 100, distinct: false, count: 3);

        var values = ParameterValues.Create([sweep, delays], new Dictionary<string, string> { ["dop"] = "8,4,8", ["delays"] = "5,5,5" }, quick: false, out var errors);

        Assert.Empty(errors);
        Assert.Equal([8, 4], values.Get(sweep));
        Assert.Equal([5, 5, 5], values.Get(delays));
        Assert.Contains("exactly 3", delays.Check("5,5"), StringComparison.Ordinal);
        Assert.Contains("--dop must be a comma-separated list of whole numbers from 1 to 100", sweep.Check("4,,8"), StringComparison.Ordinal);
    }

    [Fact]
    public void AChoice_ReadsItsWord_AsTheValue_AndNamesEveryWordWhenRefusing()
    {
        var cache = Parameter.Choice("cache", true, "cold or warm", ("cold", true), ("warm", false));

        Assert.Equal("cold", cache.DefaultValue);
        Assert.False(ParameterValues.Create([cache], new Dictionary<string, string> { ["cache"] = "warm" }, quick: false, out _).Get(cache));
        Assert.Equal("--cache must be cold or warm, not 'lukewarm'.", cache.Check("lukewarm"));
    }

    [Theory]
    [InlineData("")]
    [InlineData("   ")]
    public void AnEmptyValue_IsRefused_WhateverTheParameter(string given)
    {
        var dir = Parameter.FreeText("dir", string.Empty, "a folder");

        ParameterValues.Create([dir], new Dictionary<string, string> { ["dir"] = given }, quick: false, out var errors);

        Assert.Equal("--dir must not be empty.", Assert.Single(errors));
    }

    [Fact]
    public void ReadingAParameterTheValuesLack_SaysWhich()
    {
        var items = Parameter.WholeNumber("items", 100, "number of items");

        var error = Assert.Throws<ArgumentException>(() => ParameterValues.FromValidated(new Dictionary<string, string>()).Get(items));

        Assert.Contains("--items", error.Message, StringComparison.Ordinal);
    }
}
