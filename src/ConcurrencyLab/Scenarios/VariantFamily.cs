using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A family of variants: one strategy, endpoint or receiver, which may be run in several forms and at several
/// values of its parameters (<c>foreach-async</c> at degrees 4 and 40).
/// </summary>
public sealed class VariantFamily
{
    /// <summary>A family called <paramref name="id"/> that does what <paramref name="description"/> says.</summary>
    public VariantFamily(string id, string description)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(id);
        ArgumentNullException.ThrowIfNull(description);
        Id = id;
        Description = description;
    }

    /// <summary>The family's name, the start of its variants' names: <c>foreach-async</c>.</summary>
    public string Id { get; }

    /// <summary>What its variants do, in .NET terms.</summary>
    public string Description { get; }

    /// <summary>The forms it can call items in, the first the one it is written for (which names leave out); empty
    /// where forms do not apply.</summary>
    public IReadOnlyList<WorkForm> Forms { get; init; } = [];

    /// <summary>What its variants vary: the first is written after <c>@</c>; empty when it has no parameter.</summary>
    public IReadOnlyList<VariantParameter> Parameters { get; init; } = [];

    /// <summary>Why it cannot run on this machine (such as <c>needs direct reads (O_DIRECT), which this system does not
    /// offer</c>); null when it can.</summary>
    public string? Unavailable { get; init; }
}
