using System.Diagnostics;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Measurement;

public sealed class ProcessThreadsTests
{
    [Fact]
    public async Task Of_ASingleThreadedProcess_IsOne_AndNullOnceItHasExited()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        using var sleeper = Process.Start(new ProcessStartInfo("sleep", "30") { UseShellExecute = false })!;
        try
        {
            Assert.Equal(1, ProcessThreads.Of(sleeper.Id));
        }
        finally
        {
            sleeper.Kill();
            await sleeper.WaitForExitAsync();
        }

        Assert.Null(ProcessThreads.Of(sleeper.Id));
    }

    [Fact]
    public void Of_ThisProcess_CountsMoreThanOneThread_AndOfNoProcess_IsNull()
    {
        Assert.True(ProcessThreads.Of(Environment.ProcessId) > 1);
        Assert.Null(ProcessThreads.Of(int.MaxValue));
    }
}
