namespace ConcurrencyLab;

/// <summary>What the exit code of conclab, or of a program run through <see cref="LabProgram"/>, means.</summary>
public static class ExitCode
{
    /// <summary>Every trial ran and passed its checks.</summary>
    public const int Ok = 0;

    /// <summary>
    /// Something the command exists to say went wrong, and everything else was done and written: from <c>run</c>, some
    /// trial failed or timed out; from <c>reproduce</c>, some run could not be made (a trial that failed is a result
    /// there); from <c>compare</c>, some variant got significantly slower; from <c>report</c>, some report could not be written.
    /// </summary>
    public const int Failed = 1;

    /// <summary>Bad input: an unknown option, a value out of range, an impossible variant.</summary>
    public const int BadInput = 2;

    /// <summary>A threshold given with <c>--assert</c> was not met; every result is written all the same. It wins over
    /// <see cref="Failed"/>.</summary>
    public const int ThresholdFailed = 3;

    /// <summary>Interrupted with Ctrl+C or SIGTERM; what was measured is written.</summary>
    public const int Cancelled = 130;

    /// <summary>Stopped by SIGHUP (its terminal closed, its ssh connection dropped); what was measured is written, as
    /// for <see cref="Cancelled"/>.</summary>
    public const int HungUp = 129;
}
