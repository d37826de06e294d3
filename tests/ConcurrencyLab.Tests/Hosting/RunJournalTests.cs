using System.Diagnostics;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Tests.Hosting;

public sealed class RunJournalTests : IDisposable
{
    private readonly string _temp = Directory.CreateTempSubdirectory("conclab-journal-test-").FullName;

    public void Dispose() => Directory.Delete(_temp, recursive: true);

    [Fact]
    public void ARunThatEnds_RemovesItsJournal_AndTheFilesItClaimedAreItsToDelete()
    {
        var set = Directory.CreateDirectory(Path.Combine(_temp, "set")).FullName;
        using (var journal = RunJournal.Begin(_temp))
        {
            Assert.Same(journal, RunJournal.Current);
            using var claim = journal.Claim("a set", set, removeFolder: true);
            Assert.Single(Directory.EnumerateDirectories(_temp, "conclab-run-*"));
        }

        Assert.Null(RunJournal.Current);
        Assert.Empty(Directory.EnumerateDirectories(_temp, "conclab-run-*"));

        // The claim was let go by its owner, who deals with the files; a run that ends normally deletes none.
        Assert.True(Directory.Exists(set));
    }

    [Fact]
    public async Task TheJournalOfADeadRun_IsCleanedUp_NamingWhatWasRemoved()
    {
        var set = Path.Combine(_temp, "conclab-files-1");
        Directory.CreateDirectory(set);
        await File.WriteAllBytesAsync(Path.Combine(set, "a.bin"), new byte[1024 * 1024]);
        await File.WriteAllBytesAsync(Path.Combine(set, "b.bin"), new byte[512 * 1024]);
        var dead = await DeadProcessIdAsync();
        var journalFolder = JournalOf(dead, journal => Made(journal.Claim("the test's set", set, removeFolder: true), folder: true, "a.bin", "b.bin", "never-written.bin"));
        await File.WriteAllTextAsync(Path.Combine(journalFolder, $"process-{dead}"), string.Empty);
        foreach (var leftover in new[] { $"conclab-trial-{dead}-x.json", $"conclab-trial-{dead}-y.json.partial" })
        {
            await File.WriteAllTextAsync(Path.Combine(_temp, leftover), string.Empty);
        }

        using var socket = Bound(Path.Combine(_temp, $"dotnet-diagnostic-{dead}-123-socket"));

        var said = RunJournal.RemoveLeftovers(_temp);

        var line = Assert.Single(said);
        Assert.Equal(
            $"removed what an earlier run (process {dead}) left when it was killed: the test's set in {set} (2 files, 1.5 MiB, and the folder); 2 trials' result files; a .NET diagnostics socket of a killed process.",
            line);
        Assert.False(Directory.Exists(set));
        Assert.Empty(Directory.EnumerateFileSystemEntries(_temp));
    }

    [Fact]
    public async Task AClaim_DeletesOnlyTheFilesItNames_InItsOwnFolder_NeverThroughALink()
    {
        var set = Directory.CreateDirectory(Path.Combine(_temp, "conclab-files-2")).FullName;
        var outside = Directory.CreateDirectory(Path.Combine(_temp, "outside")).FullName;
        await File.WriteAllTextAsync(Path.Combine(outside, "precious.txt"), "keep me");
        await File.WriteAllTextAsync(Path.Combine(set, "mine.bin"), "x");
        await File.WriteAllTextAsync(Path.Combine(set, "not-claimed.txt"), "the user's");
        File.CreateSymbolicLink(Path.Combine(set, "link.bin"), Path.Combine(outside, "precious.txt"));
        var dead = await DeadProcessIdAsync();
        var journalFolder = JournalOf(dead, journal => Made(journal.Claim("a set", set, removeFolder: true), folder: true, "mine.bin", "link.bin"));

        // A name that climbs out, written into the claim by hand with the identity of the file it would reach.
        var made = Directory.EnumerateFiles(journalFolder, "claim-*.made").Single();
        await File.AppendAllTextAsync(made, $"../outside/precious.txt\t{Identity(Path.Combine(outside, "precious.txt"))}\n");

        RunJournal.RemoveLeftovers(_temp);

        Assert.False(File.Exists(Path.Combine(set, "mine.bin")));
        Assert.True(File.Exists(Path.Combine(set, "not-claimed.txt")));
        Assert.Equal("keep me", await File.ReadAllTextAsync(Path.Combine(outside, "precious.txt")));

        // Not empty, so the folder stays.
        Assert.True(Directory.Exists(set));
    }

    [Fact]
    public async Task AFileNamedAsBeingMade_WhenTheRunWasKilled_GoesWithTheFolderTheRunMade_ButNeverOutsideIt()
    {
        // Killed between making c.bin and writing down its identity: it was named as being made, before it was.
        var set = Directory.CreateDirectory(Path.Combine(_temp, "conclab-files-3")).FullName;
        await File.WriteAllTextAsync(Path.Combine(set, "a.bin"), "x");
        var dead = await DeadProcessIdAsync();
        JournalOf(dead, journal =>
        {
            var claim = Made(journal.Claim("a set", set, removeFolder: true), folder: true, "a.bin");
            claim.Making("c.bin");
            File.WriteAllText(Path.Combine(set, "c.bin"), "half");
            return claim;
        });

        var said = RunJournal.RemoveLeftovers(_temp);

        Assert.False(Directory.Exists(set));
        Assert.Contains(said, line => line.Contains("(2 files", StringComparison.Ordinal) && line.Contains("and the folder", StringComparison.Ordinal));

        // In a folder the run did not make (a --dir that was there), a name being made proves nothing: the file stays.
        var given = Directory.CreateDirectory(Path.Combine(_temp, "conclab-files-given-2")).FullName;
        await File.WriteAllTextAsync(Path.Combine(given, "users.bin"), "the user's");
        var dead2 = await DeadProcessIdAsync();
        JournalOf(dead2, journal =>
        {
            var claim = journal.Claim("a set", given, removeFolder: false);
            claim.Making("users.bin");
            return claim;
        });

        RunJournal.RemoveLeftovers(_temp);

        Assert.Equal("the user's", await File.ReadAllTextAsync(Path.Combine(given, "users.bin")));
    }

    [SkippableFact]
    public async Task FilesInAFolderTheRunDidNotMake_StayAfterItIsKilled_AndTheNoteSaysSo()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "statx");
        var given = Directory.CreateDirectory(Path.Combine(_temp, "conclab-files-given")).FullName;
        await File.WriteAllTextAsync(Path.Combine(given, "a.bin"), "x");
        var dead = await DeadProcessIdAsync();

        // A --dir that was there: the run wrote down each file it made in it, but not the folder.
        JournalOf(dead, journal => Made(journal.Claim("a set", given, removeFolder: false), folder: false, "a.bin"));

        var said = RunJournal.RemoveLeftovers(_temp);

        Assert.True(File.Exists(Path.Combine(given, "a.bin")));
        Assert.Contains(said, line => line.Contains($"what a claim names in {given}, a folder no run can be shown to have made", StringComparison.Ordinal));
    }

    [Fact]
    public async Task TheEventPortOfAKilledRunner_BesideItsJournal_IsRemovedByItsName()
    {
        // Bound and kept open, as a runner killed while it listened would leave it (disposing unlinks it).
        var dead = await DeadProcessIdAsync();
        using var listener = Bound(Path.Combine(_temp, $"conclab-events-{dead}-abc.sock"));
        Assert.Single(Directory.EnumerateFileSystemEntries(_temp, "*.sock"));
        JournalOf(dead, _ => null);

        RunJournal.RemoveLeftovers(_temp);

        Assert.Empty(Directory.EnumerateFileSystemEntries(_temp, "*.sock"));
    }

    [Fact]
    public async Task TheJournalOfALiveRun_OrOfADeadRunWhoseChildStillRuns_IsLeftAlone()
    {
        var set = Directory.CreateDirectory(Path.Combine(_temp, "set")).FullName;
        await File.WriteAllTextAsync(Path.Combine(set, "a.bin"), "x");

        // This process is alive: its own journal is never a leftover.
        using var live = RunJournal.Begin(_temp);
        using var claim = Made(live.Claim("a set", set, removeFolder: true), folder: false, "a.bin");

        // A dead run whose child (this process, here) still runs: the child may still read the files.
        var dead = await DeadProcessIdAsync();
        var orphaned = JournalOf(dead, journal => Made(journal.Claim("a set", set, removeFolder: true), folder: false, "a.bin"));
        await File.WriteAllTextAsync(Path.Combine(orphaned, $"process-{Environment.ProcessId}"), string.Empty);

        Assert.Empty(RunJournal.RemoveLeftovers(_temp));
        Assert.True(File.Exists(Path.Combine(set, "a.bin")));
        Assert.True(Directory.Exists(orphaned));
    }

    [SkippableFact]
    public async Task AProcessIdGivenToAnotherProcess_DoesNotPassForTheRun()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "start times from /proc");
        var set = Directory.CreateDirectory(Path.Combine(_temp, "conclab-files-3")).FullName;
        await File.WriteAllTextAsync(Path.Combine(set, "a.bin"), "x");

        // The id of a live process (this one's parent) but another start time: the run that wrote the journal
        // died, and the system gave its id again.
        var journal = JournalOf(ParentId(), j => Made(j.Claim("a set", set, removeFolder: true), folder: true, "a.bin"));
        await File.WriteAllTextAsync(Path.Combine(journal, "owner"), "1");

        Assert.Contains(RunJournal.RemoveLeftovers(_temp), line => line.StartsWith("removed what an earlier run", StringComparison.Ordinal));
        Assert.False(File.Exists(Path.Combine(set, "a.bin")));
    }

    [SkippableFact]
    public async Task ADiagnosticsSocket_IsRemovedByItsExactName_WhenTheStartTimeIsKnown()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "the socket's key is the /proc start time on Linux only");
        var dead = await DeadProcessIdAsync();
        using var socket555 = Bound(Path.Combine(_temp, $"dotnet-diagnostic-{dead}-555-socket"));
        using var socket777 = Bound(Path.Combine(_temp, $"dotnet-diagnostic-{dead}-777-socket"));

        Assert.True(ProcessIdentity.RemoveDiagnosticsSocket(dead, "555", _temp));

        Assert.Equal([$"dotnet-diagnostic-{dead}-777-socket"], Directory.EnumerateFiles(_temp).Select(Path.GetFileName));

        // A regular file of that name is not the runtime's socket, and stays.
        await File.WriteAllTextAsync(Path.Combine(_temp, $"dotnet-diagnostic-{dead}-999-socket"), "a user's");
        Assert.False(ProcessIdentity.RemoveDiagnosticsSocket(dead, "999", _temp));
        Assert.True(File.Exists(Path.Combine(_temp, $"dotnet-diagnostic-{dead}-999-socket")));
        Assert.NotNull(ProcessIdentity.StartTimeOf(Environment.ProcessId));
        Assert.Null(ProcessIdentity.StartTimeOf(dead));
    }

    /// <summary>Makes a journal as a run of this process would, then gives it the id of <paramref name="owner"/>.</summary>
    private string JournalOf(int owner, Func<RunJournal, IDisposable?> claim)
    {
        using var journal = RunJournal.Begin(_temp);
        _ = claim(journal);

        // Copied before the journal ends and removes itself: the copy is the journal of a run that never ended.
        var copy = Path.Combine(_temp, $"conclab-run-{owner}-{Guid.NewGuid():N}");
        PrivateFiles.CreateFolder(copy);
        foreach (var file in Directory.EnumerateFiles(journal.Folder))
        {
            File.Copy(file, Path.Combine(copy, Path.GetFileName(file)));
        }

        return copy;
    }

    // The claim, with the folder and each file named written down as made (those that exist).
    internal static RunJournal.JournalClaim Made(RunJournal.JournalClaim claim, bool folder, params string[] files)
    {
        if (folder)
        {
            claim.FolderMade();
        }

        foreach (var file in files)
        {
            claim.Made(file);
        }

        return claim;
    }

    internal static string Identity(string path) => FileFacts.Entry(path)!.Value.Identity;

    internal static System.Net.Sockets.Socket Bound(string path)
    {
        var socket = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.Unix, System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Unspecified);
        socket.Bind(new System.Net.Sockets.UnixDomainSocketEndPoint(path));
        return socket;
    }

    internal static async Task<int> DeadProcessIdAsync()
    {
        using var process = Process.Start(new ProcessStartInfo("true") { UseShellExecute = false })!;
        await process.WaitForExitAsync();
        return process.Id;
    }

    private static int ParentId()
    {
        var stat = File.ReadAllText("/proc/self/stat");
        return int.Parse(stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], System.Globalization.CultureInfo.InvariantCulture);
    }
}
