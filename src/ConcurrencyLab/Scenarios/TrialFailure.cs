namespace ConcurrencyLab.Scenarios;

/// <summary>How a trial's failure is told in one line: results and tables keep a trial's error to one line.</summary>
internal static class TrialFailure
{
    /// <summary>The exception's type and the first line of its innermost message.</summary>
    public static string Describe(Exception exception) => $"{exception.GetType().Name}: {FirstLine(exception.GetBaseException().Message)}";

    /// <summary>The text up to its first line break.</summary>
    public static string FirstLine(string text)
    {
        var end = text.IndexOfAny(['\r', '\n']);
        return end < 0 ? text : text[..end];
    }
}
