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
    private const string MadeSuffix = ".made";
    private const string FolderItself = ".";

    /// <summary>How the name of a folder the lab makes for files a next run may remove begins (<c>conclab-files-GUID</c>).</summary>
    public const string MadeFolderPrefix = "conclab-";

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
        PrivateFiles.CreateFolder(folder);
        try
        {
            PrivateFiles.WriteAllText(Path.Combine(folder, OwnerName), ProcessIdentity.StartTimeOf(Environment.ProcessId) ?? string.Empty);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // A full temporary folder takes the folder but not its first file: no journal is left half made.
            Directory.Delete(folder, recursive: true);
            throw;
        }
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
            notes.Add($"the run could not write down what it makes in {Path.GetTempPath()} ({ex.Message}), so if it is killed, the next run " +
                $"cannot remove what it left.");
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
        if (string.IsNullOrEmpty(folder) || !Directory.Exists(folder)
            || (FileFacts.CurrentUser is { } user && FileFacts.Entry(folder) is { } entry && !entry.IsPrivate(FileKind.Directory, user)))
        {
            // Only a journal folder of this user's that nobody else may write to is joined.
            return;
        }

        try
        {
            // With its start time: the key of its diagnostics socket's name, and what tells it from a later process under its id.
            PrivateFiles.WriteAllText(
                Path.Combine(folder, ProcessPrefix + Environment.ProcessId.ToString(CultureInfo.InvariantCulture)),
                ProcessIdentity.StartTimeOf(Environment.ProcessId) ?? string.Empty);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }

    /// <summary>Adds the journal to a child process's environment, so it and its own children join it.</summary>
    public void Join(ProcessStartInfo info)
    {
        ArgumentNullException.ThrowIfNull(info);
        info.Environment[Variable] = Folder;
    }

    /// <summary>
    /// A path for a file of this run's own that nobody else may reach (a set-up file, an event port), inside the
    /// journal's folder: whatever becomes of the run, it goes with the journal.
    /// </summary>
    public string Place(string name) => Path.Combine(Folder, Path.GetFileName(name));

    /// <summary>
    /// Writes down, before the first of them is written, that a scenario is about to make files in
    /// <paramref name="folder"/> (and the folder itself, removed once empty, when <paramref name="removeFolder"/>);
    /// each file is then named to the claim as it is made (<see cref="JournalClaim.Made"/>) with its identity, and a
    /// next run removes only those it finds unchanged. Dispose the claim once they are removed, or are to stay.
    /// <paramref name="what"/> names them for the user, such as "the hash scenario's file set".
    /// </summary>
    public JournalClaim Claim(string what, string folder, bool removeFolder)
    {
        var key = Guid.NewGuid().ToString("N");
        var path = Path.Combine(Folder, ClaimPrefix + key + ".json");
        var full = Path.GetFullPath(folder);
        PrivateFiles.WriteAllText(path, JsonSerializer.Serialize(new FileClaim(what, full, removeFolder), LabJson.Compact));
        return new JournalClaim(path, Path.Combine(Folder, ClaimPrefix + key + MadeSuffix), full);
    }

    /// <summary>Removes what this run's children left (diagnostics sockets of those that were killed) and the journal.</summary>
    public void Dispose()
    {
        CurrentJournal.Value = _previous;
        Remove(Folder, Environment.ProcessId, [], [], ownerDead: false);
    }

    /// <summary>
    /// Removes what runs that are no longer alive left in <paramref name="temporaryFolder"/> (the system's when
    /// null), and says what, one line per run; a run still alive (another conclab at work) is left alone. Only a
    /// journal this user owns, in a folder nobody else may write to, is acted on, no link is followed, and a file is
    /// removed only when it is the one the run wrote down when it made it; what is refused is said in one line.
    /// </summary>
    public static IReadOnlyList<string> RemoveLeftovers(string? temporaryFolder = null)
    {
        var temp = temporaryFolder ?? Path.GetTempPath();
        var said = new List<string>();
        List<string> journals;
        try
        {
            journals = [.. Directory.EnumerateFileSystemEntries(temp, Prefix + "*")];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return said;
        }

        var refused = new List<string>();
        foreach (var folder in journals)
        {
            if (Refusal(folder, out var owner) is { } why)
            {
                refused.Add($"{Path.GetFileName(folder)} ({why})");
                continue;
            }

            if (owner == Environment.ProcessId
                || IsAlive(owner, RecordedStartTime(folder))
                || ChildrenOf(folder).Any(child => IsAlive(child.Id, child.StartTime)))
            {
                // Another conclab at work, or a child of a dead one that has not yet seen its parent go (it may
                // still read the files): the next run will look again.
                continue;
            }

            var removed = new List<string>();
            Remove(folder, owner, removed, refused, ownerDead: true);
            if (removed.Count > 0)
            {
                said.Add($"removed what an earlier run (process {owner}) left when it was killed: {string.Join("; ", removed)}.");
            }
        }

        if (refused.Count > 0)
        {
            said.Add($"left alone in {temp} what no earlier run of this user can be shown to have made: {string.Join("; ", refused)}.");
        }

        return said;
    }

    // Why a journal found in the temporary folder is not acted on; null when it is this user's own, closed to others,
    // and names a process a run could have been (with a start time that is a number, when it has one).
    private static string? Refusal(string folder, out int owner)
    {
        owner = 0;
        if (FileFacts.CurrentUser is not { } user || FileFacts.Entry(folder) is not { } entry)
        {
            return "this system cannot say who owns it";
        }

        if (entry.Link)
        {
            return "a link";
        }

        if (entry.Kind != FileKind.Directory)
        {
            return "not a folder";
        }

        if (entry.Owner != user)
        {
            return $"owned by uid {entry.Owner}, not this user";
        }

        if (!entry.IsPrivate(FileKind.Directory, user))
        {
            return "others may write to it";
        }

        var name = Path.GetFileName(folder).AsSpan(Prefix.Length);
        var dash = name.IndexOf('-');
        if (!int.TryParse(dash < 0 ? name : name[..dash], NumberStyles.None, CultureInfo.InvariantCulture, out owner) || owner <= 1)
        {
            return "it names no process a run could have been";
        }

        if (FileFacts.Entry(Path.Combine(folder, OwnerName)) is { Kind: not FileKind.Missing } ownerFile
            && !ownerFile.IsPrivate(FileKind.Regular, user))
        {
            return "its owner file is not this user's own";
        }

        return RecordedStartTime(folder) is { } start && !start.All(char.IsAsciiDigit)
            ? "its process's start time is not a number"
            : null;
    }

    private static void Remove(string folder, int owner, List<string> removed, List<string> refused, bool ownerDead)
    {
        var temp = Path.GetDirectoryName(folder)!;

        // A live run's claims are its own to settle: a fixture deletes its files, or keeps them when asked to.
        foreach (var claim in ownerDead ? SafeList(folder, ClaimPrefix + "*.json") : [])
        {
            if (ReadClaim(claim) is { } files && RemoveClaimed(files, Made(claim), refused) is { } description)
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
            var trials = DeleteOwnFiles(temp, $"conclab-trial-{owner}-*.json") + DeleteOwnFiles(temp, $"conclab-trial-{owner}-*.json.partial");
            if (trials > 0)
            {
                removed.Add(trials == 1 ? "a trial's result file" : $"{trials} trials' result files");
            }

            // Files an older build kept beside the journal rather than in it: this user's own, by their exact names.
            var setUps = DeleteOwnFiles(temp, $"conclab-setup-{owner}-*.json") + DeleteOwnFiles(temp, $"conclab-events-{owner}-*.sock")
                + DeleteOwnFiles(temp, $"conclab-events-{owner}-*.nettrace");
            if (setUps > 0)
            {
                removed.Add(setUps == 1 ? "a set-up file or event port" : $"{setUps} set-up files and event ports");
            }
        }

        if (sockets > 0)
        {
            removed.Add(sockets == 1 ? "a .NET diagnostics socket of a killed process" : $"{sockets} .NET diagnostics sockets of killed processes");
        }

        try
        {
            // Unlinks what it holds without following a link out of it.
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }

    // A child's entry counts only as this user's own file naming a real process, with a start time that is a number.
    private static IEnumerable<(int Id, string? StartTime)> ChildrenOf(string folder) =>
        SafeList(folder, ProcessPrefix + "*")
            .Select(
                path => (Id: int.TryParse(Path.GetFileName(path).AsSpan(ProcessPrefix.Length), NumberStyles.None, CultureInfo.InvariantCulture,
                    out var id) ? id : 0, StartTime: ReadSmall(path)))
            .Where(child => child.Id > 1 && (child.StartTime is null || child.StartTime.All(char.IsAsciiDigit)));

    // Removes what a dead run's claim names and can be shown to be its own: each file as the run wrote it down when it
    // made it (same device and inode, this user's, no link), and the folder only when the run made it and it is empty.
    private static string? RemoveClaimed(FileClaim claim, Dictionary<string, string> made, List<string> refused)
    {
        if (FileFacts.CurrentUser is not { } user)
        {
            return null;
        }

        if (string.IsNullOrEmpty(claim.Folder) || !Path.IsPathFullyQualified(claim.Folder) || Path.GetFullPath(claim.Folder) != claim.Folder)
        {
            refused.Add($"a claim on '{Escaped(claim.Folder)}', not a full path of its own");
            return null;
        }

        // The proof is the folder: made by the run under a name of the lab's with a random part, written down with its
        // identity as it was made, and still that folder. Only then are its files, each still the very file the run
        // wrote down, the run's own; a folder the run did not make (a --dir that was there) is left with its files.
        var folderProven = made.TryGetValue(FolderItself, out var folderIdentity)
            && Path.GetFileName(claim.Folder).StartsWith(MadeFolderPrefix, StringComparison.Ordinal)
            && FileFacts.Entry(claim.Folder) is { Link: false, Kind: FileKind.Directory } folder && folder.Owner == user
                && folder.Identity == folderIdentity;
        if (!folderProven)
        {
            if (made.Count > 0 || claim.RemoveFolder)
            {
                refused.Add($"what a claim names in {Escaped(claim.Folder)}, a folder no run can be shown to have made");
            }

            return null;
        }

        long bytes = 0;
        var count = 0;
        var unproven = 0;
        foreach (var (file, identity) in made)
        {
            if (file == FolderItself)
            {
                continue;
            }

            // Only plain names inside the folder: a claim is never a way to reach elsewhere.
            var path = Path.Combine(claim.Folder, file);
            var entry = file == Path.GetFileName(file) && file is not ("." or "..") ? FileFacts.Entry(path) : null;

            // A file named as about to be made, in the folder the run is proven to have made: the run's own, made as it
            // was killed, before its identity could be written down.
            var making = identity == MakingMark && entry is { Link: false, Kind: FileKind.Regular } pending && pending.Owner == user;
            if (!making && (entry is not { Link: false, Kind: FileKind.Regular or FileKind.Socket } known || known.Owner != user
                || known.Identity != identity))
            {
                unproven += entry is { Kind: FileKind.Missing } ? 0 : 1;
                continue;
            }

            var size = entry is { Kind: FileKind.Regular } ? FileFacts.Of(path).Size : 0;
            if (QuietFile.TryDelete(path))
            {
                bytes += size;
                count++;
            }
        }

        var folderGone = false;
        if (claim.RemoveFolder)
        {
            try
            {
                if (!Directory.EnumerateFileSystemEntries(claim.Folder).Any())
                {
                    Directory.Delete(claim.Folder);
                    folderGone = true;
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
            }
        }

        if (unproven > 0)
        {
            refused.Add($"{unproven} file{(unproven == 1 ? string.Empty : "s")} claimed in {Escaped(claim.Folder)} that are not as the run " +
                $"made them");
        }

        if (count == 0 && !folderGone)
        {
            return null;
        }

        var mib = (bytes / (1024.0 * 1024)).ToString("0.#", CultureInfo.InvariantCulture);
        return $"{Escaped(claim.What)} in {Escaped(claim.Folder)} ({count} file{(count == 1 ? string.Empty : "s")}, " +
            $"{mib} MiB{(folderGone ? ", and the folder" : string.Empty)})";
    }

    // A name from a file on disk, fit for one line of notes: no control characters.
    private static string Escaped(string? text) => ForeignText.Line(text, 300);

    // name -> identity, as the run wrote each down when it made it; read only from this user's own file.
    private static Dictionary<string, string> Made(string claimPath)
    {
        var made = new Dictionary<string, string>(StringComparer.Ordinal);
        var path = Path.ChangeExtension(claimPath, null) + MadeSuffix;
        if (!IsOwnFile(path) || FileFacts.Of(path).Size > 16 * 1024 * 1024)
        {
            return made;
        }

        try
        {
            foreach (var line in File.ReadLines(path))
            {
                var tab = line.IndexOf('\t', StringComparison.Ordinal);
                if (tab > 0)
                {
                    made[line[..tab]] = line[(tab + 1)..];
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }

        return made;
    }

    private static FileClaim? ReadClaim(string path)
    {
        try
        {
            return IsOwnFile(path) && FileFacts.Of(path) is { Kind: FileKind.Regular, Size: < 64 * 1024 }
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
            return IsOwnFile(path) && FileFacts.Of(path) is { Kind: FileKind.Regular, Size: < 64 }
                ? File.ReadAllText(path).Trim() is { Length: > 0 } text ? text : null
                : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    // This user's own regular file that nobody else may write to, not a link to one elsewhere.
    private static bool IsOwnFile(string path) =>
        FileFacts.CurrentUser is { } user && FileFacts.Entry(path) is { } entry && entry.IsPrivate(FileKind.Regular, user);

    /// <summary>Whether <paramref name="processId"/> runs, and (when <paramref name="startTime"/> is known) is the same process as then.</summary>
    private static bool IsAlive(int processId, string? startTime) =>
        ProcessIdentity.StartTimeOf(processId) is { } now && (string.IsNullOrEmpty(startTime) || now == startTime);

    // Regular files of this user's that match: never a link, never another user's file of that name.
    private static int DeleteOwnFiles(string folder, string pattern)
    {
        var count = 0;
        foreach (var path in SafeList(folder, pattern))
        {
            if (FileFacts.CurrentUser is { } user && FileFacts.Entry(path) is { Link: false, Kind: FileKind.Regular or FileKind.Socket } entry
                && entry.Owner == user
                && QuietFile.TryDelete(path))
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

    private sealed record FileClaim(string What, string Folder, bool RemoveFolder);

    // What a file about to be made is written down with, until its identity replaces it.
    private const string MakingMark = "making";

    /// <summary>A claim on files a scenario is making (<see cref="Claim"/>): each is named to it once made.</summary>
    internal sealed class JournalClaim(string path, string madePath, string folder) : IDisposable
    {
        /// <summary>Writes down the claim's folder, just made by this run, so a next run may remove it once empty.</summary>
        public void FolderMade() => Record(FolderItself, folder);

        /// <summary>Writes down <paramref name="name"/>, a file just made in the claim's folder, with its identity.</summary>
        public void Made(string name) => Record(Path.GetFileName(name), Path.Combine(folder, Path.GetFileName(name)));

        /// <summary>
        /// Writes down <paramref name="name"/> as about to be made in the claim's folder, before it is: a run killed
        /// between making a file and naming it (<see cref="Made"/>) would otherwise leave that file, and with it the folder.
        /// A next run removes such a file only in a folder proven the run's own.
        /// </summary>
        public void Making(string name)
        {
            try
            {
                PrivateFiles.AppendLine(madePath, Path.GetFileName(name) + "\t" + MakingMark);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Not written down: a next run leaves the file, which is the safe way to fail.
            }
        }

        /// <summary>Forgets the claim: its files were removed, or are to stay.</summary>
        public void Dispose()
        {
            QuietFile.TryDelete(path);
            QuietFile.TryDelete(madePath);
        }

        private void Record(string name, string target)
        {
            if (FileFacts.Entry(target) is { Link: false, Kind: not FileKind.Missing } entry)
            {
                try
                {
                    PrivateFiles.AppendLine(madePath, name + "\t" + entry.Identity);
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
                {
                    // Not written down: a next run leaves the file, which is the safe way to fail.
                }
            }
        }
    }
}
