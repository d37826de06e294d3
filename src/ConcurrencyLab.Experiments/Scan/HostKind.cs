namespace ConcurrencyLab.Experiments.Scan;

/// <summary>How a host of the fleet answers a TCP connect.</summary>
internal enum HostKind
{
    /// <summary>A listener accepts the connection, optionally after a delay.</summary>
    Open,

    /// <summary>Nothing listens: the connect is refused at once.</summary>
    Closed,

    /// <summary>The SYN is never answered: the client waits for its own timeout.</summary>
    Silent,
}
