using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace ConcurrencyLab.Experiments.Hash;

/// <summary>
/// Reading a file past the page cache, with O_DIRECT on Linux: each read goes from the device straight into
/// the caller's buffer, which must be aligned to the device's block (a page is enough), as must the offsets
/// and lengths. Nothing is copied and nothing is cached, so a direct read is cold whatever ran before it.
/// </summary>
internal static partial class DirectIo
{
    /// <summary>The alignment used for buffers, offsets and lengths: a page, which covers every common block size.</summary>
    public static int Alignment { get; } = Environment.SystemPageSize;

    private const int ReadOnly = 0;
    private const int CloseOnExec = 0x80000;

    /// <summary>Whether direct reads can be asked for on this system.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux() && DirectFlag() is not null;

    /// <summary>
    /// Opens <paramref name="path"/> for direct reads. Throws <see cref="IOException"/> saying why when the
    /// system or the file system refuses (tmpfs, for one, does not do direct I/O).
    /// </summary>
    public static SafeFileHandle OpenRead(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (!OperatingSystem.IsLinux() || DirectFlag() is not { } direct)
        {
            throw new IOException($"direct reads (O_DIRECT) are not supported on " +
                $"{RuntimeInformation.OSDescription} {RuntimeInformation.ProcessArchitecture}");
        }

        var fd = Open(path, ReadOnly | direct | CloseOnExec);
        if (fd < 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            var why = errno == 22 ? ": its file system does not do direct I/O" : string.Empty;
            throw new IOException($"cannot open {path} for direct reads (errno {errno}){why}");
        }

        return new SafeFileHandle(fd, ownsHandle: true);
    }

    /// <summary>O_DIRECT's value, which differs between architectures; null where it is not known (only 64-bit x86 and Arm are).</summary>
    private static int? DirectFlag() => RuntimeInformation.ProcessArchitecture switch
    {
        Architecture.X64 => 0x4000,
        Architecture.Arm64 => 0x10000,
        _ => null,
    };

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);
}

/// <summary>A buffer of native memory aligned for direct reads; freed on dispose.</summary>
internal sealed unsafe class AlignedBuffer : IDisposable
{
    private void* _memory;

    public AlignedBuffer(int length, int alignment)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(length, 1);
        Length = length;
        _memory = NativeMemory.AlignedAlloc((nuint)length, (nuint)alignment);
    }

    public int Length { get; }

    /// <summary>The whole buffer.</summary>
    public Span<byte> Span
    {
        get
        {
            ObjectDisposedException.ThrowIf(_memory is null, this);
            return new Span<byte>(_memory, Length);
        }
    }

    public void Dispose()
    {
        if (_memory is not null)
        {
            NativeMemory.AlignedFree(_memory);
            _memory = null;
        }
    }
}
