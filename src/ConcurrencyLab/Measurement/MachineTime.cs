using System.Runtime.InteropServices;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// Where the whole machine's cores spent a span of time, summed over cores, in milliseconds: busy (user, nice, system,
/// interrupts), idle (waiting for I/O included), of that idle the time with I/O outstanding, and stolen (the hypervisor
/// ran something else while this machine had a core to run). Read from the first line of Linux's <c>/proc/stat</c>,
/// which counts in the kernel's user ticks (<see cref="ResolutionMs"/>, 10 ms here): a difference of two reads is
/// exact to about a tick in each state.
/// </summary>
internal readonly partial record struct MachineTime(double BusyMs, double IdleMs, double IoWaitMs, double StealMs)
{
    private const int UserTicksPerSecondName = 2; // sysconf's _SC_CLK_TCK on Linux

    /// <summary>One tick of <c>/proc/stat</c>, in milliseconds; 0 where the machine has none to read.</summary>
    public static double ResolutionMs { get; } = ReadResolution();

    /// <summary><c>/proc/stat</c>, opened to be read again and again; null where there is none to read.</summary>
    public static Microsoft.Win32.SafeHandles.SafeFileHandle? Open()
    {
        if (ResolutionMs <= 0)
        {
            return null;
        }

        try
        {
            return File.OpenHandle("/proc/stat", FileMode.Open, FileAccess.Read);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The machine's counters now, from <paramref name="stat"/> (<see cref="Open"/>), allocating nothing; null when unreadable.</summary>
    public static MachineTime? Read(Microsoft.Win32.SafeHandles.SafeFileHandle stat)
    {
        ArgumentNullException.ThrowIfNull(stat);
        try
        {
            // procfs regenerates the file on each read at offset 0; the aggregate line comes first.
            Span<byte> buffer = stackalloc byte[512];
            var length = RandomAccess.Read(stat, buffer, 0);
            return Parse(buffer[..length], ResolutionMs);
        }
        catch (IOException)
        {
            return null;
        }
    }

    /// <summary>
    /// Parses the aggregate line of <c>/proc/stat</c> ("cpu  user nice system idle iowait irq softirq steal ..."), each
    /// tick <paramref name="tickMs"/> long; null when the line is not there or has fewer than the eight states.
    /// </summary>
    internal static MachineTime? Parse(ReadOnlySpan<byte> stat, double tickMs)
    {
        var line = stat.IndexOf((byte)'\n') is >= 0 and var end ? stat[..end] : stat;
        if (!line.StartsWith("cpu "u8))
        {
            return null;
        }

        Span<long> ticks = stackalloc long[8];
        var field = 0;
        var rest = line[4..];
        while (field < ticks.Length)
        {
            rest = rest.TrimStart((byte)' ');
            var stop = rest.IndexOf((byte)' ');
            var token = stop < 0 ? rest : rest[..stop];
            if (token.IsEmpty || !System.Buffers.Text.Utf8Parser.TryParse(token, out long value, out var used) || used != token.Length)
            {
                return null;
            }

            ticks[field++] = value;
            rest = stop < 0 ? [] : rest[stop..];
        }

        // user, nice, system, idle, iowait, irq, softirq, steal. Guest time is inside user already.
        var busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6];
        return new MachineTime(busy * tickMs, (ticks[3] + ticks[4]) * tickMs, ticks[4] * tickMs, ticks[7] * tickMs);
    }

    /// <summary>What the machine's cores did between <paramref name="start"/> and this read.</summary>
    public MachineTime Since(MachineTime start) =>
        new(BusyMs - start.BusyMs, IdleMs - start.IdleMs, IoWaitMs - start.IoWaitMs, StealMs - start.StealMs);

    private static double ReadResolution()
    {
        if (!OperatingSystem.IsLinux() || !File.Exists("/proc/stat"))
        {
            return 0;
        }

        try
        {
            var ticksPerSecond = SysConf(UserTicksPerSecondName);
            return ticksPerSecond > 0 ? 1000.0 / ticksPerSecond : 0;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return 0;
        }
    }

    [LibraryImport("libc", EntryPoint = "sysconf")]
    private static partial nint SysConf(int name);
}
