namespace ConcurrencyLab.Strategies;

/// <summary>Every scheduling strategy the lab knows, by identifier.</summary>
internal static class StrategyCatalog
{
    /// <summary>All strategies, in the order reports list them.</summary>
    public static IReadOnlyList<Strategy> All { get; } =
    [
        new SequentialStrategy(),
        new TaskLoopStrategy(),
        new DedicatedThreadsStrategy(),
        new ThreadPoolStrategy(),
        new TaskRunWaitAllStrategy(),
        new TaskRunWhenAllStrategy(),
        new MixAndMatchStrategy(),
        new WhenAllStrategy(),
        new ChannelFanInStrategy(),
        new ParallelForStrategy(),
        new ParallelForEachStrategy(),
        new ParallelForEachAsyncStrategy(),
        new ChannelWorkersStrategy(),
        new PlinqStrategy(),
        new DataflowStrategy(),
        new SemaphoreStrategy(),
    ];

    /// <summary>Finds a strategy by its <see cref="Strategy.Id"/>.</summary>
    public static Strategy? Find(string id) =>
        All.FirstOrDefault(s => string.Equals(s.Id, id, StringComparison.OrdinalIgnoreCase));
}
