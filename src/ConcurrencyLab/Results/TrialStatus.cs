namespace ConcurrencyLab.Results;

/// <summary>How a trial or variant ended, as written in <c>results.json</c>.</summary>
public static class TrialStatus
{
    /// <summary>Ran to the end and every check passed.</summary>
    public const string Ok = "ok";

    /// <summary>Threw, crashed, or failed a check (such as items completed differing from items planned).</summary>
    public const string Failed = "failed";

    /// <summary>Outlived the trial timeout and was killed.</summary>
    public const string Timeout = "timeout";
}
