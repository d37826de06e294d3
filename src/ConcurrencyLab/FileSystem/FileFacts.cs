using System.Runtime.InteropServices;

namespace ConcurrencyLab.FileSystem;

/// <summary>What kind of thing a path names, once links are followed.</summary>
internal enum FileKind
{
    /// <summary>Nothing is there.</summary>
    Missing,

    /// <summary>A regular file.</summary>
    Regular,

    /// <summary>A folder.</summary>
    Directory,

    /// <summary>A character or block device, such as <c>/dev/null</c> or a terminal.</summary>
    Device,

    /// <summary>A FIFO or pipe.</summary>
    Pipe,

    /// <summary>A socket.</summary>
    Socket,

    /// <summary>Something exists there, but this system does not say what (no <c>statx</c>).</summary>
    Unknown,
}

/// <summary>
/// What a path names (its kind, size and identity), links followed, as <c>statx(2)</c> tells it: .NET's own file
/// classes cannot tell a FIFO or a device from an empty file, and a results file read from <c>/dev/zero</c>, or
/// a report renamed over <c>/dev/null</c>, are what that costs. The <c>statx</c> record is laid out the same on
/// every Linux architecture; elsewhere the facts come from .NET's classes, with the kind of an empty file unknown.
/// </summary>
/// <param name="Kind">What the path names.</param>
/// <param name="Size">Its size in bytes (0 for devices and pipes).</param>
/// <param name="Device">The device the file is on, with <paramref name="Inode"/> its identity; 0 where unknown.</param>
/// <param name="Inode">The file's inode; 0 where unknown.</param>
internal readonly record struct FileFacts(FileKind Kind, long Size, ulong Device, ulong Inode)
{
    private const int AtCurrentDirectory = -100;
    private const uint StatxBasicStats = 0x7ff;
    private static bool _noStatx;

    /// <summary>Whether <paramref name="other"/> is the same file (same device and inode), when both are known.</summary>
    public bool IsSameFileAs(FileFacts other) => Inode != 0 && Inode == other.Inode && Device == other.Device;

    /// <summary>The facts of <paramref name="path"/>, links followed.</summary>
    public static FileFacts Of(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (OperatingSystem.IsLinux() && !_noStatx)
        {
            try
            {
                return FromStatx(path);
            }
            catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
            {
                // A C library without statx (glibc before 2.28, or musl before 1.2.5): fall back for good.
                _noStatx = true;
            }
        }

        if (Directory.Exists(path))
        {
            return new FileFacts(FileKind.Directory, 0, 0, 0);
        }

        var file = new FileInfo(path);
        if (file.LinkTarget is not null && file.ResolveLinkTarget(returnFinalTarget: true) is FileInfo target)
        {
            file = target;
        }

        return !file.Exists ? new FileFacts(FileKind.Missing, 0, 0, 0)
            : file.Length > 0 ? new FileFacts(FileKind.Regular, file.Length, 0, 0)
            : new FileFacts(FileKind.Unknown, 0, 0, 0);
    }

    private static FileFacts FromStatx(string path)
    {
        // struct statx: stx_mode (u16) at 28, stx_ino (u64) at 32, stx_size (u64) at 40, stx_dev_major and
        // stx_dev_minor (u32) at 136 and 140; 256 bytes in all.
        Span<byte> buffer = stackalloc byte[256];
        if (Statx(AtCurrentDirectory, path, 0, StatxBasicStats, ref MemoryMarshal.GetReference(buffer)) != 0)
        {
            return new FileFacts(FileKind.Missing, 0, 0, 0);
        }

        var kind = KindOf(BitConverter.ToUInt16(buffer[28..]));
        var device = ((ulong)BitConverter.ToUInt32(buffer[136..]) << 32) | BitConverter.ToUInt32(buffer[140..]);
        return new FileFacts(kind, (long)BitConverter.ToUInt64(buffer[40..]), device, BitConverter.ToUInt64(buffer[32..]));
    }

    /// <summary>
    /// What <paramref name="path"/> itself is, a link not followed: its kind (<see cref="EntryFacts.Link"/> for a symbolic
    /// link), owner and permission bits, and identity. Null where this system cannot say (not Linux, or no statx): a
    /// caller that must prove what it deletes then deletes nothing.
    /// </summary>
    public static EntryFacts? Entry(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (!OperatingSystem.IsLinux() || _noStatx)
        {
            return null;
        }

        // struct statx: stx_uid (u32) at 20, stx_mode (u16) at 28, stx_ino at 32, the device at 136 and 140.
        Span<byte> buffer = stackalloc byte[256];
        try
        {
            if (Statx(AtCurrentDirectory, path, AtSymlinkNoFollow, StatxBasicStats, ref MemoryMarshal.GetReference(buffer)) != 0)
            {
                return new EntryFacts(FileKind.Missing, false, 0, 0, 0, 0);
            }
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            _noStatx = true;
            return null;
        }

        var mode = BitConverter.ToUInt16(buffer[28..]);
        var link = (mode & 0xF000) == 0xA000;
        var kind = KindOf(mode);
        var device = ((ulong)BitConverter.ToUInt32(buffer[136..]) << 32) | BitConverter.ToUInt32(buffer[140..]);
        return new EntryFacts(kind, link, BitConverter.ToUInt32(buffer[20..]), mode & 0xFFF, device, BitConverter.ToUInt64(buffer[32..]));
    }

    /// <summary>The user this process acts as (its effective uid); null where this system has none.</summary>
    public static uint? CurrentUser
        => OperatingSystem.IsLinux() || OperatingSystem.IsMacOS() || OperatingSystem.IsFreeBSD() ? GetEffectiveUser() : null;

    private const int AtSymlinkNoFollow = 0x100;

    // The file type bits of a statx mode.
    private static FileKind KindOf(ushort mode) => (mode & 0xF000) switch
    {
        0x8000 => FileKind.Regular,
        0x4000 => FileKind.Directory,
        0x2000 or 0x6000 => FileKind.Device,
        0x1000 => FileKind.Pipe,
        0xC000 => FileKind.Socket,
        _ => FileKind.Unknown,
    };

#pragma warning disable CA5392 // libc is the system's own C library, found by the loader, not a file of ours.
    [DllImport("libc", EntryPoint = "geteuid")]
    private static extern uint GetEffectiveUser();

    [DllImport("libc", EntryPoint = "statx", SetLastError = true)]
#pragma warning restore CA5392
    private static extern int Statx(int directory, [MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags, uint mask, ref byte buffer);
}

/// <summary>What a path itself is, a link not followed (<see cref="FileFacts.Entry"/>).</summary>
/// <param name="Kind">What it names, when it is not a link.</param>
/// <param name="Link">Whether it is a symbolic link (then <paramref name="Kind"/> says nothing).</param>
/// <param name="Owner">The uid that owns it.</param>
/// <param name="Permissions">Its permission bits (0o777 and the set-id and sticky bits).</param>
/// <param name="Device">The device it is on.</param>
/// <param name="Inode">Its inode: with <paramref name="Device"/>, its identity.</param>
internal readonly record struct EntryFacts(FileKind Kind, bool Link, uint Owner, int Permissions, ulong Device, ulong Inode)
{
    /// <summary>Whether it is a real (not linked) entry of kind <paramref name="kind"/> that <paramref name="user"/>
    /// owns and nobody else may write to.</summary>
    public bool IsPrivate(FileKind kind, uint user) => !Link && Kind == kind && Owner == user && (Permissions & 0b000_010_010) == 0;

    /// <summary>Its identity as the journal writes it down: device and inode.</summary>
    public string Identity => $"{Device}:{Inode}";
}
