using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Tests.Scenarios;

/// <summary>
/// A test double: a scenario with no parameters and one variant, <c>only</c>, for tests of the machinery
/// around scenarios (the runner, the trial host). Subclasses say what its trial and its set-up do.
/// </summary>
internal abstract class OneVariantScenario : Scenario
{
    public override IReadOnlyList<Parameter> Parameters { get; init; } = [];

    private static readonly VariantSpace Only = new("test", "variant", [new VariantFamily("only", "the one variant")]);

    public override VariantSpace Variants(ParameterValues parameters) => Only;

    public override IReadOnlyList<Variant> DefaultVariants(ParameterValues parameters) => [Only.Create("only")];

    public override Variant DefaultBaseline(ParameterValues parameters) => Only.Create("only");

    /// <summary>The one variant, for a test that makes a trial request by hand.</summary>
    public static Variant TheVariant => Only.Create("only");

    public override IdealBound Ideal(ParameterValues parameters, int seed) => new(1, "none");
}
