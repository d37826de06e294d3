using System.Diagnostics;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Measurement;

public sealed class ProcessThreadsTests
{
    [SkippableFact]
    public async Task Of_ASingleThreadedProcess_IsOne_AndNullOnceItHasExited()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "threads are read from /proc, which only Linux has");

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

    [Theory]
    [InlineData("4242 (dotnet) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 17 0 100 0 0", 17)]
    [InlineData("4242 (a (tricky) name) R 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 3 0 100 0 0", 3)]
    [InlineData("4242 (dotnet) Z 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 100 0 0", null)]
    [InlineData("4242 (dotnet) X 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 100 0 0", null)]
    [InlineData("garbage", null)]
    public void AnExitedProcess_HasNoLiveThreads(string stat, int? expected)
    {
        Assert.Equal(expected, ProcessThreads.ParseLiveThreadCount(System.Text.Encoding.ASCII.GetBytes(stat)));
    }
}
