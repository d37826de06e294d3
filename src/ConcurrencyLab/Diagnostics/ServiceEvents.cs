namespace ConcurrencyLab.Diagnostics;

/// <summary>
/// The runner's diagnostic port for the service a trial observes, as the trial's request brought it: handed to
/// that one service's process as it starts, and to no other, since a runtime that connects to a port nobody
/// reads waits there for ever.
/// </summary>
internal static class ServiceEvents
{
    private static string? _port;

    /// <summary>Sets the port for this trial's process.</summary>
    public static void Offer(string? port) => Volatile.Write(ref _port, port);

    /// <summary>The port, once: later calls get null.</summary>
    public static string? Take() => Interlocked.Exchange(ref _port, null);
}
