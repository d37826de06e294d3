namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>One way of receiving from every connection: a variant of the poll experiment.</summary>
internal abstract class Receiver
{
    /// <summary>The variant's name.</summary>
    public abstract string Id { get; }

    /// <summary>One line saying how it receives.</summary>
    public abstract string Description { get; }

    /// <summary>
    /// Starts receiving and returns at once; the task completes once the receiver has stopped after
    /// <see cref="PollSession.Stop"/> and no longer touches the connections.
    /// </summary>
    public abstract Task StartAsync(PollSession session);
}
