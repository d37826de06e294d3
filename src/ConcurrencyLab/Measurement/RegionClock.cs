namespace ConcurrencyLab.Measurement;

/// <summary>
/// A measured region's bounds in <see cref="System.Diagnostics.Stopwatch"/> ticks (an end of null for a region
/// still running, or cut by a timeout), and the OS ids of the lab's own threads in the trial's process, whose
/// runtime events are the lab's rather than the variant's.
/// </summary>
/// <param name="Start">When the region began.</param>
/// <param name="End">When it ended.</param>
/// <param name="LabThreads">The lab's own threads' OS ids, never the caller (the thread the host entered on is the
/// variant's when the region begins on it).</param>
/// <param name="Caller">
/// The OS id of the thread that began the region and handed the work to the variant: its waits are the variant
/// waiting for its own batch (the join), told apart from the work's; null where it cannot be read.
/// </param>
internal sealed record RegionClock(long Start, long? End, IReadOnlyList<int>? LabThreads = null, int? Caller = null);
