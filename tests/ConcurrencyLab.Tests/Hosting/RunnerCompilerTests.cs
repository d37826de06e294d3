using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using ConcurrencyLab.Hosting;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Hosting;

public sealed class RunnerCompilerTests
{
    [SkippableFact]
    public void TheCompilationWorkerIsLowered_AndAProcessStartedAfterwardsKeepsItsStartersPriority()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "needs Linux's /proc and setpriority");
        var mine = NiceOf(File.ReadAllText($"/proc/self/task/{LabThreads.CurrentOsId()}/stat"));
        Skip.If(mine == RunnerCompiler.Nice, "this test process already runs at the lowest priority, so lowering shows nothing");
        Skip.If(WorkersAfterTieringUp().Count == 0, "the runtime started no tiered compilation worker (tiered compilation off?)");

        var lowered = RunnerCompiler.Lower();

        Assert.True(lowered >= 1, $"lowered {lowered} workers");
        Assert.All(RunnerCompiler.Workers(), id => Assert.Equal(RunnerCompiler.Nice, NiceOf(File.ReadAllText($"/proc/self/task/{id}/stat"))));
        Assert.All(RunnerCompiler.Workers(), id => Assert.Equal(RunnerCompiler.IdlePolicy, PolicyOf(File.ReadAllText($"/proc/self/task/{id}/stat"))));

        // A trial's process is started from one of the runner's other threads and must not inherit the worker's priority.
        using var child = Process.Start(new ProcessStartInfo("cat", "/proc/self/stat") { RedirectStandardOutput = true, UseShellExecute = false })!;
        var stat = child.StandardOutput.ReadToEnd();
        child.WaitForExit();
        Assert.Equal(mine, NiceOf(stat));
        Assert.Equal(0, PolicyOf(stat));
    }

    // The 41st field: the scheduling policy (0 the normal one).
    private static int PolicyOf(string stat) => int.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[38], CultureInfo.InvariantCulture);

    // The kernel's stat line: "pid (name) state ...", the nice value the 19th field; the name may hold spaces.
    private static int NiceOf(string stat)
    {
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return int.Parse(fields[16], CultureInfo.InvariantCulture);
    }

    // Each value type gives the generic method a body of its own, so each one tiers up afresh and wakes the worker,
    // which the runtime ends after some seconds idle.
    private static IReadOnlyList<int> WorkersAfterTieringUp()
    {
        Action[] rounds = [Calls<byte>, Calls<short>, Calls<int>, Calls<long>, Calls<float>, Calls<double>, Calls<decimal>, Calls<Guid>, Calls<DateTime>, Calls<TimeSpan>];
        foreach (var round in rounds)
        {
            round();
            for (var wait = 0; wait < 10; wait++)
            {
                if (RunnerCompiler.Workers().Count > 0)
                {
                    return RunnerCompiler.Workers();
                }

                Thread.Sleep(50);
            }
        }

        return [];
    }

    private static void Calls<T>()
        where T : struct
    {
        var total = 0;
        for (var i = 0; i < 200; i++)
        {
            total += Called<T>(i);
        }

        GC.KeepAlive(total);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int Called<T>(int i)
        where T : struct => (i * 31) ^ Unsafe.SizeOf<T>();
}
