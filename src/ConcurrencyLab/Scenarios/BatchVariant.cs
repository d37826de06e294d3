using System.Text;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A variant of a batch scenario: a strategy, the form it calls items in, and a degree. Its name is
/// <c>strategy[@degree][-form]</c>, the form left out when it is the one the strategy is written for,
/// e.g. <c>foreach-async@40</c>, <c>parallel-for@default</c>, <c>sequential-tap</c>.
/// </summary>
public sealed record BatchVariant(Strategy Strategy, WorkForm Form, Degree Degree)
{
    /// <summary>The canonical name.</summary>
    public string Name
    {
        get
        {
            var name = new StringBuilder(Strategy.Id);
            if (Strategy.HasDegree)
            {
                name.Append('@').Append(Degree.ToString());
            }

            if (Form != Strategy.PreferredForm)
            {
                name.Append('-').Append(Form.ToSuffix());
            }

            return name.ToString();
        }
    }

    /// <summary>What the variant does, in .NET terms.</summary>
    public string Description
    {
        get
        {
            var text = Strategy.Description;
            if (Strategy.HasDegree)
            {
                text += Degree.IsDefault ? $" (N = default: {Strategy.DefaultDegreeMeaning})" : $" (N = {Degree.Value})";
            }

            return Form switch
            {
                WorkForm.Sync => text + "; blocking calls",
                WorkForm.Tap => text + "; Task-returning calls",
                _ => text + "; Begin/End calls",
            };
        }
    }

    /// <summary>
    /// Parses a name written as <c>strategy[@degree][-form]</c>. Checks the syntax and the strategy only;
    /// whether the workload supports the form is for the scenario to check.
    /// </summary>
    public static bool TryParse(string text, out BatchVariant variant, out string error)
    {
        variant = null!;
        var rest = text.Trim().ToLowerInvariant();
        WorkForm? form = null;
        var dash = rest.LastIndexOf('-');
        if (dash > 0 && WorkForms.TryParse(rest[(dash + 1)..], out var parsedForm))
        {
            form = parsedForm;
            rest = rest[..dash];
        }

        Degree? degree = null;
        var at = rest.IndexOf('@', StringComparison.Ordinal);
        if (at >= 0)
        {
            if (!Degree.TryParse(rest[(at + 1)..], out var parsedDegree))
            {
                error = $"variant '{text}': the degree after '@' must be a positive whole number or 'default'.";
                return false;
            }

            degree = parsedDegree;
            rest = rest[..at];
        }

        var strategy = StrategyCatalog.Find(rest);
        if (strategy is null)
        {
            error = $"variant '{text}': unknown strategy '{rest}'; known: {string.Join(", ", StrategyCatalog.All.Select(s => s.Id))}.";
            return false;
        }

        if (degree is not null && !strategy.HasDegree)
        {
            error = $"variant '{text}': {strategy.Id} takes no degree ('@').";
            return false;
        }

        if (degree is { IsDefault: false } fixedDegree && fixedDegree.Value > strategy.MaxDegree)
        {
            error = $"variant '{text}': {strategy.Id} accepts a degree of at most {strategy.MaxDegree}.";
            return false;
        }

        var chosenForm = form ?? strategy.PreferredForm;
        if (!strategy.Supports(chosenForm))
        {
            error = $"variant '{text}': {strategy.Id} cannot call items in the {chosenForm.ToSuffix()} form; it takes {string.Join(", ", strategy.Forms.Select(f => f.ToSuffix()))}.";
            return false;
        }

        variant = new BatchVariant(strategy, chosenForm, degree ?? Degree.Default);
        error = string.Empty;
        return true;
    }
}
