using System.Diagnostics;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// What <c>conclab why</c> refuses, each in one line with exit code 2 and nothing left running. Nothing here is watched,
/// so these run beside the other classes rather than in <see cref="WhyTests"/>' collection, which runs alone.
/// </summary>
public sealed class WhyRefusalTests
{
    [Fact]
    public async Task WhatCannotBeWatched_IsOneLine_ExitCode2_AndNothingIsLeftRunning()
    {
        using var folder = new TempFolder();
        var cases = new[]
        {
            (new[] { "why" }, "needs a program"),
            (new[] { "why", "--pid", "0" }, "--pid takes a whole number"),
            (new[] { "why", "--pid", "abc" }, "--pid takes a whole number"),
            (new[] { "why", "--pid", "4194303" }, "there is no process 4194303"),
            (new[] { "why", "--pid", "1" }, "process 1"),
            (new[] { "why", "--", "no-such-program-anywhere" }, "there is no program no-such-program-anywhere on PATH"),
            (new[] { "why", "--", "/bin/true" }, "before a .NET runtime in it connected"),
            (new[] { "why", "--pid", "1", "--", "dotnet" }, "give one of them"),
            (new[] { "why", "--no-inline", "--pid", "1" }, "DOTNET_JitNoInline=1"),
        };
        foreach (var (args, said) in cases)
        {
            var run = await ProgramRunner.ConclabAsync(folder.Path, args);
            Assert.True(run.ExitCode == 2, run.ToString());
            var lines = run.Error.ReplaceLineEndings("\n").Trim('\n').Split('\n');
            Assert.Single(lines);
            Assert.Contains(said, lines[0], StringComparison.Ordinal);
            Assert.DoesNotContain("   at ", run.Error, StringComparison.Ordinal);
        }

        // Not .NET and still running: stopped after the 10 s the runtime had to connect, nothing left behind.
        var sleeper = await ProgramRunner.ConclabAsync(folder.Path, "why", "--", "/bin/sleep", "120");
        Assert.True(sleeper.ExitCode == 2, sleeper.ToString());
        Assert.Contains("is not a .NET program", sleeper.Error, StringComparison.Ordinal);
        Assert.DoesNotContain(Process.GetProcessesByName("sleep"), p => WhyTests.CommandLine(p.Id).Contains("sleep 120", StringComparison.Ordinal));
    }

    [SkippableFact]
    public async Task AnotherUsersProcess_IsNeverWatched_OneLine_ExitCode2()
    {
        Skip.IfNot(Environment.UserName == "root" && File.Exists("/usr/bin/setpriv"), "a process of another user is started with setpriv, as root");
        using var folder = new TempFolder();
        using var others = RunningProgram.Start("/usr/bin/setpriv", folder.Path, ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sleep", "60"]);

        // setpriv becomes the other user's sleep in place: its process is the other user's once it has.
        Assert.True(await RunningProgram.UntilAsync(() => WhyTests.CommandLine(others.Id).StartsWith("/bin/sleep", StringComparison.Ordinal), TimeSpan.FromSeconds(10)));
        var run = await ProgramRunner.ConclabAsync(folder.Path, "why", "--pid", others.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));

        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Equal($"conclab: process {others.Id} is not this user's: conclab watches only your own processes", run.Error.Trim());
    }
}
