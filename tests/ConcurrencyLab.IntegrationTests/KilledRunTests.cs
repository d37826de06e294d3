namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// conclab killed with SIGKILL, as an out-of-memory killer or a CI job's hard timeout does: nothing of it may run
/// on, and what it left on disk is removed, and named, by the next run.
/// </summary>
public sealed class KilledRunTests
{
    [SkippableFact]
    public async Task KillingTheRunner_EndsTheTrialAndItsServices_AndTheNextRunRemovesWhatTheyLeft()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "SIGKILL and /proc as Linux has them");
        using var folder = new TempFolder();
        var environment = PrivateTemporaryFolder(folder);

        // Each request waits 30 s on the external service, so the trial and both services would live that long.
        using var run = RunningProgram.StartConclab(folder.Path, environment,
            "run", "fanout", "--requests", "15", "--time-scale", "1", "--delays", "30000,30000,30000", "--variants", "waitall@15",
            "--repeat", "1", "--warmup", "0", "--out", "out", "--plain");
        Assert.True(
            await RunningProgram.UntilAsync(() => RunningProgram.DescendantsOf(run.Id).Count >= 3, TimeSpan.FromSeconds(60)),
            $"the trial and its two services never started\n{run}");
        await Task.Delay(1500);
        var descendants = RunningProgram.DescendantsOf(run.Id);

        run.Signal(9);

        // Measured here at about 1.1 s (the trial's watchdog looks every 0.1 s; a service stops within 1 s of
        // its input closing); before, they lived until their work was done, 30 s here.
        Assert.True(
            await RunningProgram.UntilAsync(() => !descendants.Any(RunningProgram.IsAlive), TimeSpan.FromSeconds(5)),
            $"still running 5 s after the runner was killed: {string.Join(", ", descendants.Where(RunningProgram.IsAlive))}");

        var next = await NextRunAsync(folder, environment);

        Assert.Contains($"removed what an earlier run (process {run.Id}) left when it was killed", next.Error, StringComparison.Ordinal);
        var temporary = environment["TMPDIR"];
        Assert.Empty(Directory.EnumerateFileSystemEntries(temporary, "conclab-run-*"));
        Assert.Empty(Directory.EnumerateFileSystemEntries(temporary, "conclab-trial-*"));
        foreach (var id in descendants.Prepend(run.Id))
        {
            Assert.Empty(Directory.EnumerateFileSystemEntries(temporary, $"dotnet-diagnostic-{id}-*"));
        }
    }

    [SkippableFact]
    public async Task KillingTheRunner_WhileTheHashSetIsWritten_LeavesItForTheNextRun_WhichNamesAndRemovesIt()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "SIGKILL as Linux has it");
        using var folder = new TempFolder();
        var environment = PrivateTemporaryFolder(folder);

        // With no --dir the set goes to the temporary folder, or /var/tmp when that one is in memory.
        var parents = new[] { environment["TMPDIR"], "/var/tmp" }.Where(Directory.Exists).ToList();
        var before = parents.SelectMany(p => Directory.EnumerateDirectories(p, "conclab-files-*")).ToHashSet();
        using var run = RunningProgram.StartConclab(folder.Path, environment,
            "run", "hash", "--files", "64", "--file-size", "16MiB", "--workers", "2", "--out", "out", "--plain");
        string? set = null;
        Assert.True(
            await RunningProgram.UntilAsync(
                () =>
                {
                    set = parents.SelectMany(p => Directory.EnumerateDirectories(p, "conclab-files-*")).FirstOrDefault(d => !before.Contains(d));
                    return set is not null && Directory.EnumerateFiles(set, "*.bin").Count() >= 2;
                },
                TimeSpan.FromSeconds(60)),
            $"the set was never written\n{run}");

        run.Signal(9);
        Assert.NotNull(await run.WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.True(Directory.Exists(set), "the killed run had no chance to delete its set; this test needs it left");

        var next = await NextRunAsync(folder, environment);

        Assert.Contains($"removed what an earlier run (process {run.Id}) left when it was killed: the hash scenario's file set in {set} (", next.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(set), $"{set} is still there");
        Assert.Empty(Directory.EnumerateFileSystemEntries(environment["TMPDIR"], "conclab-run-*"));
    }

    /// <summary>A temporary folder of the test's own, so what a run leaves there is its alone, whatever runs beside it.</summary>
    private static Dictionary<string, string> PrivateTemporaryFolder(TempFolder folder)
    {
        var temporary = Path.Combine(folder.Path, "tmp");
        Directory.CreateDirectory(temporary);
        return new Dictionary<string, string> { ["TMPDIR"] = temporary };
    }

    private static async Task<ProgramRunner.Result> NextRunAsync(TempFolder folder, IReadOnlyDictionary<string, string> environment)
    {
        var next = await ProgramRunner.RunProgramAsync(
            "dotnet", folder.Path, [ProgramRunner.ConclabDll, "run", "delay", "--quick", "--variants", "whenall", "--repeat", "1", "--out", "next", "--plain"], environment: environment);
        Assert.True(next.ExitCode == 0, next.ToString());
        return next;
    }
}
