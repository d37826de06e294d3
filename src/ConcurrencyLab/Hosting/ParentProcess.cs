using System.Runtime.InteropServices;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// Lets a child of the lab notice that the process which started it is gone, killed with SIGKILL, say, which
/// gave it no chance to stop its children. Linux could signal the child instead (PR_SET_PDEATHSIG), but it
/// signals when the starting thread ends, not the process, and the runner starts children from pool threads
/// that the pool retires when idle; so the child asks, now and then, who its parent is.
/// </summary>
internal static partial class ParentProcess
{
    /// <summary>Whether this system lets a process ask for its parent's id.</summary>
    public static bool CanWatch => OperatingSystem.IsLinux() || OperatingSystem.IsMacOS() || OperatingSystem.IsFreeBSD();

    /// <summary>The parent's process id now; an orphan's is its new parent's, such as init's.</summary>
    public static int Id => CanWatch ? GetParentId() : 0;

    /// <summary>Whether the parent that was <paramref name="originalId"/> is gone (the process has been handed to another).</summary>
    public static bool IsGone(int originalId) => CanWatch && GetParentId() != originalId;

    [LibraryImport("libc", EntryPoint = "getppid")]
    private static partial int GetParentId();
}
