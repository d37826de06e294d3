using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Tests.Scenarios;

/// <summary>
/// A test double: a scenario with no parameters and one variant, <c>only</c>, for tests of the machinery
/// around scenarios (the runner, the trial host). Subclasses say what its trial and its set-up do.
/// </summary>
internal abstract class OneVariantScenario : Scenario
{
    public override IReadOnlyList<Parameter> Parameters { get; } = [];

    public override IReadOnlyList<VariantInfo> DefaultVariants(ParameterValues parameters) => [new("only", "the one variant")];

    public override bool TryResolveVariant(string name, ParameterValues parameters, out VariantInfo variant, out string problem)
    {
        variant = new VariantInfo(name, "the one variant");
        problem = name == "only" ? string.Empty : $"'{name}' is not this scenario's variant";
        return name == "only";
    }

    public override string DefaultBaseline(ParameterValues parameters) => "only";

    public override IdealBound Ideal(ParameterValues parameters, int seed) => new(1, "none");
}
