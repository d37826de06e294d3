using System.Net;
using System.Net.Sockets;
using ConcurrencyLab.Load;

namespace ConcurrencyLab.Tests.Load;

/// <summary>Which process listens on a port: what lets --pid be refused when it names another process than the service's.</summary>
public sealed class ListeningTests
{
    [SkippableFact]
    public void ThisProcess_HoldsItsListener_AndNoOtherPort()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "read from /proc");
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        using var other = new TcpListener(IPAddress.Loopback, 0);
        other.Start();
        var otherPort = ((IPEndPoint)other.LocalEndpoint).Port;
        other.Stop();

        Assert.True(Listening.Holds(Environment.ProcessId, port));
        Assert.False(Listening.Holds(Environment.ProcessId, otherPort));
    }

    [SkippableFact]
    public void AProcessThatIsNotRunning_HoldsNothing()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "read from /proc");
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();

        // Above the kernel's highest process id (4,194,304 at most).
        Assert.False(Listening.Holds(4_194_305, ((IPEndPoint)listener.LocalEndpoint).Port));
    }

    [SkippableFact]
    public async Task AProcessOfAnotherUser_IsNotThisUsers_AndThisOneIs()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "read from /proc");
        Assert.True(Listening.OwnedByThisUser(Environment.ProcessId));
        Skip.IfNot(Environment.UserName == "root" && File.Exists("/usr/bin/setpriv"), "only root starts a process as another user here");

        using var other = System.Diagnostics.Process.Start("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sleep", "30"]);
        try
        {
            // setpriv becomes sleep in the same process once it has changed its user.
            var deadline = DateTime.UtcNow.AddSeconds(10);
            while (Listening.OwnedByThisUser(other.Id) is true && DateTime.UtcNow < deadline)
            {
                await Task.Delay(20);
            }

            Assert.False(Listening.OwnedByThisUser(other.Id));
        }
        finally
        {
            other.Kill();
            await other.WaitForExitAsync();
        }
    }
}
