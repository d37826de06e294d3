using System.Runtime.ExceptionServices;

namespace ConcurrencyLab.Strategies;

/// <summary>
/// Keeps the first exception thrown by items running on threads the strategy does not await
/// (dedicated threads, pool work items), so it can be rethrown on the thread that waits for them.
/// </summary>
internal sealed class FirstFailure
{
    private ExceptionDispatchInfo? _first;

    public void Run(Action action)
    {
        try
        {
            action();
        }
        catch (Exception ex)
        {
            Interlocked.CompareExchange(ref _first, ExceptionDispatchInfo.Capture(ex), null);
        }
    }

    /// <summary>Whether an action has failed, for work that stops once one has.</summary>
    public bool Failed => Volatile.Read(ref _first) is not null;

    public void ThrowIfAny() => Volatile.Read(ref _first)?.Throw();
}
