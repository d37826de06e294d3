using System.Diagnostics;
using System.Globalization;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Running;

/// <summary>
/// What a trial's timeout covers, read by a watchdog on another thread. The timeout is the measured region's:
/// a trial of 50 ms of work could not meet a 0.2 s limit that also counted starting its process and priming.
/// What comes before the region (the scenario's set-up, priming) has <see cref="RunOptions.TrialStartUpAllowance"/>
/// of its own, and the whole trial may last no longer than the two together.
/// </summary>
internal sealed class TrialWatch
{
    private readonly long _started = Stopwatch.GetTimestamp();
    private TrialMeter? _meter;

    public TrialWatch(TimeSpan regionLimit, TimeSpan startUpAllowance)
    {
        RegionLimit = regionLimit;
        StartUpAllowance = startUpAllowance;
    }

    /// <summary>How long the measured region may last.</summary>
    public TimeSpan RegionLimit { get; }

    /// <summary>How long the trial may take to begin its measured region.</summary>
    public TimeSpan StartUpAllowance { get; }

    /// <summary>How often a watchdog asks: often enough for a short limit, rarely enough to cost nothing.</summary>
    public TimeSpan PollInterval
        => TimeSpan.FromTicks(Math.Clamp(RegionLimit.Ticks / 4, TimeSpan.TicksPerMillisecond * 10, TimeSpan.TicksPerMillisecond * 100));

    /// <summary>The trial's meter, whose region the limit applies to, once the trial has made it.</summary>
    public void Watch(TrialMeter meter) => Volatile.Write(ref _meter, meter);

    /// <summary>The watched meter's region so far, for a timeout's result; null before it starts.</summary>
    public RegionClock? Region => Volatile.Read(ref _meter)?.Region;

    /// <summary>
    /// Why the trial has outlived its limits, or null while it has not. The meter's wait for the runner to finish the
    /// trial before (<see cref="TrialMeter.Waited"/>) is no part of the trial's time.
    /// </summary>
    public string? Overrun()
    {
        var meter = Volatile.Read(ref _meter);
        if (meter is { Waiting: true })
        {
            return null;
        }

        var elapsed = Stopwatch.GetElapsedTime(_started) - (meter?.Waited ?? TimeSpan.Zero);
        if (meter?.RegionElapsed is { } region)
        {
            if (region > RegionLimit)
            {
                return $"its measured region outlived the trial timeout of {Seconds(RegionLimit)} s";
            }

            return elapsed > StartUpAllowance + RegionLimit
                ? $"it outlived its start-up allowance of {Seconds(StartUpAllowance)} s and the trial timeout of {Seconds(RegionLimit)} s together"
                : null;
        }

        return elapsed > StartUpAllowance
            ? $"it had not begun its measured region after the start-up allowance of {Seconds(StartUpAllowance)} s"
            : null;
    }

    internal static string Seconds(TimeSpan span) => span.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture);
}
