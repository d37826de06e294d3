namespace ConcurrencyLab.Measurement;

/// <summary>One reading of the process taken by the <see cref="Sampler"/>.</summary>
/// <param name="TimeMs">Milliseconds since the measured region began.</param>
/// <param name="Threads">OS threads of the whole process.</param>
/// <param name="PoolThreads">ThreadPool.ThreadCount.</param>
/// <param name="QueueLength">ThreadPool.PendingWorkItemCount.</param>
/// <param name="CpuMs">Process CPU time (user and system) since the measured region began.</param>
/// <param name="ResidentBytes">The process's resident memory (rss of <c>/proc/self/stat</c>); 0 where it was not read (files from before
/// it was kept), -1 where the OS has no cheap way to say.</param>
internal readonly record struct Sample(double TimeMs, int Threads, int PoolThreads, long QueueLength, double CpuMs, long ResidentBytes = 0);
