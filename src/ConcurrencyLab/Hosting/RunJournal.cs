using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// What a run has put on disk that it must remove, written down as it goes, so that when the run is killed
/// with SIGKILL (no chance to clean up) the next run can remove it and say what it was. A run keeps its
/// journal in a folder of the temporary folder, <c>conclab-run-PID-GUID</c>, holding: <c>owner</c> (when the run's
/// process started, so a reused process id is not taken for the run), one <c>process-PID</c> per child
/// process (trials and services join through <see cref="Variable"/>; a child killed outright leaves the
/// runtime's diagnostics socket behind), and one <c>claim-*.json</c> per set of files a scenario is writing
/// (see <see cref="Claim"/>). A run that ends, even by an exception or Ctrl+C, removes its journal itself.
/// </summary>
internal sealed class RunJournal : IDisposable
{
    /// <summary>The environment variable that tells a child process which journal to join.</summary>
    public const string Variable = "CONCLAB_RUN_JOURNAL";

    private const string Prefix = "conclab-run-";
    private const string OwnerName = "owner";
    private const string ProcessPrefix = "process-";
    private const string ClaimPrefix = "claim-";

    private static readonly AsyncLocal<RunJournal?> CurrentJournal = new();

    private readonly RunJournal? _previous;

    private RunJournal(string folder, RunJournal? previous)
    {
        Folder = folder;
        _previous = previous;
    }

    /// <summary>The journal of the run under way in this flow of execution, if any.</summary>
    public static RunJournal? Current => CurrentJournal.Value;

    /// <summary>The journal's folder.</summary>
    public string Folder { get; }

    /// <summary>
    /// Opens a journal for a run of this process and makes it <see cref="Current"/> in this flow of execution
    /// (runs in parallel in one process each have their own); disposing it removes what its children left and
    /// the journal itself.
    /// </summary>
    public static RunJournal Begin(string? temporaryFolder = null)
    {
        var folder = Path.Combine(
            temporaryFolder ?? Path.GetTempPath(),
            $"{Prefix}{Environment.ProcessId.ToString(CultureInfo.InvariantCulture)}-{Guid.NewGuid():N}");
        Directory.CreateDirectory(folder);
        File.WriteAllText(Path.Combine(folder, OwnerName), ProcessIdentity.StartTimeOf(Environment.ProcessId) ?? string.Empty);
        var journal = new RunJournal(folder, Current);
        CurrentJournal.Value = journal;
        return journal;
    }

    /// <summary>
    /// <see cref="Begin"/>, or null where the temporary folder cannot be written: the run goes on without one, and
    /// <paramref name="notes"/> gets a line saying what that costs.
    /// </summary>
    public static RunJournal? TryBegin(List<string> notes)
    {
        ArgumentNullException.ThrowIfNull(notes);
        try
        {
            return Begin();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            notes.Add($"the run could not write down what it makes in {Path.GetTempPath()} ({ex.Message}), so if it is killed, the next run cannot remove what it left.");
            return null;
        }
    }

    /// <summary>
    /// Called first thing in a child process of the lab: writes its id into the journal named by
    /// <see cref="Variable"/>, when there is one. Never fails the child: a journal that cannot be written
    /// only means its leftovers may stay.
    /// </summary>
    public static void Join()
    {
        var folder = Environment.GetEnvironmentVariable(Variable);
        if (string.IsNullOrEmpty(folder) || !Directory.Exists(folder))
        {
            return;
        }

        try
        {
            // With its start time: the key of its diagnostics socket's name, and what tells it from a later process under its id.
            File.WriteAllText(
                Path.Combine(folder, ProcessPrefix + Environment.ProcessId.ToString(CultureInfo.InvariantCulture)),
                ProcessIdentity.StartTimeOf(Environment.ProcessId) ?? string.Empty);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }

    /// <summary>Adds the journal to a child process's environment, so it and its own children join it.</summary>
    public void Hand(ProcessStartInfo info)
    {
        ArgumentNullException.ThrowIfNull(info);
        info.Environment[Variable] = Folder;
    }

    /// <summary>
    /// Writes down, before the first of them is written, the files a scenario is about to make and must
    /// remove (<paramref name="files"/> in <paramref name="folder"/>, and the folder itself once empty when
    /// <paramref name="removeFolder"/>); dispose the claim once they are removed, or are to stay.
    /// <paramref name="what"/> names them for the user, such as "the hash scenario's file set".
    /// </summary>
    public IDisposable Claim(string what, string folder, IReadOnlyList<string> files, bool removeFolder)
    {
        var path = Path.Combine(Folder, ClaimPrefix + Guid.NewGuid().ToString("N") + ".json");
        File.WriteAllText(path, JsonSerializer.Serialize(new FileClaim(what, folder, files, removeFolder), LabJson.Compact));
        return new ClaimRelease(path);
    }

    /// <summary>Removes what this run's children left (diagnostics sockets of those that were killed) and the journal.</summary>
    public void Dispose()
    {
        CurrentJournal.Value = _previous;
        Remove(Folder, Environment.ProcessId, [], ownerDead: false);
    }

    /// <summary>
    /// Removes what runs that are no longer alive left in <paramref name="temporaryFolder"/> (the system's when
    /// null), and says what, one line per run; a run still alive (another conclab at work) is left alone.
    /// </summary>
    public static IReadOnlyList<string> RemoveLeftovers(string? temporaryFolder = null)
    {
        var temp = temporaryFolder ?? Path.GetTempPath();
        var said = new List<string>();
        IEnumerable<string> journals;
        try
        {
            journals = Directory.EnumerateDirectories(temp, Prefix + "*").ToList();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return said;
        }

        foreach (var folder in journals)
        {
            var name = Path.GetFileName(folder).AsSpan(Prefix.Length);
            var dash = name.IndexOf('-');
            if (!int.TryParse(dash < 0 ? name : name[..dash], NumberStyles.None, CultureInfo.InvariantCulture, out var owner)
                || owner == Environment.ProcessId
                || IsAlive(owner, RecordedStartTime(folder))
                || ChildrenOf(folder).Any(child => IsAlive(child.Id, child.StartTime)))
            {
                // Another conclab at work, or a child of a dead one that has not yet seen its parent go (it may
                // still read the files): the next run will look again.
                continue;
            }

            var removed = new List<string>();
            Remove(folder, owner, removed, ownerDead: true);
            if (removed.Count > 0)
            {
                said.Add($"removed what an earlier run (process {owner}) left when it was killed: {string.Join("; ", removed)}.");
            }
        }

        return said;
    }

    private static void Remove(string folder, int owner, List<string> removed, bool ownerDead)
    {
        var temp = Path.GetDirectoryName(folder)!;

        // A live run's claims are its own to settle: a fixture deletes its files, or keeps them when asked to.
        foreach (var claim in ownerDead ? SafeList(folder, ClaimPrefix + "*") : [])
        {
            if (ReadClaim(claim) is { } files && RemoveClaimed(files) is { } description)
            {
                removed.Add(description);
            }
        }

        // A child killed outright (at its timeout, or with its parent) leaves the socket the runtime listens on
        // for diagnostics tools; one still running keeps its own.
        var sockets = 0;
        foreach (var child in ChildrenOf(folder).Where(child => !IsAlive(child.Id, child.StartTime)))
        {
            sockets += ProcessIdentity.RemoveDiagnosticsSocket(child.Id, child.StartTime, temp) ? 1 : 0;
        }

        if (ownerDead)
        {
            sockets += ProcessIdentity.RemoveDiagnosticsSocket(owner, RecordedStartTime(folder), temp) ? 1 : 0;
            var trials = DeleteMatching(temp, $"conclab-trial-{owner}-*.json") + DeleteMatching(temp, $"conclab-trial-{owner}-*.json.partial");
            if (trials > 0)
            {
                removed.Add(trials == 1 ? "a trial's result file" : $"{trials} trials' result files");
            }
        }

        if (sockets > 0)
        {
            removed.Add(sockets == 1 ? "a .NET diagnostics socket of a killed process" : $"{sockets} .NET diagnostics sockets of killed processes");
        }

        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }

    private static IEnumerable<(int Id, string? StartTime)> ChildrenOf(string folder) =>
        SafeList(folder, ProcessPrefix + "*")
            .Select(path => (Id: int.TryParse(Path.GetFileName(path).AsSpan(ProcessPrefix.Length), NumberStyles.None, CultureInfo.InvariantCulture, out var id) ? id : 0, StartTime: ReadSmall(path)))
            .Where(child => child.Id > 0);

    private static string? RemoveClaimed(FileClaim claim)
    {
        if (string.IsNullOrEmpty(claim.Folder) || !Path.IsPathFullyQualified(claim.Folder))
        {
            return null;
        }

        long bytes = 0;
        var count = 0;
        foreach (var file in claim.Files ?? [])
        {
            // Only names inside the folder: a claim is never a way to reach elsewhere.
            var path = Path.Combine(claim.Folder, Path.GetFileName(file));
            var facts = FileFacts.Of(path);
            // A file or a socket (the runtime event port a killed runner listened on); never a link, a device or a folder.
            if (facts.Kind is not (FileKind.Regular or FileKind.Socket) || File.ResolveLinkTarget(path, returnFinalTarget: false) is not null)
            {
                continue;
            }

            if (QuietFile.TryDelete(path))
            {
                bytes += facts.Size;
                count++;
            }
        }

        var folderGone = false;
        if (claim.RemoveFolder)
        {
            try
            {
                if (Directory.Exists(claim.Folder) && !Directory.EnumerateFileSystemEntries(claim.Folder).Any())
                {
                    Directory.Delete(claim.Folder);
                    folderGone = true;
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
            }
        }

        if (count == 0 && !folderGone)
        {
            return null;
        }

        var size = (bytes / (1024.0 * 1024)).ToString("0.#", CultureInfo.InvariantCulture);
        return $"{claim.What} in {claim.Folder} ({count} file{(count == 1 ? string.Empty : "s")}, {size} MiB{(folderGone ? ", and the folder" : string.Empty)})";
    }

    private static FileClaim? ReadClaim(string path)
    {
        try
        {
            return FileFacts.Of(path) is { Kind: FileKind.Regular, Size: < 64 * 1024 * 1024 }
                ? JsonSerializer.Deserialize<FileClaim>(File.ReadAllText(path), LabJson.Options)
                : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException)
        {
            return null;
        }
    }

    // A journal without its owner's start time was cut short as it began: its id alone decides.
    private static string? RecordedStartTime(string folder) => ReadSmall(Path.Combine(folder, OwnerName));

    private static string? ReadSmall(string path)
    {
        try
        {
            return FileFacts.Of(path) is { Kind: FileKind.Regular, Size: < 64 } ? File.ReadAllText(path).Trim() is { Length: > 0 } text ? text : null : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Whether <paramref name="processId"/> runs, and (when <paramref name="startTime"/> is known) is the same process as then.</summary>
    private static bool IsAlive(int processId, string? startTime) =>
        ProcessIdentity.StartTimeOf(processId) is { } now && (string.IsNullOrEmpty(startTime) || now == startTime);

    private static int DeleteMatching(string folder, string pattern)
    {
        var count = 0;
        foreach (var path in SafeList(folder, pattern))
        {
            if (QuietFile.TryDelete(path))
            {
                count++;
            }
        }

        return count;
    }

    private static List<string> SafeList(string folder, string pattern = "*")
    {
        try
        {
            return [.. Directory.EnumerateFiles(folder, pattern)];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    private sealed record FileClaim(string What, string Folder, IReadOnlyList<string>? Files, bool RemoveFolder);

    private sealed class ClaimRelease(string path) : IDisposable
    {
        public void Dispose() => QuietFile.TryDelete(path);
    }
}
