using System.Diagnostics;
using System.Text;
using ConcurrencyLab.Measurement;

namespace ConcurrencyLab.Tests.Measurement;

public sealed class MachineTimeTests
{
    [Fact]
    public void TheAggregateLine_GivesBusyIdleIoWaitAndSteal_InTicks()
    {
        var stat = "cpu  1064916 31196 124058 868439 11850 0 5253 11976 0 0\ncpu0 512579 16345 58504 458730 4107 0 2253 6032 0 0\n"u8;

        var machine = MachineTime.Parse(stat, tickMs: 10)!.Value;

        // Busy is user, nice, system, irq and softirq; idle counts the time waiting for I/O too.
        Assert.Equal((1064916 + 31196 + 124058 + 0 + 5253) * 10.0, machine.BusyMs);
        Assert.Equal((868439 + 11850) * 10.0, machine.IdleMs);
        Assert.Equal(11850 * 10.0, machine.IoWaitMs);
        Assert.Equal(11976 * 10.0, machine.StealMs);
        Assert.Equal(new MachineTime(5, 4, 3, 2), new MachineTime(15, 14, 13, 12).Since(new MachineTime(10, 10, 10, 10)));
    }

    [Theory]
    [InlineData("")]
    [InlineData("cpu0 1 2 3 4 5 6 7 8\n")]
    [InlineData("cpu  1 2 3 4 5 6 7\n")]
    [InlineData("cpu  1 2 3 x 5 6 7 8\n")]
    [InlineData("intr 1 2 3 4 5 6 7 8\n")]
    public void ALineWithoutTheEightStates_IsNotRead(string stat)
    {
        Assert.Null(MachineTime.Parse(Encoding.ASCII.GetBytes(stat), tickMs: 10));
    }

    [SkippableFact]
    public void OverASpin_TheMachinesTimeAddsUpToItsCores_AndItsBusyTimeHoldsThisProcesssCpu()
    {
        using var counters = new ProcessCounters(machine: true);
        Skip.IfNot(counters.ReadMachine() is not null, "this system has no /proc/stat");
        var cpuBefore = Environment.CpuUsage.TotalTime;
        var before = counters.ReadMachine()!.Value;
        var clock = Stopwatch.StartNew();
        while (clock.ElapsedMilliseconds < 400)
        {
            Thread.SpinWait(1000);
        }

        var span = counters.ReadMachine()!.Value.Since(before);
        var elapsed = clock.Elapsed.TotalMilliseconds;
        var cpu = (Environment.CpuUsage.TotalTime - cpuBefore).TotalMilliseconds;

        // Every core's time is in one state or another: within a third of the cores times the span, whatever else runs.
        // The cores are the machine's own as /proc/stat lists them, which a container's quota does not lower.
        var cores = File.ReadLines("/proc/stat").Count(l => l.StartsWith("cpu", StringComparison.Ordinal) && char.IsAsciiDigit(l[3]));
        var total = span.BusyMs + span.IdleMs + span.StealMs;
        Assert.InRange(total, 0.66 * cores * elapsed, 1.5 * cores * elapsed);

        // The spin was busy time, whoever else ran beside it.
        Assert.True(span.BusyMs >= 0.8 * cpu - 20, $"the machine was busy {span.BusyMs} ms while this process alone spent {cpu} ms");
        Assert.InRange(span.IoWaitMs, 0, span.IdleMs);
    }
}
