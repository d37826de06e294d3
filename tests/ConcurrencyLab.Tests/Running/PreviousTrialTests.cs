using System.Diagnostics;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Running;

namespace ConcurrencyLab.Tests.Running;

public sealed class PreviousTrialTests
{
    [SkippableFact]
    public void AProcessStillExiting_IsWaitedFor_UntilItIsGone()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "needs /proc to tell a process by its start time");
        using var process = Process.Start(new ProcessStartInfo("sleep", "0.3") { UseShellExecute = false })!;
        var previous = new PreviousTrial(process.Id, ProcessIdentity.StartTimeOf(process.Id)!);
        Assert.True(previous.Running);

        Assert.True(previous.WaitUntilGone());

        Assert.False(previous.Running);
        Assert.True(process.WaitForExit(TimeSpan.FromSeconds(10)));
    }

    [SkippableFact]
    public void AnotherProcessUnderTheSameId_IsNotTheTrialBefore()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "needs /proc to tell a process by its start time");
        var self = Environment.ProcessId;
        var started = ProcessIdentity.StartTimeOf(self)!;

        Assert.True(new PreviousTrial(self, started).Running);
        Assert.False(new PreviousTrial(self, started + "0").Running);
        Assert.True(new PreviousTrial(self, started + "0").WaitUntilGone());
    }
}
