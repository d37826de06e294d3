using System.Diagnostics;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Running;

namespace ConcurrencyLab.Tests.Running;

public sealed class ProcessInstanceTests
{
    [SkippableFact]
    public void AProcessStillExiting_IsWaitedFor_UntilItIsGone()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "needs /proc to tell a process by its start time");
        // cat runs until its input ends, so it is surely running until then.
        using var process = Process.Start(new ProcessStartInfo("cat") { UseShellExecute = false, RedirectStandardInput = true })!;
        var started = ProcessIdentity.StartTimeOf(process.Id);
        Assert.NotNull(started);
        var previous = new ProcessInstance(process.Id, started);
        Assert.True(previous.IsRunning());

        process.StandardInput.Close();
        Assert.True(previous.WaitUntilGone());

        Assert.False(previous.IsRunning());
        Assert.True(process.WaitForExit(TimeSpan.FromSeconds(10)));
    }

    [SkippableFact]
    public void AnotherProcessUnderTheSameId_IsNotTheTrialBefore()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "needs /proc to tell a process by its start time");
        var self = Environment.ProcessId;
        var started = ProcessIdentity.StartTimeOf(self);
        Assert.NotNull(started);

        Assert.True(new ProcessInstance(self, started).IsRunning());
        Assert.False(new ProcessInstance(self, started + "0").IsRunning());
        Assert.True(new ProcessInstance(self, started + "0").WaitUntilGone());
    }
}
