using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// Reads thread counts, the pool's queue, CPU time and resident memory at a fixed interval on a dedicated background
/// thread. A dedicated thread, not a timer: a timer callback runs on the pool, so it would wait behind
/// the very queue it measures and would add work to it. The sampler's own thread is one of the OS
/// threads it counts; <c>threadsAtStart</c> in a trial already includes it.
/// </summary>
internal sealed class Sampler : IDisposable
{
    private readonly TimeSpan _interval;
    private readonly ProcessCounters _counters = new();
    // No spinning before blocking: the default spin would charge the trial ~0.4 ms of CPU per sample.
    private readonly ManualResetEventSlim _stop = new(false, spinCount: 0);
    private Sample[] _samples;
    private int _count;
    private Thread? _thread;
    private long _origin;
    private double _cpuOriginMs;

    public Sampler(TimeSpan interval, int expectedSamples = 1024)
    {
        _interval = interval;
        _samples = new Sample[Math.Max(16, expectedSamples)];
        if (Enabled)
        {
            // Compiled now, before any region: the sampler's thread compiles its methods fully optimised on their first
            // call, and did so beside the region it measures (a scan trial of 55 ms counted them among its JIT). A
            // sample taken and dropped compiles the reads; the loop is prepared.
            TakeSample();
            _count = 0;
            RuntimeHelpers.PrepareMethod(((Action)Loop).Method.MethodHandle);
        }
    }

    /// <summary>Samples taken so far.</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>Whether sampling is on at all (an interval of zero turns it off).</summary>
    public bool Enabled => _interval > TimeSpan.Zero;

    /// <summary>Starts the thread; the first sample is taken at once.</summary>
    public void Start(long originTimestamp, double cpuOriginMs)
    {
        _origin = originTimestamp;
        _cpuOriginMs = cpuOriginMs;
        if (!Enabled)
        {
            return;
        }

        _thread = new Thread(Loop) { IsBackground = true, Name = "conclab sampler", Priority = ThreadPriority.AboveNormal };
        _thread.Start();
    }

    /// <summary>
    /// Stops the thread, takes a last sample so the end state is always recorded, and returns the samples
    /// re-based onto the measured region: time and CPU from <paramref name="regionStart"/> and
    /// <paramref name="regionCpuMs"/>. Samples taken before the region began are dropped.
    /// </summary>
    public IReadOnlyList<Sample> Stop(long regionStart, double regionCpuMs)
    {
        if (_thread is not null)
        {
            _stop.Set();
            _thread.Join();
            _thread = null;
            TakeSample();
        }

        var shiftMs = Stopwatch.GetElapsedTime(_origin, regionStart).TotalMilliseconds;
        var cpuShiftMs = regionCpuMs - _cpuOriginMs;
        var samples = new List<Sample>(_count);
        for (var i = 0; i < _count; i++)
        {
            var sample = _samples[i];
            if (sample.TimeMs >= shiftMs)
            {
                samples.Add(sample with { TimeMs = sample.TimeMs - shiftMs, CpuMs = Math.Max(0, sample.CpuMs - cpuShiftMs) });
            }
        }

        return samples;
    }

    public void Dispose()
    {
        _stop.Set();
        _thread?.Join();
        _stop.Dispose();
        _counters.Dispose();
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void Loop()
    {
        LabThreads.EnlistCurrent();
        do
        {
            TakeSample();
        }
        while (!_stop.Wait(_interval));
    }

    // Compiled fully optimised at first call: under tiered compilation the sampler's methods would be
    // recompiled on a background thread after 30 calls, in the middle of the trial, charging it the JIT's CPU.
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    internal void TakeSample()
    {
        if (_count == _samples.Length)
        {
            // Rare: only when a trial runs longer than planned for. Doubling keeps it amortised.
            Array.Resize(ref _samples, _samples.Length * 2);
        }

        var (threads, resident) = _counters.Read();
        _samples[_count++] = new Sample(
            Stopwatch.GetElapsedTime(_origin).TotalMilliseconds,
            threads,
            ThreadPool.ThreadCount,
            ThreadPool.PendingWorkItemCount,
            Environment.CpuUsage.TotalTime.TotalMilliseconds - _cpuOriginMs,
            resident);
    }
}
