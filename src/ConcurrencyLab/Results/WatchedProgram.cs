namespace ConcurrencyLab.Results;

/// <summary>
/// The program <c>conclab why</c> watched: a scenario that holds one is a watch, not a batch of items, and is reported
/// as one. Absent in every other scenario, and in older files.
/// </summary>
internal sealed record WatchedProgram
{
    /// <summary>Its process.</summary>
    public required int ProcessId { get; init; }

    /// <summary>Its command line, as started or as <c>/proc</c> gave it.</summary>
    public required IReadOnlyList<string> CommandLine { get; init; }

    /// <summary>Whether the lab started it (watched from its runtime's start) rather than attached to it.</summary>
    public required bool Launched { get; init; }

    /// <summary>Its exit code, where it exited in the window and the code could be read.</summary>
    public int? ExitCode { get; init; }

    /// <summary>How long the window was.</summary>
    public required double WindowMs { get; init; }

    /// <summary>How the window ended, in a few words.</summary>
    public required string Ended { get; init; }

    /// <summary>Whether it ran with the JIT's inlining turned off (<c>--no-inline</c>): every method a frame, the program slower.</summary>
    public bool InliningOff { get; init; }

    /// <summary>
    /// The .NET programs it started (its descendants) that were watched too, each attached once its runtime could be
    /// reached: the scenario's variants after the first, in this order. Empty when it started none, and in older files.
    /// </summary>
    public IReadOnlyList<WatchedChild> Children { get; init; } = [];
}

/// <summary>A .NET program the watched program started, watched from when it was attached until it exited or the watch ended.</summary>
internal sealed record WatchedChild
{
    /// <summary>Its process.</summary>
    public required int ProcessId { get; init; }

    /// <summary>Its command line, as <c>/proc</c> gave it.</summary>
    public required IReadOnlyList<string> CommandLine { get; init; }

    /// <summary>When it was attached to, in milliseconds from the watch's start.</summary>
    public required double StartMs { get; init; }

    /// <summary>How long it was watched.</summary>
    public required double WindowMs { get; init; }

    /// <summary>How its window ended, in a few words.</summary>
    public required string Ended { get; init; }
}
