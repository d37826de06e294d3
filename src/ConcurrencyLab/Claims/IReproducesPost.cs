using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Claims;

/// <summary>
/// A scenario that reproduces a published post: its claims, with the runs that test them (<c>conclab reproduce</c>).
/// Declared here, above Scenarios, so that a scenario knows nothing of claims unless it makes some, and claims may
/// read what scenarios and runs are.
/// </summary>
internal interface IReproducesPost
{
    /// <summary>The post's claims and the runs that test them.</summary>
    PublishedClaims Claims { get; }
}

/// <summary>The claims a scenario makes, if it reproduces a post.</summary>
internal static class PostClaims
{
    /// <summary>The claims of the post <paramref name="scenario"/> reproduces; null when it reproduces none.</summary>
    public static PublishedClaims? Of(Scenario scenario) => (scenario as IReproducesPost)?.Claims;
}
