namespace ConcurrencyLab.Scenarios;

/// <summary>How a trial's failure is told in one line: results and tables keep a trial's error to one line.</summary>
internal static class TrialFailure
{
    /// <summary>
    /// The exception's type and the first line of its message, then the innermost one's when that says
    /// something else: an HttpClient timeout's own message names the timeout, and its innermost only says
    /// "Operation canceled".
    /// </summary>
    public static string Describe(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        var outer = FirstLine(exception.Message);
        var inner = FirstLine(exception.GetBaseException().Message);
        return inner == outer ? $"{exception.GetType().Name}: {outer}" : $"{exception.GetType().Name}: {outer} ({inner})";
    }

    /// <summary>The text up to its first line break.</summary>
    public static string FirstLine(string text)
    {
        var end = text.IndexOfAny(['\r', '\n']);
        return end < 0 ? text : text[..end];
    }
}
