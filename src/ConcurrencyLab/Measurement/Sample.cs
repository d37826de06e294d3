namespace ConcurrencyLab.Measurement;

/// <summary>One reading of the process taken by the <see cref="Sampler"/>.</summary>
/// <param name="TimeMs">Milliseconds since the measured region began.</param>
/// <param name="Threads">OS threads of the whole process.</param>
/// <param name="PoolThreads">ThreadPool.ThreadCount.</param>
/// <param name="QueueLength">ThreadPool.PendingWorkItemCount.</param>
/// <param name="CpuMs">Process CPU time (user and system) since the measured region began.</param>
internal readonly record struct Sample(double TimeMs, int Threads, int PoolThreads, long QueueLength, double CpuMs);
