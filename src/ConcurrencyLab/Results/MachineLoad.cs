namespace ConcurrencyLab.Results;

/// <summary>
/// How busy the machine's other processes kept it over a scenario's run, set-up and trials included: the machine's
/// busy core time less the lab's own (the runner's process and every process it waited for). The claims read it for a
/// quiet machine. Absent in files from before it was kept, and off Linux.
/// </summary>
internal sealed record MachineLoad
{
    /// <summary>How long the scenario's run took.</summary>
    public required double WallMs { get; init; }

    /// <summary>The wall time times the machine's logical cores: all the core time there was.</summary>
    public required double CoreMs { get; init; }

    /// <summary>Core time the whole machine was busy (user, nice, system, interrupts).</summary>
    public required double BusyMs { get; init; }

    /// <summary>Of it, the lab's own: the runner's process and the trials' it waited for.</summary>
    public required double LabCpuMs { get; init; }

    /// <summary>The rest: other processes, the kernel's threads, and any of the lab's not waited for.</summary>
    public required double OthersMs { get; init; }

    /// <summary>Others' core time as a share of all the core time there was, 0 to 1.</summary>
    public double OthersShare => CoreMs > 0 ? Math.Clamp(OthersMs / CoreMs, 0, 1) : 0;
}
