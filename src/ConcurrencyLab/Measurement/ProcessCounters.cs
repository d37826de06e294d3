using System.Diagnostics;
using System.Runtime.CompilerServices;
using Microsoft.Win32.SafeHandles;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// Cheap reads of this process's OS thread count, resident memory and its peak. On Linux they come from
/// <c>/proc/self/stat</c> and <c>/proc/self/status</c>, read into a reused buffer so the sampler allocates
/// nothing while a trial runs (its allocations would be counted as the workload's).
/// <c>Process.Threads</c> is avoided: it builds an object per thread.
/// </summary>
internal sealed class ProcessCounters : IDisposable
{
    private readonly SafeFileHandle? _stat;
    private readonly SafeFileHandle? _machine;
    private readonly byte[] _buffer = new byte[4096];

    /// <summary>Opens the files read; the machine's <c>/proc/stat</c> only when <paramref name="machine"/> (the sampler has no use for it).</summary>
    public ProcessCounters(bool machine = false)
    {
        if (OperatingSystem.IsLinux())
        {
            _stat = File.OpenHandle("/proc/self/stat", FileMode.Open, FileAccess.Read);
        }

        _machine = machine ? MachineTime.Open() : null;
    }

    /// <summary>Where the whole machine's cores have spent their time so far (<see cref="MachineTime"/>); null where the OS does not say.</summary>
    public MachineTime? ReadMachine() => _machine is null ? null : MachineTime.Read(_machine);

    /// <summary>All OS threads of this process, not only the pool's; -1 where there is no cheap way to read it.</summary>
    /// <remarks>Only Linux is read today; elsewhere the count is -1 rather than a costly, allocating Process.Threads.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public int ReadThreadCount() => Read().Threads;

    /// <summary>
    /// The OS threads and the resident memory of this process from one read of <c>/proc/self/stat</c>; -1 for each where
    /// there is no cheap way to read it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public (int Threads, long ResidentBytes) Read()
    {
        if (_stat is null)
        {
            return (-1, -1);
        }

        // procfs regenerates the file on each read at offset 0. One pass for both fields: the sampler reads it every interval.
        var stat = _buffer.AsSpan(0, RandomAccess.Read(_stat, _buffer, 0));
        var (threads, pages) = ParseFields(stat, ThreadsField, ResidentPagesField);
        return ((int)threads, pages < 0 ? -1 : pages * Environment.SystemPageSize);
    }

    // Fields of a /proc/[pid]/stat line, numbered from 1 as proc(5) numbers them.
    private const int ThreadsField = 20;
    private const int ResidentPagesField = 24;

    /// <summary>Parses field 20 (num_threads) of a <c>/proc/[pid]/stat</c> line.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    internal static int ParseThreadCount(ReadOnlySpan<byte> stat) => (int)ParseField(stat, ThreadsField);

    /// <summary>Parses field 24 (rss, in pages) of a <c>/proc/[pid]/stat</c> line; -1 where it is not there.</summary>
    internal static long ParseResidentPages(ReadOnlySpan<byte> stat) => ParseField(stat, ResidentPagesField);

    // A numeric field (3 or later) of a /proc/[pid]/stat line; -1 where the line has no such field or it is not a number.
    internal static long ParseField(ReadOnlySpan<byte> stat, int wanted) => ParseFields(stat, wanted, wanted).First;

    // Two numeric fields (3 or later, first <= second) of a /proc/[pid]/stat line in one pass; -1 for each the line lacks.
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static (long First, long Second) ParseFields(ReadOnlySpan<byte> stat, int first, int second)
    {
        long firstValue = -1;
        // Field 2 (the command name) is in parentheses and may hold spaces, so count fields after the last ')'.
        var afterName = stat.LastIndexOf((byte)')');
        if (afterName < 0)
        {
            return (-1, -1);
        }

        var rest = stat[(afterName + 1)..];

        // rest begins " S ppid ...": field 3 is the state.
        var field = 2;
        var i = 0;
        while (i < rest.Length)
        {
            while (i < rest.Length && rest[i] == (byte)' ')
            {
                i++;
            }

            var start = i;
            while (i < rest.Length && rest[i] != (byte)' ' && rest[i] != (byte)'\n')
            {
                i++;
            }

            field++;
            if (field == first || field == second)
            {
                var value = Number(rest[start..i]);
                if (field == second)
                {
                    return (field == first ? value : firstValue, value);
                }

                firstValue = value;
            }
        }

        return (firstValue, -1);
    }

    // The digits of a field as a number; -1 where it is empty or not all digits.
    private static long Number(ReadOnlySpan<byte> digits)
    {
        long value = 0;
        foreach (var b in digits)
        {
            if (b is < (byte)'0' or > (byte)'9')
            {
                return -1;
            }

            value = (value * 10) + (b - (byte)'0');
        }

        return digits.IsEmpty ? -1 : value;
    }

    /// <summary>The kernel's high-water mark of resident memory (VmHWM), or the current working set elsewhere.</summary>
    public static long ReadPeakWorkingSetBytes()
    {
        if (OperatingSystem.IsLinux())
        {
            foreach (var line in File.ReadLines("/proc/self/status"))
            {
                if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
                {
                    var digits = line.AsSpan(6).Trim().TrimEnd("kB").Trim();
                    return long.Parse(digits, System.Globalization.CultureInfo.InvariantCulture) * 1024;
                }
            }
        }

        using var process = Process.GetCurrentProcess();
        return process.PeakWorkingSet64;
    }

    public void Dispose()
    {
        _stat?.Dispose();
        _machine?.Dispose();
    }
}
