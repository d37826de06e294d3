using Xunit.Abstractions;

[assembly: Xunit.TestCollectionOrderer("ConcurrencyLab.IntegrationTests.LongestFirst", "ConcurrencyLab.IntegrationTests")]

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// Starts the longest test collection first: <c>conclab reproduce delay</c> (four builds, one ahead of time, then every
/// run) took 3 min 49 s alone and up to 8 min beside the others, and, started among the last, it ended CI minutes after
/// everything else. The rest keep xunit's order.
/// </summary>
public sealed class LongestFirst : ITestCollectionOrderer
{
    private static readonly string[] Longest = [nameof(ReproduceTests)];

    /// <inheritdoc/>
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.Select((c, i) => (Collection: c, Index: i))
            .OrderBy(p => Array.FindIndex(Longest, name => p.Collection.DisplayName.EndsWith("." + name, StringComparison.Ordinal)) is var at && at >= 0 ? at : Longest.Length)
            .ThenBy(p => p.Index)
            .Select(p => p.Collection);
}
