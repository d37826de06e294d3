using System.Collections.Concurrent;
using System.Runtime.InteropServices;

namespace ConcurrencyLab.Measurement;

/// <summary>
/// The OS ids of the threads the lab itself runs in a trial's process (the sampler, the watchdog, the precise
/// timer): their waits are the lab's, not the variant's, so the runtime's account leaves their events out.
/// Each such thread enlists itself as it starts.
/// </summary>
internal static partial class LabThreads
{
    private static readonly ConcurrentDictionary<int, byte> Ids = new();

    /// <summary>Every thread enlisted in this process so far.</summary>
    public static IReadOnlyList<int> All => [.. Ids.Keys.Order()];

    /// <summary>Enlists the calling thread; does nothing where the OS id cannot be read.</summary>
    public static void EnlistCurrent()
    {
        if (CurrentOsId() is { } id)
        {
            Ids.TryAdd(id, 0);
        }
    }

    /// <summary>The calling thread's OS id as the runtime's events give it, or null where it cannot be read cheaply.</summary>
    public static int? CurrentOsId()
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        try
        {
            return GetTid();
        }
        catch (Exception ex) when (ex is EntryPointNotFoundException or DllNotFoundException)
        {
            return null;
        }
    }

    [LibraryImport("libc", EntryPoint = "gettid")]
    private static partial int GetTid();
}
