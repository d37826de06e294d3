using System.Diagnostics;
using System.Runtime.InteropServices;
using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Hosting;

/// <summary>
/// Journals planted in the temporary folder, as another user or a careless script might leave them: the lab acts only
/// on its own, follows no link, deletes only files it wrote down when it made them, and says in one line what it left.
/// </summary>
[Collection("umask")]
public sealed class HostileJournalTests : IDisposable
{
    private readonly string _temp = Directory.CreateTempSubdirectory("ch-").FullName;

    public void Dispose()
    {
        _ = Process.Start(new ProcessStartInfo("chown", ["-R", "0", _temp]) { UseShellExecute = false })?.WaitForExit(5000);
        Directory.Delete(_temp, recursive: true);
    }

    [SkippableFact]
    public async Task AClaimOfAnOlderShape_NamingAFolderElsewhere_RemovesNothing_NotEvenTheEmptyFolder()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "statx");
        var outside = Directory.CreateDirectory(Path.Combine(_temp, "home")).FullName;
        var empty = Directory.CreateDirectory(Path.Combine(_temp, "empty")).FullName;
        await File.WriteAllTextAsync(Path.Combine(outside, "thesis.tex"), "years of work");
        var journal = await PlantAsync(await RunJournalTests.DeadProcessIdAsync(), "1");
        await File.WriteAllTextAsync(Path.Combine(journal, "claim-a.json"), $$"""{"what":"x","folder":"{{outside}}","files":["thesis.tex","../home/thesis.tex"],"removeFolder":true}""");
        await File.WriteAllTextAsync(Path.Combine(journal, "claim-b.json"), $$"""{"what":"x","folder":"{{empty}}","files":[],"removeFolder":true}""");
        Private(Path.Combine(journal, "claim-a.json"), Path.Combine(journal, "claim-b.json"));

        RunJournal.RemoveLeftovers(_temp);

        Assert.Equal("years of work", await File.ReadAllTextAsync(Path.Combine(outside, "thesis.tex")));
        Assert.True(Directory.Exists(empty));
    }

    [SkippableFact]
    public async Task AJournalPlantedByAnotherUser_InASharedStickyFolder_IsLeftAlone_AndSaidSo()
    {
        Skip.IfNot(OperatingSystem.IsLinux() && FileFacts.CurrentUser == 0, "needs root, to plant a journal as uid 65534");
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(_temp, (UnixFileMode)Convert.ToInt32("1777", 8));
        }

        var victim = Path.Combine(_temp, "root-owned.conf");
        await File.WriteAllTextAsync(victim, "root's");
        var journal = await PlantAsync(await RunJournalTests.DeadProcessIdAsync(), "1");
        await File.WriteAllTextAsync(Path.Combine(journal, "claim-a.json"), $$"""{"what":"x","folder":"{{_temp}}","removeFolder":false}""");
        await File.WriteAllTextAsync(Path.Combine(journal, "claim-a.made"), $"root-owned.conf\t{FileFacts.Entry(victim)!.Value.Identity}\n");
        Private(Path.Combine(journal, "claim-a.json"), Path.Combine(journal, "claim-a.made"));
        Assert.Equal(0, await RunAsync("chown", "-R", "65534", journal));

        var said = RunJournal.RemoveLeftovers(_temp);

        Assert.Equal("root's", await File.ReadAllTextAsync(victim));
        Assert.Contains(said, line => line.Contains($"{Path.GetFileName(journal)} (owned by uid 65534, not this user)", StringComparison.Ordinal));
        Assert.True(Directory.Exists(journal));
    }

    [SkippableFact]
    public async Task AClaimThatIsALink_ToAClaimElsewhere_IsNotFollowed()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "statx");
        var victim = Path.Combine(Directory.CreateDirectory(Path.Combine(_temp, "data")).FullName, "keep.bin");
        await File.WriteAllTextAsync(victim, "keep");
        var elsewhere = Directory.CreateDirectory(Path.Combine(_temp, "elsewhere")).FullName;
        await File.WriteAllTextAsync(Path.Combine(elsewhere, "claim-x.json"), $$"""{"what":"x","folder":"{{Path.GetDirectoryName(victim)}}","removeFolder":true}""");
        await File.WriteAllTextAsync(Path.Combine(elsewhere, "claim-x.made"), $"keep.bin\t{FileFacts.Entry(victim)!.Value.Identity}\n");
        Private(Path.Combine(elsewhere, "claim-x.json"), Path.Combine(elsewhere, "claim-x.made"));
        var journal = await PlantAsync(await RunJournalTests.DeadProcessIdAsync(), "1");
        File.CreateSymbolicLink(Path.Combine(journal, "claim-x.json"), Path.Combine(elsewhere, "claim-x.json"));
        File.CreateSymbolicLink(Path.Combine(journal, "claim-x.made"), Path.Combine(elsewhere, "claim-x.made"));

        RunJournal.RemoveLeftovers(_temp);

        Assert.Equal("keep", await File.ReadAllTextAsync(victim));
        Assert.True(File.Exists(Path.Combine(elsewhere, "claim-x.json")));
    }

    [SkippableFact]
    public async Task AJournalOfProcessZero_OrOfALiveProcessWithAStartTimeThatIsNoNumber_IsNotActedOn()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "statx and /proc");
        var parent = Environment.ProcessId;
        using var socket = RunJournalTests.Bound(Path.Combine(_temp, $"dotnet-diagnostic-{parent}-0-socket"));
        await File.WriteAllTextAsync(Path.Combine(_temp, $"dotnet-diagnostic-{parent}-1-socket"), "a user's file of that name");
        var zero = await PlantAsync(0, "1");
        var live = await PlantAsync(parent, "not-a-number", name: $"conclab-run-{parent}-{Guid.NewGuid():N}");
        await File.WriteAllTextAsync(Path.Combine(zero, "process-1"), "1");
        Private(Path.Combine(zero, "process-1"));

        var said = RunJournal.RemoveLeftovers(_temp);

        Assert.True(File.Exists(Path.Combine(_temp, $"dotnet-diagnostic-{parent}-0-socket")));
        Assert.True(File.Exists(Path.Combine(_temp, $"dotnet-diagnostic-{parent}-1-socket")));
        Assert.True(Directory.Exists(zero) && Directory.Exists(live));
        var line = Assert.Single(said);
        Assert.Contains($"{Path.GetFileName(zero)} (it names no process a run could have been)", line, StringComparison.Ordinal);
        Assert.Contains($"{Path.GetFileName(live)} (its process's start time is not a number)", line, StringComparison.Ordinal);
    }

    [SkippableFact]
    public async Task UnderUmask000_TheJournal_ItsFiles_SetUpFiles_AndTheEventPort_AreThisUsersAlone()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "umask");
        var old = SetUmask(0);
        try
        {
            using var journal = RunJournal.Begin(_temp);
            using var claim = journal.Claim("a set", _temp, removeFolder: false);
            File.WriteAllText(Path.Combine(_temp, "f.bin"), "x");
            claim.Made("f.bin");
            var setUp = journal.Place("conclab-setup-1-x.json");
            PrivateFiles.WriteAllText(setUp, "{}");
            await using var session = RuntimeEventSession.Listen(RuntimeEvents.Pool, out _);

            Assert.Equal(Convert.ToInt32("700", 8), FileFacts.Entry(journal.Folder)!.Value.Permissions);
            Assert.All(Directory.EnumerateFiles(journal.Folder).Where(f => !f.EndsWith(".sock", StringComparison.Ordinal)), f => Assert.Equal(Convert.ToInt32("600", 8), FileFacts.Entry(f)!.Value.Permissions));
            Assert.Equal(journal.Folder, Path.GetDirectoryName(setUp));

            // The port is a socket its own mode cannot close: it lies in the journal's folder, which no one else may enter.
            Assert.NotNull(session);
            Assert.Equal(journal.Folder, Path.GetDirectoryName(session.Port));
        }
        finally
        {
            _ = SetUmask(old);
        }
    }

    private async Task<string> PlantAsync(int owner, string startTime, string? name = null)
    {
        var folder = Path.Combine(_temp, name ?? $"conclab-run-{owner}-{Guid.NewGuid():N}");
        PrivateFiles.CreateFolder(folder);
        await File.WriteAllTextAsync(Path.Combine(folder, "owner"), startTime);
        Private(Path.Combine(folder, "owner"));
        return folder;
    }

    private static void Private(params string[] files)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        foreach (var file in files)
        {
            File.SetUnixFileMode(file, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        }
    }

    private static async Task<int> RunAsync(string program, params string[] arguments)
    {
        using var process = Process.Start(new ProcessStartInfo(program, arguments) { UseShellExecute = false })!;
        await process.WaitForExitAsync();
        return process.ExitCode;
    }

#pragma warning disable CA5392, SYSLIB1054 // libc is the system's own; a plain import keeps the tests free of unsafe code.
    [DllImport("libc", EntryPoint = "umask")]
    private static extern uint SetUmask(uint mask);
#pragma warning restore CA5392, SYSLIB1054
}

/// <summary>Tests that change the process's umask run one at a time, and with nothing else that minds it.</summary>
[CollectionDefinition("umask", DisableParallelization = true)]
public sealed class UmaskTests;
