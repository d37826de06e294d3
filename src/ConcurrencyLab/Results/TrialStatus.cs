using System.Text.Json;

namespace ConcurrencyLab.Results;

/// <summary>How a trial or variant ended; written in <c>results.json</c> as <c>ok</c>, <c>failed</c> or <c>timeout</c>.</summary>
internal enum TrialStatus
{
    /// <summary>Ran to the end and every check passed.</summary>
    Ok,

    /// <summary>Threw, crashed, or failed a check (such as items completed differing from items planned).</summary>
    Failed,

    /// <summary>Outlived the trial timeout and was killed.</summary>
    Timeout,
}

/// <summary>How a <see cref="TrialStatus"/> is written for a reader.</summary>
internal static class TrialStatuses
{
    /// <summary>The status as results and tables write it: <c>ok</c>, <c>failed</c> or <c>timeout</c>, by the same rule
    /// as <c>results.json</c>.</summary>
    public static string ToText(this TrialStatus status) => JsonNamingPolicy.CamelCase.ConvertName(status.ToString());
}
